import { DataSource } from 'typeorm';
import { AuditEntry } from '../domain';
import { Actor } from './actor';
import { BadInputError } from './errors';
import { Connection, decodeCursor, PageArgs, pageSize, toConnection } from './pagination';
import { visibleProducerId } from './scope';

export interface AuditLogArgs extends PageArgs {
  entity?: string | null;
  entityId?: string | null;
}

/**
 * The audit log (DESIGN §4): entries are written by `mutate()` in each mutation's transaction and
 * never changed. ADMIN and AUDITOR read every entry; a PRODUCER only the entries of its own
 * producer's records (audit_entry.producer_id), so reference data and other producers' changes
 * are absent from its pages and from totalCount alike.
 */
export class AuditService {
  constructor(private readonly ds: DataSource) {}

  /** Newest first, keyset-paginated by id. */
  async list(actor: Actor, args: AuditLogArgs): Promise<Connection<AuditEntry>> {
    const limit = pageSize(args.first);
    const after = decodeCursor(args.after, 1);
    if (after && !/^\d{1,18}$/.test(String(after[0]))) throw new BadInputError('after', 'after is not a cursor returned by this API');
    const qb = this.ds.getRepository(AuditEntry).createQueryBuilder('a');
    const only = visibleProducerId(actor);
    if (only !== null) qb.andWhere('a.producer_id = :only', { only });
    if (args.entity != null) qb.andWhere('a.entity = :entity', { entity: args.entity });
    if (args.entityId != null) qb.andWhere('a.entity_id = :entityId', { entityId: args.entityId });
    const totalCount = await qb.clone().getCount();
    if (after) qb.andWhere('a.id < :after', { after: String(after[0]) });
    const rows = await qb.orderBy('a.id', 'DESC').take(limit + 1).getMany();
    return toConnection(rows, limit, (a) => [String(a.id)], totalCount, after !== null);
  }
}
