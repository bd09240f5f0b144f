import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { isIsoDate } from '../law/dates';
import { Actor } from './actor';
import { BadInputError } from './errors';
import { Connection, CursorValues, Keyset, keysetAfterSql, keysetAtOrBeforeSql, keysetOrderSql, PageArgs, pageAsked, toConnection } from './pagination';
import { visibleProducerIds } from './record-batch';
import { attachPrefetched, rowMapper } from './raw-rows';
import { message } from '../i18n';

// Many producers' pages of records in one LATERAL statement (and one grouped count), so a nested
// query costs the same statements for 2 producers as for 200.

export interface DatedPageArgs extends PageArgs {
  from?: string | null;
  to?: string | null;
}

export interface ProducerPageKey {
  producerId: string;
  args: DatedPageArgs;
  /** When false, totalCount is not counted and reads 0. */
  withTotal?: boolean;
  /** When false, hasPreviousPage is not looked up and reads false. */
  withPrevious?: boolean;
  include?: string[];
}

export function producerPageKey(key: ProducerPageKey): string {
  const { first = null, after = null, from = null, to = null } = key.args;
  return JSON.stringify([key.producerId, first, after, from, to, key.withTotal !== false, key.withPrevious !== false, key.include ?? []]);
}

export interface PageJoin {
  relation: string;
  entity: EntityTarget<ObjectLiteral>;
  table: string;
  from: string;
  to: string;
}

export interface PageSpec<T> {
  entity: EntityTarget<T>;
  joins?: PageJoin[];
  /** A first column of kind 'date' is the one `from` and `to` bound. */
  keyset: Keyset;
}

export function datedColumn(keyset: Keyset): string | null {
  return keyset.columns[0].kind === 'date' ? keyset.columns[0].column : null;
}

/** A producer's page read from its arguments: `first`, `after` (pageAsked), then the dates `from` and `to` (BAD_USER_INPUT naming each). */
export function datedPageAsked(keyset: Keyset, args: DatedPageArgs): { limit: number; after: CursorValues | null } {
  const page = pageAsked(keyset, args);
  if (args.from != null && !isIsoDate(args.from)) throw new BadInputError('from', message('input.date', { field: 'from' }));
  if (args.to != null && !isIsoDate(args.to)) throw new BadInputError('to', message('input.date', { field: 'to' }));
  return page;
}

interface Group {
  args: DatedPageArgs;
  withTotal: boolean;
  withPrevious: boolean;
  include: string[];
  indexes: number[];
}

/** Producers outside the actor's scope get an empty connection: nothing leaks. */
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
    const withTotal = key.withTotal !== false;
    const withPrevious = key.withPrevious !== false;
    const include = key.include ?? [];
    const id = JSON.stringify([first, after, from, to, withTotal, withPrevious, include]);
    const group = groups.get(id) ?? { args: key.args, withTotal, withPrevious, include, indexes: [] };
    group.indexes.push(i);
    groups.set(id, group);
  });
  for (const group of groups.values()) {
    try {
      const pages = await pagesFor(ds, actor, spec, group.args, group.withTotal, group.withPrevious, group.include, group.indexes.map((i) => keys[i].producerId));
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
  withTotal: boolean,
  withPrevious: boolean,
  include: string[],
  producerIds: string[],
): Promise<Map<string, Connection<T>>> {
  const { limit, after } = datedPageAsked(spec.keyset, args);
  const dateColumn = datedColumn(spec.keyset);
  const dated = dateColumn !== null;

  const ids = visibleProducerIds(actor, producerIds);
  const rowsByProducer = new Map<string, T[]>();
  const totals = new Map<string, number>();
  const previous = new Set<string>();
  if (ids.length > 0) {
    // LATERAL over the (producer_id, date, id) index.
    const mapper = rowMapper(ds, spec.entity);
    const params: unknown[] = [ids];
    const param = (v: unknown, type: string) => `$${params.push(v)}::${type}`;
    const filters = (q: string) => [
      `${q}.producer_id = k.producer_id`,
      ...(dated && args.from != null ? [`${q}.${dateColumn} >= ${param(args.from, 'date')}`] : []),
      ...(dated && args.to != null ? [`${q}.${dateColumn} <= ${param(args.to, 'date')}`] : []),
    ];
    const keyset = after ? [keysetAfterSql(spec.keyset, after, 'q', param)] : [];
    const order = keysetOrderSql(spec.keyset, 'q');
    const where = [...filters('q'), ...keyset].join(' AND ');
    const joins = (spec.joins ?? []).filter((j) => include.includes(j.relation)).map((j, i) => ({ ...j, alias: `j${i}`, mapper: rowMapper(ds, j.entity), seen: new Map<unknown, unknown>() }));
    const page = `LATERAL (SELECT * FROM "${spec.keyset.table}" q WHERE ${where} ORDER BY ${order} LIMIT $${params.push(limit + 1)}) q`;
    // hasPreviousPage, when asked after a cursor, in the same statement: one EXISTS per producer
    // (OFFSET 0 keeps PostgreSQL from evaluating it again on every row of the page), and each
    // producer kept by a LEFT JOIN even when no row follows the cursor.
    const before = withPrevious && after
      ? `(SELECT 1 FROM "${spec.keyset.table}" b WHERE ${[...filters('b'), keysetAtOrBeforeSql(spec.keyset, after, 'b', param)].join(' AND ')})`
      : null;
    const lateral = before
      ? `CROSS JOIN LATERAL (SELECT EXISTS ${before} AS has_previous OFFSET 0) h
        LEFT JOIN ${page} ON true`
      : `CROSS JOIN ${page}`;
    const rows: Array<Record<string, unknown>> = await ds.query(
      `SELECT ${[...(before ? ['k.producer_id AS "k.producer_id", h.has_previous AS "h.has_previous"'] : []), mapper.columns('q'), ...joins.map((j) => j.mapper.columns(j.alias, j.alias))].join(', ')}
         FROM unnest($1::bigint[]) AS k(producer_id)
        ${lateral}
        ${joins.map((j) => `LEFT JOIN ${j.table} ${j.alias} ON ${j.alias}.${j.to} = q.${j.from}`).join(' ')}
        ORDER BY k.producer_id, ${order}`,
      params,
    );
    for (const raw of rows) {
      if (before) {
        if (raw['h.has_previous']) previous.add(String(raw['k.producer_id']));
        // The one row of a producer with none after the cursor.
        if (raw.id == null) continue;
      }
      const row = mapper.map(raw);
      for (const j of joins) {
        // A thousand purchases share a dozen municipalities.
        const key = raw[`${j.alias}.${j.to}`];
        let value = key == null ? null : j.seen.get(key);
        if (value === undefined) {
          value = j.mapper.map(raw, j.alias);
          j.seen.set(key, value);
        }
        attachPrefetched(row, j.relation, value);
      }
      const list = rowsByProducer.get(String(row.producerId));
      if (list) list.push(row);
      else rowsByProducer.set(String(row.producerId), [row]);
    }

    // A big producer has a million purchases: counting them is most of the page's cost.
    if (withTotal) {
      const countParams: unknown[] = [ids];
      const countFilters: string[] = [];
      if (dated && args.from != null) countFilters.push(`${dateColumn} >= $${countParams.push(args.from)}::date`);
      if (dated && args.to != null) countFilters.push(`${dateColumn} <= $${countParams.push(args.to)}::date`);
      const counts: Array<{ producer_id: string; n: number }> = await ds.query(
        `SELECT producer_id, count(*)::int AS n FROM ${spec.keyset.table}
          WHERE producer_id = ANY($1::bigint[])${countFilters.map((f) => ` AND ${f}`).join('')}
          GROUP BY producer_id`,
        countParams,
      );
      for (const c of counts) totals.set(String(c.producer_id), Number(c.n));
    }
  }

  const pages = new Map<string, Connection<T>>();
  for (const id of producerIds) {
    pages.set(id, toConnection(rowsByProducer.get(id) ?? [], limit, spec.keyset, totals.get(id) ?? 0, previous.has(id)));
  }
  return pages;
}
