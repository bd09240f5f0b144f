import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Decimal } from '../law/decimal';
import { FomentoKind, RecordState } from '../law/types';
import { NUMERIC } from './decimal.transformer';

/** Fomento spending (Decreto 10.527/2020, art. 2º VII; art. 3º §2 I c). */
@Entity('fomento_expense')
export class FomentoExpense {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column({ name: 'spent_on', type: 'date' }) spentOn: string;
  @Column('text') kind: FomentoKind;
  @Column(NUMERIC) amount: Decimal;
  @Column({ name: 'municipality_code', type: 'char', length: 7 }) municipalityCode: string;
  @Column({ name: 'organization_id', type: 'bigint', nullable: true }) organizationId: string | null;
  @Column({ type: 'text', nullable: true }) description: string | null;
  /** The NF-e that documents the record (Ajuste SINIEF 07/2005), if any. */
  @Column({ name: 'invoice_key', type: 'char', length: 44, nullable: true }) invoiceKey: string | null;
  /** ACTIVE, or CANCELLED with its NF-e: a cancelled record is kept but counted by no computation. */
  @Column({ type: 'text', default: RecordState.ACTIVE }) state: RecordState;
  /** Raised by each correction; a correction names the version it read. */
  @Column({ type: 'int', default: 1 }) version: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
