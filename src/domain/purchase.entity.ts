import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Decimal } from '../law/decimal';
import { Feedstock, PurchasePurpose, SupplierKind, RecordState } from '../law/types';
import { CreditProduct, CreditSupplier, RevenueGroup } from '../law/credits/types';
import { NUMERIC } from './decimal.transformer';

/** A lot of raw material acquired (or produced) by a producer. */
@Entity('purchase')
export class Purchase {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column({ name: 'purchased_on', type: 'date' }) purchasedOn: string;
  /** Used in production on this date (Decreto 10.527/2020, art. 6º §3º). */
  @Column({ name: 'consumed_on', type: 'date' }) consumedOn: string;
  @Column('text') feedstock: Feedstock;
  @Column({ name: 'quantity_kg', ...NUMERIC }) quantityKg: Decimal;
  /** Null for own production (valued per art. 6º §4º). */
  @Column({ ...NUMERIC, nullable: true }) cost: Decimal | null;
  @Column({ name: 'supplier_kind', type: 'text' }) supplierKind: SupplierKind;
  @Column({ name: 'family_farmer_id', type: 'bigint', nullable: true }) familyFarmerId: string | null;
  @Column({ name: 'organization_id', type: 'bigint', nullable: true }) organizationId: string | null;
  @Column({ name: 'supplier_name', type: 'text', nullable: true }) supplierName: string | null;
  /** The supplier's CNPJ or CPF, digits only (EFD-Contribuições C191/C195 field 02). */
  @Column({ name: 'supplier_document', type: 'text', nullable: true }) supplierDocument: string | null;
  /** Who sold, as the credit tells suppliers apart (art. 3º § 3º I); null: from supplierKind where it says. */
  @Column({ name: 'credit_supplier', type: 'text', nullable: true }) creditSupplier: CreditSupplier | null;
  /** What was bought, as the credit tells goods apart; null: from the feedstock where it says. */
  @Column({ name: 'credit_product', type: 'text', nullable: true }) creditProduct: CreditProduct | null;
  /** ICMS in the cost, excluded from the credit's base (art. 3º § 2º III). */
  @Column({ name: 'icms_value', ...NUMERIC, nullable: true }) icmsValue: Decimal | null;
  /** Imports: the contributions actually paid (Lei 10.865/2004, art. 15 §§ 1º, 1º-A). */
  @Column({ name: 'import_pis_paid', ...NUMERIC, nullable: true }) importPisPaid: Decimal | null;
  @Column({ name: 'import_cofins_paid', ...NUMERIC, nullable: true }) importCofinsPaid: Decimal | null;
  /** The CBS its invoice states (vCBS), the credit of an acquisition from 2027 (LC 214/2025, art. 47). */
  @Column({ name: 'cbs_value', ...NUMERIC, nullable: true }) cbsValue: Decimal | null;
  /** Under direct allocation: the revenue the input served (art. 3º § 8º I). */
  @Column({ name: 'credit_revenue_group', type: 'text', nullable: true }) creditRevenueGroup: RevenueGroup | null;
  @Column({ name: 'origin_municipality_code', type: 'char', length: 7 }) originMunicipalityCode: string;
  @Column({ name: 'contract_id', type: 'bigint', nullable: true }) contractId: string | null;
  @Column('text') purpose: PurchasePurpose;
  @Column({ name: 'external_id', type: 'text', nullable: true }) externalId: string | null;
  /** The NF-e that documents the record (Ajuste SINIEF 07/2005), if any. */
  @Column({ name: 'invoice_key', type: 'char', length: 44, nullable: true }) invoiceKey: string | null;
  /** The item's number in its NF-e (nItem), for a purchase read from the note. */
  @Column({ name: 'invoice_item', type: 'int', nullable: true }) invoiceItem: number | null;
  /** The NF-e item's PIS/Cofins CST, for the credits it decides. */
  @Column({ name: 'pis_cofins_cst', type: 'char', length: 2, nullable: true }) pisCofinsCst: string | null;
  /** The Cofins CST where it differs from pisCofinsCst (null: the same), each contribution's credit following its own. */
  @Column({ name: 'cofins_cst', type: 'char', length: 2, nullable: true }) cofinsCst: string | null;
  /** ACTIVE, or CANCELLED with its NF-e: a cancelled record is kept but counted by no computation. */
  @Column({ type: 'text', default: RecordState.ACTIVE }) state: RecordState;
  /** Raised by each correction; a correction names the version it read. */
  @Column({ type: 'int', default: 1 }) version: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
