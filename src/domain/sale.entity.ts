import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Decimal } from '../law/decimal';
import { BiodieselOrigin, Market, RecordState } from '../law/types';
import { NUMERIC } from './decimal.transformer';

/** A sale of biodiesel: the tax base (Lei 11.116/2005, arts. 3º–4º) and the Selo base (art. 3º §3º II). */
@Entity('sale')
export class Sale {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column({ name: 'sold_on', type: 'date' }) soldOn: string;
  @Column({ name: 'volume_m3', ...NUMERIC }) volumeM3: Decimal;
  @Column(NUMERIC) revenue: Decimal;
  @Column('text') origin: BiodieselOrigin;
  @Column('text') market: Market;
  @Column({ name: 'invoice_key', type: 'char', length: 44, nullable: true }) invoiceKey: string | null;
  /** ACTIVE, or CANCELLED with its NF-e: a cancelled record is kept but counted by no computation. */
  @Column({ type: 'text', default: RecordState.ACTIVE }) state: RecordState;
  /** Raised by each correction; a correction names the version it read. */
  @Column({ type: 'int', default: 1 }) version: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
