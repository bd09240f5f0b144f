import { once } from 'node:events';
import { Readable, Transform } from 'node:stream';
import { CsvError, Parser } from 'csv-parse';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { Actor } from '../services/actor';
import { enterProducerScope } from '../services/row-security';
import { writeAudit } from '../services/transaction';
import { atLine, ImportLineError } from './import-error';
import { CsvRow, ImportKind, STAGING } from './import-kind';
import { IMPORT_KINDS } from './kinds';
import { message } from '../i18n';

/**
 * csv-parse's stream, each record paired with the line it ends on (read from the parser's live
 * counter as the record is pushed: the `info` option would copy the counters into every record,
 * which costs more than the parsing itself).
 */
class LineParser extends Parser {
  push(chunk: unknown, encoding?: BufferEncoding): boolean {
    return super.push(chunk === null ? null : [(this as unknown as { info: { lines: number } }).info.lines, chunk], encoding);
  }
}

/** Bytes handed to the parser at a time. */
const SLICE = 1 << 16;

export type ImportKindName = keyof typeof IMPORT_KINDS;

export interface ImportProgress {
  phase: 'reading' | 'checking' | 'writing' | 'done';
  rows: number;
  bytes: number;
}

export interface ImportOptions {
  kind: ImportKindName | string;
  /** The producer the file belongs to (purchases, sales; optional for farmers). */
  producerId?: string | null;
  input: Readable;
  /** Field separator; ',' by default (';' is common in Brazilian spreadsheets). */
  delimiter?: string;
  onProgress?: (p: ImportProgress) => void;
  /** Minimum interval between progress calls while reading, ms. */
  progressEveryMs?: number;
}

/** What an import did: the figures the CLI and the HTTP endpoint print. */
export interface ImportSummary {
  kind: string;
  producerId: string | null;
  rows: number;
  counts: Record<string, number>;
  seconds: number;
  rowsPerSecond: number;
}

/** The kind named `name`, looked up among IMPORT_KINDS' own keys only (a name from outside such as `constructor` is no kind). */
export function importKind(name: string): ImportKind {
  const kind = Object.hasOwn(IMPORT_KINDS, name) ? (IMPORT_KINDS as Record<string, ImportKind>)[name] : undefined;
  if (!kind) throw new ImportLineError('BAD_USER_INPUT', null, null, message('import.unknownKind', { kind: name, kinds: Object.keys(IMPORT_KINDS).join(', ') }));
  return kind;
}

/** Header cell → canonical form: case, spaces, accents and punctuation ignored. */
function headerKey(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

function mapHeader(kind: ImportKind, header: string[]): string[] {
  const byKey = new Map<string, string>();
  for (const c of kind.columns) for (const n of [c.name, ...(c.aliases ?? [])]) byKey.set(headerKey(n), c.name);
  const names = header.map((h) => {
    const name = byKey.get(headerKey(h));
    if (!name) throw new ImportLineError('BAD_USER_INPUT', 1, h, message('import.unknownColumn', { kind: kind.name, columns: kind.columns.map((c) => c.name).join(', ') }));
    return name;
  });
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) throw new ImportLineError('BAD_USER_INPUT', 1, repeated, message('import.columnTwice'));
  const missing = kind.columns.find((c) => c.required && !names.includes(c.name));
  if (missing) throw new ImportLineError('BAD_USER_INPUT', 1, missing.name, message('import.columnMissing'));
  return names;
}

/** A value in PostgreSQL's COPY text format. */
function copyText(v: string | number | boolean | null): string {
  if (v === null) return '\\N';
  const s = String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : s;
}

/**
 * The checks of an import that need neither the file nor the database: the kind, the producer the
 * file belongs to, and whether the actor may import it. Run before a file is received.
 */
export function importTarget(actor: Actor, kindName: string, producer: string | null | undefined): { kind: ImportKind; producerId: string | null } {
  const kind = importKind(kindName);
  const producerId = producer?.trim() || null;
  if (kind.producerScoped && kind.name !== 'farmers' && !producerId) {
    throw new ImportLineError('BAD_USER_INPUT', null, 'producer', message('import.producerRequired', { kind: kind.name }));
  }
  kind.authorize(actor, producerId);
  if (producerId !== null) {
    if (!/^\d{1,18}$/.test(producerId)) throw new ImportLineError('NOT_FOUND', null, 'producer', message('notFound.Producer', { id: producerId }));
  }
  return { kind, producerId };
}

/**
 * Import one CSV file, all or nothing (DESIGN §5): the file is streamed (csv-parse) with each row
 * checked as the GraphQL mutation checks one item, COPYed into a temporary staging table, checked
 * against stored data in SQL (one statement per rule, the first offending line reported), then
 * written with INSERT … SELECT and one audit entry — all in one transaction. Memory stays flat
 * whatever the file's size. Errors name the line (1 = header) and the column.
 */
export async function importCsv(ds: DataSource, actor: Actor, options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const { kind, producerId } = importTarget(actor, options.kind, options.producerId);

  let bytes = 0;
  let rows = 0;
  const every = options.progressEveryMs ?? 500;
  let lastReport = 0;
  const report = (phase: ImportProgress['phase']) => options.onProgress?.({ phase, rows, bytes });

  let counts: Record<string, number> | undefined;
  const qr = ds.createQueryRunner();
  const client = (await qr.connect()) as PoolClient;
  try {
    await qr.startTransaction();
    // The database's own wall for a PRODUCER (row-level security), as in every mutation.
    await enterProducerScope(qr.manager, actor);
    if (producerId !== null) {
      // Locked like a foreign-key check would, for the staged rows that will name it.
      const [found] = await qr.query('SELECT 1 FROM producer WHERE id = $1 FOR KEY SHARE', [producerId]);
      if (!found) throw new ImportLineError('NOT_FOUND', null, 'producer', message('notFound.Producer', { id: producerId }));
    }
    await qr.query(`CREATE TEMP TABLE ${STAGING} (line int NOT NULL, ${kind.stagingColumns.map(([n, t]) => `${n} ${t}`).join(', ')}) ON COMMIT DROP`);
    const copy = client.query(copyFrom(`COPY ${STAGING} (line, ${kind.stagingColumns.map(([n]) => n).join(', ')}) FROM STDIN`));
    const copyDone = new Promise<void>((resolve, reject) => {
      copy.on('finish', resolve);
      copy.on('error', reject);
    });
    copyDone.catch(() => undefined);

    // Counts the bytes read, and cuts big chunks into 64 KB slices: the parser emits every record
    // of a chunk at once, and fewer records in flight keep the heap (and the RSS) small.
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        for (let i = 0; i < chunk.length; i += SLICE) this.push(chunk.subarray(i, i + SLICE));
        done();
      },
    });
    const parser = new LineParser({ bom: true, delimiter: options.delimiter ?? ',', trim: true, skip_empty_lines: true, relax_quotes: false });
    options.input.on('error', (e) => parser.destroy(e));
    // A client that goes away mid-upload: the file is incomplete, nothing is written.
    options.input.on('close', () => {
      if (!options.input.readableEnded) parser.destroy(new ImportLineError('BAD_USER_INPUT', null, null, message('import.uploadEnded')));
    });
    options.input.pipe(counter).pipe(parser);

    let names: string[] | null = null;
    let buffer = '';
    report('reading');
    try {
      for await (const [line, record] of parser as AsyncIterable<[number, string[]]>) {
        if (names === null) {
          names = mapHeader(kind, record);
          continue;
        }
        const row: CsvRow = {};
        for (let i = 0; i < names.length; i++) row[names[i]] = record[i] === '' ? undefined : record[i];
        let values;
        try {
          values = kind.toStaging(row, producerId);
        } catch (e) {
          throw atLine(e, line);
        }
        buffer += `${line}\t${values.map(copyText).join('\t')}\n`;
        rows++;
        if (buffer.length > 1 << 16) {
          if (!copy.write(buffer)) await once(copy, 'drain');
          buffer = '';
        }
        if (options.onProgress && (rows & 1023) === 0) {
          const now = performance.now();
          if (now - lastReport >= every) {
            lastReport = now;
            report('reading');
          }
        }
      }
    } catch (e) {
      options.input.unpipe?.();
      copy.destroy(e instanceof Error ? e : new Error(String(e)));
      await copyDone.catch(() => undefined);
      if (e instanceof CsvError) {
        const line = (e as CsvError & { lines?: number }).lines ?? null;
        throw new ImportLineError('BAD_USER_INPUT', line, null, message('import.notCsv', { detail: e.message.replace(/^Invalid Record Length: /, '') }));
      }
      throw e;
    }
    if (buffer) copy.write(buffer);
    copy.end();
    await copyDone;
    if (names === null) throw new ImportLineError('BAD_USER_INPUT', 1, null, message('import.empty'));
    report('checking');

    await qr.query(`ANALYZE ${STAGING}`);
    const failure = await kind.check(qr.manager, producerId);
    if (failure) throw failure;
    report('writing');
    const written = rows === 0 ? { counts: {}, audit: [] } : await kind.write(qr.manager, producerId, rows);
    counts = written.counts;
    await writeAudit(qr.manager, actor, written.audit);
    await qr.commitTransaction();
    report('done');
  } catch (e) {
    if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => undefined);
    throw e;
  } finally {
    await qr.release();
  }
  const seconds = (performance.now() - started) / 1000;
  return { kind: kind.name, producerId, rows, counts: counts ?? {}, seconds, rowsPerSecond: seconds > 0 ? rows / seconds : rows };
}

/** The field separator of a file from its header line: ';' when it has more of them than ',' (spreadsheets in pt-BR). */
export function detectDelimiter(head: string): ',' | ';' | '\t' {
  const first = head.split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => first.split(c).length - 1;
  if (count('\t') > count(',') && count('\t') > count(';')) return '\t';
  return count(';') > count(',') ? ';' : ',';
}
