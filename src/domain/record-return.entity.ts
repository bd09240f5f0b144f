import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Decimal } from '../law/decimal';
import { RecordState } from '../law/types';
import { NUMERIC } from './decimal.transformer';

/** Goods come back (a return note, finNFe 4): part of a purchase or sale, counted in the month of the return. */
@Entity('record_return')
export class RecordReturn {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column({ name: 'purchase_id', type: 'bigint', nullable: true }) purchaseId: string | null;
  @Column({ name: 'sale_id', type: 'bigint', nullable: true }) saleId: string | null;
  @Column({ name: 'returned_on', type: 'date' }) returnedOn: string;
  /** kg of a purchase, m³ of a sale. */
  @Column(NUMERIC) quantity: Decimal;
  /** The value returned: part of the purchase's cost or the sale's revenue. */
  @Column(NUMERIC) value: Decimal;
  /** The return note's own key, if any. */
  @Column({ name: 'invoice_key', type: 'char', length: 44, nullable: true }) invoiceKey: string | null;
  /** The key of the note whose goods come back (refNFe). */
  @Column({ name: 'original_key', type: 'char', length: 44 }) originalKey: string;
  /** The original note's item number (nItem) of the purchase returned, when known. */
  @Column({ name: 'original_item', type: 'int', nullable: true }) originalItem: number | null;
  @Column({ type: 'text', default: RecordState.ACTIVE }) state: RecordState;
  @Column({ type: 'int', default: 1 }) version: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
