import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Concession of the Selo by administrative act (Decreto 10.527/2020, art. 4º III, V). */
@Entity('seal_grant')
export class SealGrant {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column({ name: 'granted_on', type: 'date' }) grantedOn: string;
  @Column({ name: 'valid_until', type: 'date' }) validUntil: string;
  @Column({ type: 'text', nullable: true }) act: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
