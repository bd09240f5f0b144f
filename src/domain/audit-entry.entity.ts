import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Role } from '../law/types';

/** Who changed what, written in the same transaction as the change (the access rules, README "Tokens"). */
@Entity('audit_entry')
export class AuditEntry {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ type: 'timestamptz', default: () => 'now()' }) at: Date;
  @Column('text') actor: string;
  @Column('text') role: Role;
  @Column('text') operation: string;
  @Column('text') entity: string;
  @Column({ name: 'entity_id', type: 'text', nullable: true }) entityId: string | null;
  /** The producer whose record changed, for scoping; null for reference data and the law. */
  @Column({ name: 'producer_id', type: 'bigint', nullable: true }) producerId: string | null;
  @Column({ name: 'request_id', type: 'text', nullable: true }) requestId: string | null;
  @Column({ type: 'jsonb', nullable: true }) before: Record<string, unknown> | null;
  @Column({ type: 'jsonb', nullable: true }) after: Record<string, unknown> | null;
}
