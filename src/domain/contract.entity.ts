import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Decimal } from '../law/decimal';
import { Feedstock } from '../law/types';
import { NUMERIC } from './decimal.transformer';

/** Prior purchase contract with family farming (Decreto 10.527/2020, art. 3º §2 II–III). */
@Entity('contract')
export class Contract {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column({ name: 'family_farmer_id', type: 'bigint', nullable: true }) familyFarmerId: string | null;
  @Column({ name: 'organization_id', type: 'bigint', nullable: true }) organizationId: string | null;
  @Column({ name: 'signed_on', type: 'date' }) signedOn: string;
  @Column({ name: 'valid_from', type: 'date' }) validFrom: string;
  @Column({ name: 'valid_until', type: 'date' }) validUntil: string;
  @Column('text') feedstock: Feedstock;
  @Column({ name: 'quantity_kg', ...NUMERIC }) quantityKg: Decimal;
  @Column({ name: 'price_per_kg', ...NUMERIC }) pricePerKg: Decimal;
  @Column({ name: 'technical_assistance', type: 'boolean' }) technicalAssistance: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
