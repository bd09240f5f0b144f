import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Decimal } from '../law/decimal';
import { RecordState } from '../law/types';
import { NUMERIC } from './decimal.transformer';

/** An import of biodiesel: PIS/Pasep-Importação and Cofins-Importação per m³ (Decreto 10.527/2020, art. 5º §1º). */
@Entity('biodiesel_import')
export class BiodieselImport {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  /** Date of customs clearance (desembaraço aduaneiro). */
  @Column({ name: 'cleared_on', type: 'date' }) clearedOn: string;
  @Column({ name: 'volume_m3', ...NUMERIC }) volumeM3: Decimal;
  /** The import declaration's number (DI or DUIMP), unique per producer. */
  @Column({ name: 'declaration_number', type: 'text' }) declarationNumber: string;
  /** The NF-e that documents the record (Ajuste SINIEF 07/2005), if any. */
  @Column({ name: 'invoice_key', type: 'char', length: 44, nullable: true }) invoiceKey: string | null;
  /** ACTIVE, or CANCELLED with its NF-e: a cancelled record is kept but counted by no computation. */
  @Column({ type: 'text', default: RecordState.ACTIVE }) state: RecordState;
  /** Raised by each correction; a correction names the version it read. */
  @Column({ type: 'int', default: 1 }) version: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
