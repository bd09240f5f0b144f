import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { isIsoDate, monthOf, yearOf } from '../law/dates';
import { Decimal } from '../law/decimal';
import { Actor } from './actor';
import { BadInputError, NotFoundError, RecordName } from './errors';
import { assertPeriodsOpen } from './period-lock';
import { assertCanWriteFor, canSee, visibleProducerId } from './scope';
import { message } from '../i18n';
import { Problems } from './problems';

/**
 * Shared steps of the producers' record batches (purchases, sales, fomento, contracts): checks
 * that need no database, id look-ups with one statement per kind of record, and multi-row
 * inserts. A batch is validated whole before anything is written (docs/API.md "Errors").
 */

/** A bigint identity as the API writes it; anything else cannot name a record. */
export function isId(id: string | null | undefined): id is string {
  return typeof id === 'string' && /^\d{1,18}$/.test(id);
}

/** The distinct well-formed ids among `producerIds` whose records the actor may see (the access rules, README "Tokens"). */
export function visibleProducerIds(actor: Actor, producerIds: readonly string[]): string[] {
  return [...new Set(producerIds.filter((id) => isId(id) && canSee(actor, id)))];
}

export function requireDate(value: string, field: string): string {
  if (typeof value !== 'string' || !isIsoDate(value)) throw new BadInputError(field, message('input.calendarDate', { field }));
  return value;
}

/** A positive decimal (quantities, costs, volumes, revenues, amounts, prices: docs/API.md "Errors"). */
export function requirePositiveDecimal(value: Decimal | string | null | undefined, field: string): Decimal {
  const d = toDecimal(value);
  if (d === null || !d.isFinite() || d.lte(0)) throw new BadInputError(field, message('input.notPositive', { field }));
  return d;
}

function toDecimal(value: Decimal | string | null | undefined): Decimal | null {
  if (value == null) return null;
  if (value instanceof Decimal) return value;
  try {
    return new Decimal(value);
  } catch {
    return null;
  }
}

/** Optional free text: trimmed, blank = absent. */
export function optionalText(value: string | null | undefined): string | null {
  const text = value?.trim();
  return text ? text : null;
}

/**
 * The caller may write records of every producer named in the batch (AUDITOR: FORBIDDEN;
 * PRODUCER: another producer is NOT_FOUND), and each of them exists (NOT_FOUND).
 */
export async function requireWritableProducers<R extends { id: string } = { id: string }>(
  em: EntityManager, actor: Actor, wanted: Array<{ field: string; id: string }>, problems?: Problems, columns: string[] = ['id'],
): Promise<Map<string, R>> {
  for (const w of wanted) assertCanWriteFor(actor, 'Producer', w.id);
  return requireRecords<R>(em, 'producer', 'Producer', wanted, columns, problems);
}

/** Only the authorization part of requireWritableProducers, for checks before the transaction. */
export function assertWritable(actor: Actor, wanted: Array<{ field: string; id: string }>): void {
  for (const w of wanted) assertCanWriteFor(actor, 'Producer', w.id);
}

/** A producer's records by id for loaders, in one statement; out-of-scope ids are left out (the loader answers null). */
export async function findVisibleByIds<T extends ObjectLiteral>(ds: DataSource, actor: Actor, entity: EntityTarget<T>, ids: readonly string[]): Promise<T[]> {
  const wanted = [...new Set(ids.filter(isId))];
  if (wanted.length === 0) return [];
  const only = visibleProducerId(actor);
  const qb = ds.getRepository(entity).createQueryBuilder('r').where('r.id = ANY(CAST(:wanted AS bigint[]))', { wanted });
  if (only !== null) qb.andWhere('r.producer_id = :only', { only });
  return qb.getMany();
}

/**
 * Every id named exists in `table`, in one statement; missing ones go to `problems` (NOT_FOUND),
 * or the first is thrown.
 */
export async function requireRecords<R extends { id: string }>(
  em: EntityManager,
  table: string,
  entity: RecordName,
  wanted: Array<{ field: string; id: string }>,
  columns: string[],
  problems?: Problems,
): Promise<Map<string, R>> {
  const found = new Map<string, R>();
  const missing = (w: { field: string; id: string }) => {
    const error = new NotFoundError(entity, `${w.id} (${w.field})`, w.field);
    if (!problems) throw error;
    problems.add(error);
  };
  wanted.filter((w) => !isId(w.id)).forEach(missing);
  const ids = [...new Set(wanted.filter((w) => isId(w.id)).map((w) => w.id))];
  if (ids.length === 0) return found;
  const rows: R[] = await em.query(`SELECT ${columns.join(', ')} FROM ${table} WHERE id = ANY($1::bigint[])`, [ids]);
  for (const row of rows) found.set(String(row.id), { ...row, id: String(row.id) });
  wanted.filter((w) => isId(w.id) && !found.has(w.id)).forEach(missing);
  return found;
}

/**
 * The tax periods the batch writes into must be open (CONFLICT PERIOD_CLOSED naming the item's
 * date field): a closed month's dues are final until reopened with a reason. Producers are taken
 * in id order, and each producer's months in date order, so two batches cannot deadlock.
 */
export async function requireOpenPeriods<T extends { producerId: string }>(
  em: EntityManager, rows: Array<T | undefined>, dateOf: (row: T) => string, field: (i: number) => string, problems?: Problems,
): Promise<void> {
  const byProducer = new Map<string, Array<{ year: number; month: number; field: string }>>();
  rows.forEach((row, i) => {
    if (!row) return;
    const date = dateOf(row);
    const months = byProducer.get(row.producerId) ?? [];
    months.push({ year: yearOf(date), month: monthOf(date), field: field(i) });
    byProducer.set(row.producerId, months);
  });
  const producers = [...byProducer.keys()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
  for (const producerId of producers) await assertPeriodsOpen(em, producerId, byProducer.get(producerId)!, problems);
}

/** Rows a multi-row INSERT may carry: at most 14 parameters a row, well under PostgreSQL's 65,535. */
export const INSERT_CHUNK = 1000;

/**
 * Insert entities in multi-row INSERT statements of INSERT_CHUNK rows; the generated ids and
 * timestamps come back (RETURNING) into the entities, which are returned in input order.
 */
export async function insertInChunks<T extends ObjectLiteral>(em: EntityManager, target: EntityTarget<T>, rows: T[]): Promise<T[]> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await em.createQueryBuilder().insert().into(target).values(rows.slice(i, i + INSERT_CHUNK)).execute();
  }
  return rows;
}
