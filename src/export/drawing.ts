import { Locale } from '../formats/brazilian';
import { Decimal } from '../law/decimal';
import { message } from '../i18n';
import { BadInputError, TooManyRequestsError } from '../services/errors';
import { CellValue, ExportDocument } from './document';
import type { DrawTask } from './worker';
import { WorkerThread } from '../worker-thread';

/**
 * Rows (table rows and fields) a file holds at most: a 20,000-row PDF took 12 s and 700 MB, a
 * 200,000-row workbook 14 s and 1.6 GB. A CSV is written as it goes and has no bound.
 */
export const MAX_ROWS: Record<DrawTask['format'], number> = { pdf: 5_000, xlsx: 100_000, csv: Infinity };
/** Files waiting for the worker; beyond, TOO_MANY_REQUESTS. */
export const DRAW_QUEUE = 8;

/** Writes the files, one at a time, off the event loop. */
const drawing = new WorkerThread<DrawTask, Uint8Array>(__dirname);

const portable = (v: CellValue): CellValue => (v instanceof Decimal ? v.toFixed() : v);

/** The document as a file of `format`, written off the event loop; refused when too long or when the queue is full. */
export async function drawFile(format: DrawTask['format'], doc: ExportDocument, locale: Locale, generatedAt = new Date()): Promise<Buffer> {
  const rows = doc.sections.reduce((n, s) => n + (s.kind === 'table' ? s.rows.length : s.fields.length), 0);
  if (rows > MAX_ROWS[format]) throw new BadInputError('format', message('export.tooLong', { format, rows, max: MAX_ROWS[format] }));
  if (drawing.queueSize >= DRAW_QUEUE) throw new TooManyRequestsError(message('export.busy', { queued: DRAW_QUEUE }));
  const sections = doc.sections.map((s) => (s.kind === 'table'
    ? { ...s, rows: s.rows.map((r) => r.map(portable)) }
    : { ...s, fields: s.fields.map((f) => ({ ...f, value: portable(f.value) })) }));
  const file = await drawing.run({ format, doc: { ...doc, sections }, locale, generatedAt });
  return Buffer.from(file.buffer, file.byteOffset, file.byteLength);
}

/** Ends the worker once the files it was given are written (the server's shutdown); a later file starts another. */
export function closeDrawing(): Promise<void> {
  return drawing.close();
}
