import { DataSource, EntityManager } from 'typeorm';
import { msUntilAnswered, stopIfAnswered } from '../request-context';
import { Actor } from './actor';
import { translateDbError } from './pg-errors';
import { afterWrite, writerOf } from './read-replica';
import { enterProducerScope } from './row-security';

/**
 * A long computation's step: throws once its request has been answered (stopIfAnswered), and bounds
 * the transaction's next statements by what is left of the request's time (a local statement_timeout),
 * so a statement under way when the timeout answers stops with it instead of running on. `settings`:
 * other transaction-local settings of the next statement, set in the same round trip.
 */
export async function untilAnswered(em: EntityManager, settings: Readonly<Record<string, string>> = {}): Promise<void> {
  stopIfAnswered();
  const ms = msUntilAnswered();
  const all = Object.entries({ ...settings, ...(ms === undefined ? {} : { statement_timeout: String(ms) }) });
  if (all.length === 0) return;
  await em.query(`SELECT ${all.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`, all.flat());
}

type Reads<T extends readonly unknown[]> = { [K in keyof T]: () => Promise<T[K]> };

/**
 * Reads at once on the pool (each takes a connection); one after the other through a transaction,
 * whose one connection runs one statement at a time (pg queues them, deprecated from pg 9).
 */
export async function readsOn<T extends readonly unknown[]>(reader: DataSource | EntityManager, ...reads: Reads<T>): Promise<T> {
  if (reader instanceof DataSource) return Promise.all(reads.map((read) => read())) as unknown as Promise<T>;
  const done: unknown[] = [];
  for (const read of reads) done.push(await read());
  return done as unknown as T;
}

export interface AuditRecord {
  operation: string;
  entity: string;
  entityId: string | null;
  producerId: string | null;
  before?: unknown;
  after?: unknown;
}

/** JSON-safe copy of a record for the audit log (Decimals as strings, dates as they are). */
export function snapshot(value: unknown): Record<string, unknown> | null {
  return value == null ? null : (JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
}

/** Append audit entries in the mutation's own transaction (the access rules, README "Tokens"): they commit or roll back with it. */
export async function writeAudit(em: EntityManager, actor: Actor, records: AuditRecord[]): Promise<void> {
  const CHUNK = 5000; // 9 parameters a row, under PostgreSQL's 65,535
  for (let i = 0; i < records.length; i += CHUNK) await insertAudit(em, actor, records.slice(i, i + CHUNK));
}

async function insertAudit(em: EntityManager, actor: Actor, records: AuditRecord[]): Promise<void> {
  if (records.length === 0) return;
  const params: unknown[] = [];
  const rows = records.map((r) => {
    const values = [actor.sub, actor.role, r.operation, r.entity, r.entityId, r.producerId, actor.requestId, JSON.stringify(snapshot(r.before)), JSON.stringify(snapshot(r.after))];
    const placeholders = values.map((v) => `$${params.push(v)}`);
    return `(${placeholders.join(', ')})`;
  });
  await em.query(
    `INSERT INTO audit_entry (actor, role, operation, entity, entity_id, producer_id, request_id, before, after) VALUES ${rows.join(', ')}`,
    params,
  );
}

/**
 * One mutation, one transaction with its audit entries, on the primary; constraint violations
 * become API errors; the commit's position is kept for the writer's next reads.
 */
export async function mutate<T>(
  ds: DataSource,
  actor: Actor,
  work: (em: EntityManager) => Promise<{ result: T; audit: AuditRecord[] }>,
): Promise<T> {
  let result: T;
  try {
    result = await writerOf(ds).transaction(async (em) => {
      await enterProducerScope(em, actor);
      const done = await work(em);
      await writeAudit(em, actor, done.audit);
      return done.result;
    });
  } catch (error) {
    translateDbError(error);
  }
  await afterWrite(ds, actor);
  return result;
}
