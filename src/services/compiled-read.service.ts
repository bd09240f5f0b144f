import type { PoolClient } from 'pg';
import { DataSource, QueryFailedError, QueryRunner } from 'typeorm';
import { Actor } from './actor';
import { translateDbError } from './pg-errors';
import { enterProducerScope } from './row-security';
import { visibleProducerId } from './scope';

/** A read compiled to one statement (src/graphql/compiled/): its text, its bind parameters. */
export interface ReadStatement {
  /** One row, one column `data`: the field's value as JSON, or SQL NULL when its resolver must answer. */
  sql: string;
  /** The values of `$1`, `$2`, …: never written into the text. */
  params: readonly unknown[];
}

/**
 * Statement texts prepared by name, at most this many per process: each holds 40–170 KB of
 * PostgreSQL's memory on every pooled connection that ran it, for the connection's life.
 */
export const NAMED_READS = 32;

/** The texts named so far on each pool, first come first named; a name stands for one text on its pool's connections. */
const namesByPool = new WeakMap<DataSource, Map<string, string>>();

/**
 * Runs compiled reads on TypeORM's pool; a PRODUCER's runs in a transaction under row-level
 * security (row-security.ts) whatever the statement's own filters say.
 */
export class CompiledReadService {
  private readonly names: Map<string, string>;

  constructor(private readonly ds: DataSource, private readonly maxNamed = NAMED_READS) {
    let names = namesByPool.get(ds);
    if (!names) namesByPool.set(ds, (names = new Map()));
    this.names = names;
  }

  async run(actor: Actor, statement: ReadStatement): Promise<unknown> {
    const runner = this.ds.createQueryRunner();
    const scoped = visibleProducerId(actor) !== null;
    try {
      if (scoped) {
        await runner.startTransaction();
        await enterProducerScope(runner.manager, actor);
      }
      const rows = await this.query(runner, statement);
      if (scoped) await runner.commitTransaction();
      return rows[0]?.data ?? null;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      translateDbError(error);
    } finally {
      await runner.release();
    }
  }

  /**
   * A named statement through pg's own `name` option (TypeORM's query() takes none): parsed and
   * planned once per connection, where planning was up to half of PostgreSQL's time for a small
   * page (docs/PERFORMANCE.md). Logged and its errors wrapped as TypeORM's own are.
   */
  private async query(runner: QueryRunner, statement: ReadStatement): Promise<Array<{ data: unknown }>> {
    const params = [...statement.params];
    const name = this.nameOf(statement.sql);
    if (name === undefined) return runner.query(statement.sql, params) as Promise<Array<{ data: unknown }>>;
    const client = (await runner.connect()) as PoolClient;
    this.ds.logger.logQuery(statement.sql, params, runner);
    try {
      return (await client.query<{ data: unknown }>({ name, text: statement.sql, values: params })).rows;
    } catch (error) {
      this.ds.logger.logQueryError(error as Error, statement.sql, params, runner);
      throw new QueryFailedError(statement.sql, params, error as Error);
    }
  }

  private nameOf(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < this.maxNamed) this.names.set(sql, (name = `selo_read_${this.names.size + 1}`));
    return name;
  }
}
