import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Decimal } from '../law/decimal';
import { Feedstock } from '../law/types';
import { NUMERIC } from './decimal.transformer';

/** PGPAF minimum price (Decreto 5.996/2006), a dated and cited version (docs/LAW.md). */
@Entity('minimum_price')
export class MinimumPrice {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column('text') feedstock: Feedstock;
  /** Null nationwide; a state's two-digit IBGE code; or a region (Region). */
  @Column({ type: 'text', nullable: true }) scope: string | null;
  @Column({ name: 'valid_from', type: 'date' }) validFrom: string;
  @Column({ name: 'valid_until', type: 'date' }) validUntil: string;
  @Column({ name: 'price_per_kg', ...NUMERIC }) pricePerKg: Decimal;
  @Column('text') source: string;
  @Column({ name: 'published_on', type: 'date' }) publishedOn: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
