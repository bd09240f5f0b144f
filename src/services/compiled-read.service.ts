import { DataSource } from 'typeorm';
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
 * Runs compiled reads on TypeORM's pool; a PRODUCER's runs in a transaction under row-level
 * security (row-security.ts) whatever the statement's own filters say.
 */
export class CompiledReadService {
  constructor(private readonly ds: DataSource) {}

  async run(actor: Actor, statement: ReadStatement): Promise<unknown> {
    const runner = this.ds.createQueryRunner();
    const scoped = visibleProducerId(actor) !== null;
    try {
      if (scoped) {
        await runner.startTransaction();
        await enterProducerScope(runner.manager, actor);
      }
      const rows = (await runner.query(statement.sql, [...statement.params])) as Array<{ data: unknown }>;
      if (scoped) await runner.commitTransaction();
      return rows[0]?.data ?? null;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      translateDbError(error);
    } finally {
      await runner.release();
    }
  }
}
