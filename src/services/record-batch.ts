import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { isIsoDate, monthOf, yearOf } from '../law/dates';
import { Decimal } from '../law/decimal';
import { Actor } from './actor';
import { BadInputError, NotFoundError, RecordName } from './errors';
import { assertPeriodsOpen } from './period-lock';
import { assertCanWriteFor, canSee, visibleProducerId } from './scope';
import { message } from '../i18n';
import { isBlank } from './validation';
import { Problems } from './problems';

/** A batch is validated whole before anything is written (docs/API.md "Errors"). */

/**
 * An id as the API hands it out: the decimal digits of a bigint, no sign, no leading zero. "01"
 * names no record even where the database would read it as 1: a client keeping records by id must
 * never meet one record under two ids, so every lookup and every argument naming a record asks this.
 */
export function isId(id: string | null | undefined): id is string {
  return typeof id === 'string' && /^(0|[1-9]\d{0,17})$/.test(id);
}

export function visibleProducerIds(actor: Actor, producerIds: readonly string[]): string[] {
  return [...new Set(producerIds.filter((id) => isId(id) && canSee(actor, id)))];
}

export function requireDate(value: string, field: string): string {
  if (typeof value !== 'string' || !isIsoDate(value)) throw new BadInputError(field, message('input.calendarDate', { field }));
  return value;
}

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

/** Null for a blank text (src/services/validation.ts), as for one not given. */
export function optionalText(value: string | null | undefined): string | null {
  return value == null || isBlank(value) ? null : value.trim();
}

/** Another producer is NOT_FOUND to a PRODUCER: nothing leaks. */
export async function requireWritableProducers<R extends { id: string } = { id: string }>(
  em: EntityManager, actor: Actor, wanted: Array<{ field: string; id: string }>, problems?: Problems, columns: string[] = ['id'],
): Promise<Map<string, R>> {
  for (const w of wanted) assertCanWriteFor(actor, 'Producer', w.id);
  return requireRecords<R>(em, 'producer', 'Producer', wanted, columns, problems);
}

export function assertWritable(actor: Actor, wanted: Array<{ field: string; id: string }>): void {
  for (const w of wanted) assertCanWriteFor(actor, 'Producer', w.id);
}

export async function findVisibleByIds<T extends ObjectLiteral>(ds: DataSource, actor: Actor, entity: EntityTarget<T>, ids: readonly string[]): Promise<T[]> {
  const wanted = [...new Set(ids.filter(isId))];
  if (wanted.length === 0) return [];
  const only = visibleProducerId(actor);
  const qb = ds.getRepository(entity).createQueryBuilder('r').where('r.id = ANY(CAST(:wanted AS bigint[]))', { wanted });
  if (only !== null) qb.andWhere('r.producer_id = :only', { only });
  return qb.getMany();
}

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

/** A closed month's dues are final; locks in id and date order, so two batches cannot deadlock. */
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

/** At most 14 parameters a row, well under PostgreSQL's 65,535. */
export const INSERT_CHUNK = 1000;

export async function insertInChunks<T extends ObjectLiteral>(em: EntityManager, target: EntityTarget<T>, rows: T[]): Promise<T[]> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await em.createQueryBuilder().insert().into(target).values(rows.slice(i, i + INSERT_CHUNK)).execute();
  }
  return rows;
}
