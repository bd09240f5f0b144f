import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One version of one legal figure (docs/LAW.md): shipped from src/law/parameters or published
 * by an ADMIN. Never updated or deleted.
 */
@Entity('law_parameter_version')
export class LawParameterVersion {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  /** Stable key: shipped versions load idempotently by it. */
  @Column('text') key: string;
  @Column('text') parameter: string;
  @Column({ type: 'text', nullable: true }) scope: string | null;
  /** Decimals as strings. */
  @Column('jsonb') value: Record<string, string>;
  @Column({ name: 'valid_from', type: 'date' }) validFrom: string;
  @Column({ name: 'valid_until', type: 'date', nullable: true }) validUntil: string | null;
  @Column({ name: 'published_on', type: 'date' }) publishedOn: string;
  @Column({ name: 'legal_basis', type: 'text' }) legalBasis: string;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column('boolean') shipped: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
