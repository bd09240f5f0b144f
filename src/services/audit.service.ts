import { DataSource } from 'typeorm';
import { AuditEntry } from '../domain';
import { Actor } from './actor';
import { Connection, PageArgs } from './pagination';
import { AUDIT_KEYSET, keysetPage } from './keysets';
import { visibleProducerId } from './scope';

export interface AuditLogArgs extends PageArgs {
  entity?: string | null;
  entityId?: string | null;
}

/**
 * The audit log, written by `mutate()` in each mutation's transaction, never changed. A PRODUCER
 * reads only its own records' entries (audit_entry.producer_id), in pages and totalCount alike.
 */
export class AuditService {
  constructor(private readonly ds: DataSource) {}

  /** Newest first, keyset-paginated by id; hasPreviousPage looked up only when `withPrevious`. */
  async list(actor: Actor, args: AuditLogArgs, withPrevious = true): Promise<Connection<AuditEntry>> {
    const qb = this.ds.getRepository(AuditEntry).createQueryBuilder('a');
    const only = visibleProducerId(actor);
    if (only !== null) qb.andWhere('a.producer_id = :only', { only });
    if (args.entity != null) qb.andWhere('a.entity = :entity', { entity: args.entity });
    if (args.entityId != null) qb.andWhere('a.entity_id = :entityId', { entityId: args.entityId });
    return keysetPage(qb, AUDIT_KEYSET, args, { withPrevious });
  }
}
