import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One interval of a municipality's Semiárido membership, citing the Condel/Sudene act that set it
 * (both ends inclusive; `validFrom` null: recorded without a date; `validUntil` null: open).
 */
@Entity('semiarid_membership')
export class SemiaridMembership {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'municipality_code', type: 'char', length: 7 }) municipalityCode: string;
  @Column({ name: 'valid_from', type: 'date', nullable: true }) validFrom: string | null;
  @Column({ name: 'valid_until', type: 'date', nullable: true }) validUntil: string | null;
  @Column('text') act: string;
  @Column({ name: 'recorded_at', type: 'timestamptz' }) recordedAt: Date;
}
