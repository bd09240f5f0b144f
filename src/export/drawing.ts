import path from 'node:path';
import { Piscina } from 'piscina';
import { Locale } from '../formats/brazilian';
import { Decimal } from '../law/decimal';
import { message } from '../i18n';
import { BadInputError, TooManyRequestsError } from '../services/errors';
import { CellValue, ExportDocument } from './document';
import type { DrawTask } from './worker';

/**
 * Rows (table rows and fields) a file holds at most: a 20,000-row PDF took 12 s and 700 MB, a
 * 200,000-row workbook 14 s and 1.6 GB. A CSV is written as it goes and has no bound.
 */
export const MAX_ROWS: Record<DrawTask['format'], number> = { pdf: 5_000, xlsx: 100_000, csv: Infinity };
/** Files waiting for the worker; beyond, TOO_MANY_REQUESTS. */
export const DRAW_QUEUE = 8;

let pool: Piscina<DrawTask, Uint8Array> | undefined;

/**
 * One worker thread writes the files, one at a time: the API's event loop goes on answering, and
 * the memory of a long file is the worker's (it ends after a minute idle and never holds the
 * process open). Under ts sources the worker registers the compiler the server runs with.
 */
function workers(): Piscina<DrawTask, Uint8Array> {
  const ext = path.extname(__filename);
  pool ??= new Piscina<DrawTask, Uint8Array>({
    filename: path.join(__dirname, `worker${ext}`),
    minThreads: 0, maxThreads: 1, idleTimeout: 60_000,
    execArgv: ext === '.ts' ? ['-r', require.resolve('@swc-node/register')] : [],
  });
  return pool;
}

const portable = (v: CellValue): CellValue => (v instanceof Decimal ? v.toFixed() : v);

/** The document as a file of `format`, written off the event loop; refused when too long or when the queue is full. */
export async function drawFile(format: DrawTask['format'], doc: ExportDocument, locale: Locale, generatedAt = new Date()): Promise<Buffer> {
  const rows = doc.sections.reduce((n, s) => n + (s.kind === 'table' ? s.rows.length : s.fields.length), 0);
  if (rows > MAX_ROWS[format]) throw new BadInputError('format', message('export.tooLong', { format, rows, max: MAX_ROWS[format] }));
  const worker = workers();
  if (worker.queueSize >= DRAW_QUEUE) throw new TooManyRequestsError(message('export.busy', { queued: DRAW_QUEUE }));
  const sections = doc.sections.map((s) => (s.kind === 'table'
    ? { ...s, rows: s.rows.map((r) => r.map(portable)) }
    : { ...s, fields: s.fields.map((f) => ({ ...f, value: portable(f.value) })) }));
  const file = await worker.run({ format, doc: { ...doc, sections }, locale, generatedAt });
  return Buffer.from(file.buffer, file.byteOffset, file.byteLength);
}

/** Ends the worker once the files it was given are written (the server's shutdown); a later file starts another. */
export async function closeDrawing(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}
