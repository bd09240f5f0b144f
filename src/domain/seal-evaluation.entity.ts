import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The evaluation of a producer's Selo year, communicated on a date (Portaria MDA nº 28/2024, art. 58). */
@Entity('seal_evaluation')
export class SealEvaluation {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column('integer') year: number;
  @Column({ name: 'communicated_on', type: 'date' }) communicatedOn: string;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
