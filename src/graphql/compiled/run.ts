import { createHash } from 'node:crypto';
import { escapeLiteral, Pool, PoolClient, QueryResult } from 'pg';
import type { DataSource } from 'typeorm';
import { CompiledStatement } from './statement';

/**
 * How a compiled statement is sent. A statement the server has sent before (the same text, e.g.
 * a frontend's page asked again) is kept prepared on each connection that runs it (PREPARE, then
 * EXECUTE): PostgreSQL parses and plans it once per connection instead of every time — for the
 * small answers (100 farmers, 30 organizations) that was half the database's work. Bounded: a
 * statement is prepared only when it comes a second time among the last RECENT, and a connection
 * keeps the PER_CONNECTION it used last (DEALLOCATE, in the same round trip, for the one it drops).
 * A statement with computed fields carries its own random marker: never the same text, never
 * prepared.
 */
const PER_CONNECTION = 32;
const RECENT = 512;

/** Names of the statements seen lately (to prepare what comes again), in the order last seen. */
const recent = new Map<string, true>();
/** The statements prepared on each connection, least recently used first. */
const prepared = new WeakMap<PoolClient, Map<string, true>>();

/**
 * A compiled statement's JSON text (NULL: the resolver answers). A PRODUCER's statement runs as the
 * database role selo_producer with selo.producer_id set, so that PostgreSQL's row-level security
 * shows it that producer's rows only, whatever the statement's own filters say.
 */
export async function runCompiled(dataSource: DataSource, statement: CompiledStatement): Promise<string | null> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const client = await pool.connect();
  let failed: Error | undefined;
  // pg's pool takes its 'error' listener off a client it lends (TypeORM's query runners add their
  // own): a connection lost while this one is held — the server gone, the statement running — would
  // otherwise be an unhandled 'error' event, which ends the process. The statement's own rejection
  // reports it; the client is dropped on release.
  const onError = (error: Error) => { failed ??= error; };
  client.on('error', onError);
  try {
    const text = `${scopeSql(statement)}${preparedSql(client, statement)}`;
    dataSource.logger.logQuery(text);
    const result = (await client.query(text)) as QueryResult | QueryResult[];
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    return (last.rows[0] as { data: string | null }).data;
  } catch (error) {
    failed = error as Error;
    throw error;
  } finally {
    // A connection whose statement failed is dropped with what it had prepared.
    client.removeListener('error', onError);
    client.release(failed);
  }
}

/**
 * One round trip: a multi-statement query is one implicit transaction, which set_config(…, true)
 * lasts for (migration ProducerRowSecurity1765100000000; src/services/row-security.ts).
 */
function scopeSql(statement: CompiledStatement): string {
  if (statement.producerScope === null) return '';
  return `SELECT set_config('role', 'selo_producer', true), set_config('selo.producer_id', ${escapeLiteral(statement.producerScope)}, true);\n`;
}

/** The statement as sent on `client`: EXECUTE of its prepared plan, preparing it first when it comes again, or its text. */
function preparedSql(client: PoolClient, statement: CompiledStatement): string {
  if (statement.holes.length > 0) return statement.sql;
  // The scope is part of the name: a PRODUCER's plan is made under its role.
  const name = `selo_read_${createHash('sha256').update(`${statement.producerScope ?? ''}\n${statement.sql}`).digest('hex').slice(0, 32)}`;
  let own = prepared.get(client);
  if (own?.has(name)) {
    own.delete(name);
    own.set(name, true);
    return `EXECUTE ${name}`;
  }
  const again = recent.delete(name);
  recent.set(name, true);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  if (!again) return statement.sql;
  if (!own) prepared.set(client, (own = new Map()));
  let drop = '';
  if (own.size >= PER_CONNECTION) {
    const oldest = own.keys().next().value!;
    own.delete(oldest);
    drop = `DEALLOCATE ${oldest};\n`;
  }
  own.set(name, true);
  return `${drop}PREPARE ${name} AS ${statement.sql};\nEXECUTE ${name}`;
}
