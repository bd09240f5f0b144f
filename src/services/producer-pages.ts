import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { isIsoDate } from '../law/dates';
import { Actor } from './actor';
import { BadInputError } from './errors';
import { Connection, CursorValues, decodeCursor, PageArgs, pageSize, toConnection } from './pagination';
import { isId } from './record-batch';
import { canSee } from './scope';

/**
 * Pages of a producer's records (Producer.contracts, .purchases, .sales) for many producers at
 * once, so that a nested query costs the same number of statements for 2 producers as for 200:
 * one statement fetches the first N records of every producer (a LATERAL join over
 * `producer_id = ANY($1)`, served by the (producer_id, date, id) indexes), one grouped statement
 * counts them.
 */

export interface DatedPageArgs extends PageArgs {
  /** Inclusive lower bound on the record's date. */
  from?: string | null;
  /** Inclusive upper bound on the record's date. */
  to?: string | null;
}

export interface ProducerPageKey {
  producerId: string;
  args: DatedPageArgs;
}

/** DataLoader cache key: the producer and the page arguments. */
export function producerPageKey(key: ProducerPageKey): string {
  const { first = null, after = null, from = null, to = null } = key.args;
  return JSON.stringify([key.producerId, first, after, from, to]);
}

export interface PageSpec<T> {
  entity: EntityTarget<T>;
  table: string;
  /** Date column the records are ordered and filtered by, then id; null = by id only. */
  dateColumn: string | null;
  /** Entity property of dateColumn. */
  dateProperty: (keyof T & string) | null;
}

interface Group {
  args: DatedPageArgs;
  indexes: number[];
}

function validateCursor(after: CursorValues | null, dated: boolean): void {
  if (!after) return;
  const [first, second] = after.map(String);
  const ok = dated ? isIsoDate(first) && isId(second) : isId(first);
  if (!ok) throw new BadInputError('after', 'after is not a cursor returned by this API');
}

/**
 * One connection per key, in key order (DataLoader's contract). Keys with the same arguments are
 * answered together; a key with bad arguments gets its error, the others their pages. Producers
 * outside the actor's scope get an empty connection (DESIGN §4: nothing leaks).
 */
export async function pagesByProducer<T extends ObjectLiteral & { id: string; producerId: string }>(
  ds: DataSource,
  actor: Actor,
  spec: PageSpec<T>,
  keys: readonly ProducerPageKey[],
): Promise<Array<Connection<T> | Error>> {
  const results: Array<Connection<T> | Error> = new Array(keys.length);
  const groups = new Map<string, Group>();
  keys.forEach((key, i) => {
    const { first = null, after = null, from = null, to = null } = key.args;
    const id = JSON.stringify([first, after, from, to]);
    const group = groups.get(id) ?? { args: key.args, indexes: [] };
    group.indexes.push(i);
    groups.set(id, group);
  });
  for (const group of groups.values()) {
    try {
      const pages = await pagesFor(ds, actor, spec, group.args, group.indexes.map((i) => keys[i].producerId));
      group.indexes.forEach((i) => { results[i] = pages.get(keys[i].producerId)!; });
    } catch (error) {
      group.indexes.forEach((i) => { results[i] = error as Error; });
    }
  }
  return results;
}

async function pagesFor<T extends ObjectLiteral & { id: string; producerId: string }>(
  ds: DataSource,
  actor: Actor,
  spec: PageSpec<T>,
  args: DatedPageArgs,
  producerIds: string[],
): Promise<Map<string, Connection<T>>> {
  const limit = pageSize(args.first);
  const dated = spec.dateColumn !== null;
  const after = decodeCursor(args.after, dated ? 2 : 1);
  validateCursor(after, dated);
  if (args.from != null && !isIsoDate(args.from)) throw new BadInputError('from', 'from must be a date YYYY-MM-DD');
  if (args.to != null && !isIsoDate(args.to)) throw new BadInputError('to', 'to must be a date YYYY-MM-DD');

  const ids = [...new Set(producerIds.filter((id) => isId(id) && canSee(actor, id)))];
  const rowsByProducer = new Map<string, T[]>();
  const totals = new Map<string, number>();
  if (ids.length > 0) {
    const filters: string[] = [];
    const params: Record<string, unknown> = { ids, lim: limit + 1 };
    if (dated && args.from != null) { filters.push(`q.${spec.dateColumn} >= CAST(:from AS date)`); params.from = args.from; }
    if (dated && args.to != null) { filters.push(`q.${spec.dateColumn} <= CAST(:to AS date)`); params.to = args.to; }
    const keyset: string[] = [];
    if (after && dated) {
      keyset.push(`(q.${spec.dateColumn}, q.id) > (CAST(:afterDate AS date), CAST(:afterId AS bigint))`);
      params.afterDate = String(after[0]);
      params.afterId = String(after[1]);
    } else if (after) {
      keyset.push('q.id > CAST(:afterId AS bigint)');
      params.afterId = String(after[0]);
    }
    const order = dated ? `q.${spec.dateColumn}, q.id` : 'q.id';
    const where = ['q.producer_id = k.producer_id', ...filters, ...keyset].join(' AND ');
    const qb = ds
      .getRepository(spec.entity)
      .createQueryBuilder('r')
      .where(
        `r.id IN (SELECT l.id FROM unnest(CAST(:ids AS bigint[])) AS k(producer_id)
          CROSS JOIN LATERAL (SELECT q.id FROM ${spec.table} q WHERE ${where} ORDER BY ${order} LIMIT :lim) l)`,
        params,
      )
      .orderBy('r.producerId', 'ASC');
    if (spec.dateProperty) qb.addOrderBy(`r.${spec.dateProperty}`, 'ASC');
    const rows = await qb.addOrderBy('r.id', 'ASC').getMany();
    for (const row of rows) {
      const list = rowsByProducer.get(String(row.producerId));
      if (list) list.push(row);
      else rowsByProducer.set(String(row.producerId), [row]);
    }

    // totalCount respects the date filters, not the cursor.
    const countParams: unknown[] = [ids];
    const countFilters: string[] = [];
    if (dated && args.from != null) countFilters.push(`${spec.dateColumn} >= $${countParams.push(args.from)}::date`);
    if (dated && args.to != null) countFilters.push(`${spec.dateColumn} <= $${countParams.push(args.to)}::date`);
    const counts: Array<{ producer_id: string; n: number }> = await ds.query(
      `SELECT producer_id, count(*)::int AS n FROM ${spec.table}
        WHERE producer_id = ANY($1::bigint[])${countFilters.map((f) => ` AND ${f}`).join('')}
        GROUP BY producer_id`,
      countParams,
    );
    for (const c of counts) totals.set(String(c.producer_id), Number(c.n));
  }

  const cursorOf = (row: T): CursorValues => (spec.dateProperty ? [String(row[spec.dateProperty]), String(row.id)] : [String(row.id)]);
  const pages = new Map<string, Connection<T>>();
  for (const id of producerIds) {
    pages.set(id, toConnection(rowsByProducer.get(id) ?? [], limit, cursorOf, totals.get(id) ?? 0, after !== null));
  }
  return pages;
}
