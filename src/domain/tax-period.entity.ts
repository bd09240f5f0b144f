import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TaxPeriodStatus } from '../law/types';

/** One event in the life of a closed month: a close or a reopening (with its reason). */
export interface TaxPeriodEvent {
  action: 'CLOSED' | 'REOPENED';
  at: string;
  by: string;
  reason?: string;
  fingerprint?: string;
}

/**
 * A producer's monthly PIS/Cofins period once it has been closed (Lei 11.116/2005, arts. 3º–5º;
 * issue 4): the snapshot of every figure, the fingerprint of the inputs, and its history.
 */
@Entity('tax_period')
export class TaxPeriod {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column('integer') year: number;
  @Column('integer') month: number;
  @Column('text') status: TaxPeriodStatus;
  @Column({ type: 'jsonb', nullable: true }) snapshot: Record<string, unknown> | null;
  @Column({ type: 'text', nullable: true }) fingerprint: string | null;
  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true }) closedAt: Date | null;
  @Column({ name: 'closed_by', type: 'text', nullable: true }) closedBy: string | null;
  @Column({ name: 'reopened_at', type: 'timestamptz', nullable: true }) reopenedAt: Date | null;
  @Column({ name: 'reopened_by', type: 'text', nullable: true }) reopenedBy: string | null;
  @Column({ name: 'reopen_reason', type: 'text', nullable: true }) reopenReason: string | null;
  @Column({ type: 'jsonb' }) history: TaxPeriodEvent[];
}
