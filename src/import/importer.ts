import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource, QueryRunner } from 'typeorm';
import { Locale } from '../formats/brazilian';
import { message } from '../i18n';
import { Actor } from '../services/actor';
import { AppError } from '../services/errors';
import { MAX_REPORTED_PROBLEMS } from '../services/problems';
import { isId } from '../services/record-batch';
import { isUniqueViolation } from '../services/pg-errors';
import { afterWrite } from '../services/read-replica';
import { enterProducerScope } from '../services/row-security';
import { refusedText, textProblem } from '../services/validation';
import { writeAudit } from '../services/transaction';
import { FIRST_STATED_DAY, LAST_STATED_DAY, SemiaridEdition } from '../services/semiarid-membership';
import { isIsoDate, LAST_DATE } from '../law/dates';
import { CellReader } from './cells';
import { atLine, byLine, ImportLineError, ImportProblemsError } from './import-error';
import { ImportKind, STAGING } from './import-kind';
import { IMPORT_KINDS } from './kinds';
import { beforeDeadline, Deadline, lateError, openSource, ReadLimits, separatorName, Source } from './sources';
import { Spool } from './spool';

export { detectDelimiter } from './sources';

export type ImportKindName = keyof typeof IMPORT_KINDS;

export interface ImportProgress {
  phase: 'reading' | 'checking' | 'writing' | 'done';
  rows: number;
  bytes: number;
}

export interface ImportOptions {
  kind: ImportKindName | string;
  producerId?: string | null;
  edition?: EditionOptions | null;
  input: Readable;
  delimiter?: string | null;
  /** Null detects it from the file where unambiguous. */
  locale?: Locale | null;
  onProgress?: (p: ImportProgress) => void;
  progressEveryMs?: number;
  limits?: ReadLimits;
  /** Counted before any connection is taken. */
  readTimeoutMs?: number | null;
}

export interface ImportSummary {
  kind: string;
  producerId: string | null;
  rows: number;
  counts: Record<string, number>;
  seconds: number;
  rowsPerSecond: number;
  format: string;
  delimiter: string | null;
  locale: Locale | null;
}

/** Own keys only: `constructor` is no kind. */
export function importKind(name: string): ImportKind {
  const kind = Object.hasOwn(IMPORT_KINDS, name) ? (IMPORT_KINDS as Record<string, ImportKind>)[name] : undefined;
  if (!kind) throw new ImportLineError('BAD_USER_INPUT', null, null, message('import.unknownKind', { kind: name, kinds: Object.keys(IMPORT_KINDS).join(', ') }));
  return kind;
}

/** The errors a wrong separator causes say which one was used. */
function withSeparator(error: unknown, source: Source, headerWidth: number): unknown {
  if (!(error instanceof ImportLineError) || !source.delimiter) return error;
  const key = error.detail.key;
  const header = headerWidth <= 1 && (key === 'import.unknownColumn' || key === 'import.columnMissing');
  if (!header && key !== 'import.notCsv' && key !== 'import.fieldCount') return error;
  return new ImportLineError(error.code, error.line, error.column, message('import.separatorUsed', {
    message: error.detail,
    separator: separatorName(source.delimiter.char),
    how: message(source.delimiter.detected ? 'import.separatorDetected' : 'import.separatorGiven'),
  }), error.reason, error.header);
}

function copyValue(v: string | number | boolean | null): string {
  if (v === null) return '\\N';
  const s = String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : s;
}

/** Run before a file is received. */
export function importTarget(
  actor: Actor, kindName: string, producer: string | null | undefined, editionOptions?: EditionOptions | null,
): { kind: ImportKind; producerId: string | null; edition: SemiaridEdition | null } {
  const kind = importKind(kindName);
  const producerId = producer?.trim() || null;
  if (kind.producerScoped && kind.name !== 'farmers' && !producerId) {
    throw new ImportLineError('BAD_USER_INPUT', null, 'producer', message('import.producerRequired', { kind: kind.name }));
  }
  kind.authorize(actor, producerId);
  if (producerId !== null) {
    if (!isId(producerId)) throw new ImportLineError('NOT_FOUND', null, 'producer', message('notFound.Producer', { id: producerId }));
  }
  return { kind, producerId, edition: kind.edition ? editionOf(editionOptions ?? {}) : null };
}

export interface EditionOptions {
  act?: string | null;
  validFrom?: string | null;
  validUntil?: string | null;
}

function editionOf(options: EditionOptions): SemiaridEdition {
  const act = options.act?.trim();
  if (!act) throw new ImportLineError('BAD_USER_INPUT', null, 'act', message('import.editionAct'));
  // Written into answers and files: the rules of every text of the input, at most 255 characters
  // (docs/API.md, "Text lengths").
  if (textProblem(act, 'act')) throw new ImportLineError('BAD_USER_INPUT', null, 'act', refusedText(act, 'act')!);
  if (!options.validFrom || !isIsoDate(options.validFrom)) throw new ImportLineError('BAD_USER_INPUT', null, 'validFrom', message('import.editionDate', { field: 'validFrom' }));
  if (options.validFrom < FIRST_STATED_DAY) {
    throw new ImportLineError('BAD_USER_INPUT', null, 'validFrom', message('input.semiaridDay', { field: 'validFrom', min: FIRST_STATED_DAY, max: LAST_DATE }));
  }
  const validUntil = options.validUntil || null;
  if (validUntil !== null && (!isIsoDate(validUntil) || validUntil < options.validFrom)) {
    throw new ImportLineError('BAD_USER_INPUT', null, 'validUntil', message('import.editionDate', { field: 'validUntil' }));
  }
  if (validUntil !== null && validUntil > LAST_STATED_DAY) {
    throw new ImportLineError('BAD_USER_INPUT', null, 'validUntil', message('input.semiaridDay', { field: 'validUntil', min: options.validFrom, max: LAST_STATED_DAY }));
  }
  return { act, validFrom: options.validFrom, validUntil };
}

interface ReadFile {
  source: Source;
  cells: CellReader;
  rows: number;
  copyText: Spool;
  problems: ImportLineError[];
  badLines: number;
}

/** Stops even while the reader waits or works. */
async function* untilDeadline<T>(rows: AsyncIterable<T>, deadline: Deadline): AsyncIterable<T> {
  const it = rows[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(lateError(deadline)), Math.max(0, deadline.at - Date.now()));
  });
  late.catch(() => undefined);
  try {
    for (;;) {
      const next = await Promise.race([it.next(), late]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    clearTimeout(timer);
    it.return?.().catch(() => undefined);
  }
}

/** No database connection: a file refused here has cost the database nothing. */
async function readFile(kind: ImportKind, producerId: string | null, options: ImportOptions, report: (phase: ImportProgress['phase'], rows: number) => void, onBytes: (n: number) => void): Promise<ReadFile> {
  const timeout = options.readTimeoutMs ?? null;
  const deadline: Deadline | null = timeout ? { at: Date.now() + timeout, seconds: Math.round(timeout / 1000) } : null;
  const cells = new CellReader(kind, options.locale ?? null);
  const copyText = new Spool();
  // A client that goes away mid-upload: the file is incomplete, nothing is written.
  const ended = () => new ImportLineError('BAD_USER_INPUT', null, null, message('import.uploadEnded'));
  let cut = false;
  let source: Source | undefined;
  let abandoned = false;
  const onClose = () => {
    if (!options.input.readableEnded) {
      cut = true;
      source?.destroy(ended());
    }
  };
  options.input.on('close', onClose);
  try {
    const opening = openSource(options.input, { delimiter: options.delimiter, onBytes, limits: options.limits, deadline });
    // Opened after the deadline gave up on it: what it kept is removed.
    opening.then((s) => (abandoned ? s.dispose() : undefined), () => undefined);
    source = await beforeDeadline(opening, deadline).catch((e) => {
      abandoned = true;
      throw e;
    });
    if (cut) throw ended();

    let header = false;
    let headerWidth = 0;
    let rows = 0;
    const problems: ImportLineError[] = [];
    let badLines = 0;
    let buffer = '';
    let lastReport = 0;
    const every = options.progressEveryMs ?? 500;
    report('reading', 0);
    try {
      for await (const [line, record] of deadline ? untilDeadline(source.rows, deadline) : source.rows) {
        if (!header) {
          headerWidth = record.length;
          cells.header(record, line);
          header = true;
          continue;
        }
        let values;
        try {
          values = kind.toStaging(cells.row(record, line), producerId);
        } catch (e) {
          // Go on so that the answer lists every bad line.
          const problem = cells.at(atLine(e, line));
          if (++badLines <= MAX_REPORTED_PROBLEMS) problems.push(withSeparator(problem, source, headerWidth) as ImportLineError);
          continue;
        }
        buffer += `${line}\t${values.map(copyValue).join('\t')}\n`;
        rows++;
        if (buffer.length > 1 << 16) {
          await copyText.write(Buffer.from(buffer));
          buffer = '';
        }
        if (options.onProgress && (rows & 1023) === 0) {
          const now = performance.now();
          if (now - lastReport >= every) {
            lastReport = now;
            report('reading', rows);
          }
        }
      }
    } catch (e) {
      source.destroy(e instanceof Error ? e : new Error(String(e)));
      if (cut && !(e instanceof AppError)) throw ended();
      throw withSeparator(e, source, headerWidth);
    }
    if (buffer) await copyText.write(Buffer.from(buffer));
    await copyText.end();
    if (!header) throw new ImportLineError('BAD_USER_INPUT', 1, null, message('import.empty'));
    return { source, cells, rows, copyText, problems, badLines };
  } catch (e) {
    await copyText.dispose();
    await source?.dispose();
    throw e;
  } finally {
    options.input.off('close', onClose);
  }
}

/** All or nothing, in one transaction via COPY to staging; memory stays flat. */
export async function importFile(ds: DataSource, actor: Actor, options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const { kind, producerId, edition } = importTarget(actor, options.kind, options.producerId, options.edition);

  let bytes = 0;
  let rows = 0;
  const report = (phase: ImportProgress['phase'], n = rows) => options.onProgress?.({ phase, rows: n, bytes });
  const read = await readFile(kind, producerId, options, report, (n) => { bytes += n; });
  rows = read.rows;
  const { source, cells, problems } = read;

  let counts: Record<string, number> | undefined;
  const qr = ds.createQueryRunner();
  try {
    const client = (await qr.connect()) as PoolClient;
    await qr.startTransaction();
    // The database's own wall for a PRODUCER (row-level security), as in every mutation.
    await enterProducerScope(qr.manager, actor);
    if (producerId !== null) {
      // Locked like a foreign-key check would, for the staged rows that will name it.
      const [found] = await qr.query('SELECT 1 FROM producer WHERE id = $1 FOR KEY SHARE', [producerId]);
      if (!found) throw new ImportLineError('NOT_FOUND', null, 'producer', message('notFound.Producer', { id: producerId }));
    }
    await qr.query(`CREATE TEMP TABLE ${STAGING} (line int NOT NULL, ${kind.stagingColumns.map(([n, t]) => `${n} ${t}`).join(', ')}) ON COMMIT DROP`);
    // So that ROLLBACK never waits behind the COPY.
    await pipeline(read.copyText.stream(), client.query(copyFrom(`COPY ${STAGING} (line, ${kind.stagingColumns.map(([n]) => n).join(', ')}) FROM STDIN`)));
    report('checking');

    await qr.query(`ANALYZE ${STAGING}`);
    // The lines that passed their own checks, against stored data and each other.
    const found = await kind.check(qr.manager, producerId);
    for (const failure of found) problems.push(cells.at(failure));
    if (problems.length) throw new ImportProblemsError(byLine(problems).slice(0, MAX_REPORTED_PROBLEMS), read.badLines + found.length);
    report('writing');
    const written = rows === 0 ? { counts: {}, audit: [] } : await writeOrRecheck(qr, kind, producerId, rows, edition, cells);
    counts = written.counts;
    await writeAudit(qr.manager, actor, written.audit);
    await qr.commitTransaction();
    report('done');
  } catch (e) {
    if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => undefined);
    throw e;
  } finally {
    await qr.release();
    await read.copyText.dispose();
    await source.dispose();
  }
  // The importer's next reads on a read replica must see what it just wrote.
  if (rows > 0) await afterWrite(ds, actor);
  const seconds = (performance.now() - started) / 1000;
  return {
    kind: kind.name, producerId, rows, counts: counts ?? {}, seconds, rowsPerSecond: seconds > 0 ? rows / seconds : rows,
    format: source.format, delimiter: source.delimiter?.char ?? null, locale: cells.fileLocale,
  };
}

/**
 * Another import or mutation may commit the same keys (an external id, a CPF) between this one's
 * checks and its INSERT, which then waits for it and fails on the unique key. The checks then run
 * again, now seeing the other's rows, and name the lines, as if it had committed first.
 */
async function writeOrRecheck(qr: QueryRunner, kind: ImportKind, producerId: string | null, rows: number, edition: SemiaridEdition | null, cells: CellReader) {
  await qr.query('SAVEPOINT import_write');
  try {
    return await kind.write(qr.manager, producerId, rows, edition);
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    await qr.query('ROLLBACK TO SAVEPOINT import_write');
    const found = await kind.check(qr.manager, producerId);
    if (found.length) throw new ImportProblemsError(byLine(found.map((f) => cells.at(f))).slice(0, MAX_REPORTED_PROBLEMS), found.length);
    throw e;
  }
}

/** The CSV-only importer's name. */
export const importCsv = importFile;
