import { EntityManager } from 'typeorm';
import { isId } from '../../services/record-batch';
import { BadInputError, RecordName } from '../../services/errors';
import { assertPeriodsOpen } from '../../services/period-lock';
import { ConflictError } from '../../services/errors';
import { ImportLineError } from '../import-error';
import { CsvRow, STAGING } from '../import-kind';
import { message } from '../../i18n';

/** The Decimal scalar's rule for text (src/graphql/scalars.ts): plain decimal notation only. */
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A decimal cell as the GraphQL Decimal scalar accepts it, or undefined when blank. */
export function decimalCell(row: CsvRow, column: string): string | undefined {
  const v = row[column];
  if (v === undefined) return undefined;
  if (!DECIMAL_TEXT.test(v)) throw new BadInputError(`.${column}`, message('import.decimal', { value: v }));
  return v;
}

/** An id cell: blank = none; anything but a record id names no record (NOT_FOUND, as over GraphQL). */
export function idCell(row: CsvRow, column: string, entity: RecordName, line?: number): string | null {
  const v = row[column];
  if (v === undefined) return null;
  if (!isId(v)) throw new ImportLineError('NOT_FOUND', line ?? null, column, message(`notFound.${entity}`, { id: v }));
  return v;
}

/** A yes/no cell: true/false, sim/não, s/n, yes/no, 1/0, x (case ignored). */
export function booleanCell(row: CsvRow, column: string): boolean {
  const v = (row[column] ?? '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  if (['true', 'sim', 's', 'yes', 'y', '1', 'x', 'verdadeiro', 'v'].includes(v)) return true;
  if (['false', 'nao', 'n', 'no', '0', '', 'falso', 'f'].includes(v)) return false;
  throw new BadInputError(`.${column}`, message('import.boolean', { value: row[column] ?? '' }));
}

/** Whether a table exists yet (the tax periods arrive with their own migration). */
async function tableExists(em: EntityManager, table: string): Promise<boolean> {
  const [row] = await em.query('SELECT to_regclass($1) IS NOT NULL AS present', [table]);
  return Boolean(row?.present);
}

/**
 * No staged row may fall in a CLOSED tax period of the producer (CONFLICT PERIOD_CLOSED, as the
 * records mutations): the months are found in SQL, then the lock shared with closeTaxPeriod is
 * taken for each through the tax periods' own helper.
 */
export async function checkPeriodsOpen(em: EntityManager, producerId: string, dateColumn: string, column: string, knownMonths?: number[]): Promise<ImportLineError | null> {
  if (!(await tableExists(em, 'tax_period'))) return null;
  // The months staged (year * 100 + month), then the first line of each, only for the closed ones.
  const staged = knownMonths ?? ((await em.query(`SELECT DISTINCT extract(year FROM ${dateColumn})::int * 100 + extract(month FROM ${dateColumn})::int AS ym FROM ${STAGING}`)) as Array<{ ym: number }>).map((r) => r.ym);
  const closed: Array<{ ym: number }> = staged.length
    ? await em.query(`SELECT year * 100 + month AS ym FROM tax_period WHERE producer_id = $1 AND status = 'CLOSED' AND year * 100 + month = ANY($2::int[])`, [producerId, staged])
    : [];
  const lines = new Map<number, number>();
  if (closed.length) {
    const rows: Array<{ ym: number; line: number }> = await em.query(
      `SELECT extract(year FROM ${dateColumn})::int * 100 + extract(month FROM ${dateColumn})::int AS ym, min(line) AS line FROM ${STAGING}
        WHERE extract(year FROM ${dateColumn})::int * 100 + extract(month FROM ${dateColumn})::int = ANY($1::int[]) GROUP BY 1`,
      [closed.map((c) => c.ym)],
    );
    for (const r of rows) lines.set(r.ym, r.line);
  }
  const months = staged.map((ym) => ({ year: Math.floor(ym / 100), month: ym % 100, field: String(lines.get(ym) ?? 0) }));
  try {
    await assertPeriodsOpen(em, producerId, months);
    return null;
  } catch (e) {
    if (e instanceof ConflictError && e.reason === 'PERIOD_CLOSED') return new ImportLineError('CONFLICT', Number(e.field), column, e.text, 'PERIOD_CLOSED');
    throw e;
  }
}

/**
 * References were locked beforehand, so where allowed (`session_replication_role`) the per-row FK
 * triggers are skipped; CHECK, UNIQUE and the triggers enabled ALWAYS (marks of change) still run.
 */
export async function bulkInsert<T>(em: EntityManager, table: string, insert: () => Promise<T>): Promise<T> {
  const [{ triggers }] = await em.query(`SELECT count(*)::int AS triggers FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal AND tgenabled <> 'A'`, [table]);
  let skipped = false;
  if (triggers === 0) {
    await em.query('SAVEPOINT import_bulk');
    try {
      await em.query('SET LOCAL session_replication_role = replica');
      skipped = true;
    } catch {
      await em.query('ROLLBACK TO SAVEPOINT import_bulk');
    }
  }
  // On failure the transaction is aborted: its caller's rollback (to a savepoint) undoes the setting.
  const result = await insert();
  if (skipped) await em.query('SET LOCAL session_replication_role = origin');
  return result;
}
