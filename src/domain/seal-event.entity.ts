import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { SealEventKind } from '../law/types';

/** Suspension, reinstatement, cancellation or renewal of a grant (Decreto 10.527/2020, art. 4º I). */
@Entity('seal_event')
export class SealEvent {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'grant_id', type: 'bigint' }) grantId: string;
  @Column('text') kind: SealEventKind;
  @Column({ name: 'effective_on', type: 'date' }) effectiveOn: string;
  @Column({ type: 'text', nullable: true }) reason: string | null;
  @Column({ name: 'valid_until', type: 'date', nullable: true }) validUntil: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
