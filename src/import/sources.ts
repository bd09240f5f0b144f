import { isAscii, isUtf8 } from 'node:buffer';
import { Readable, Transform } from 'node:stream';
import { CsvError, Parser } from 'csv-parse';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { message } from '../i18n';
import { RawCell } from './cells';
import { ImportLineError } from './import-error';

/** One row of a file: the line it ends on (CSV) or its row number (a sheet), and its cells. */
export type SourceRow = [line: number, cells: RawCell[]];

/** What the file turned out to be, and how it is read. */
export interface Source {
  format: 'csv' | 'xlsx';
  /** CSV: the separator, and whether it was detected from the header line (not given). */
  delimiter: { char: string; detected: boolean } | null;
  rows: AsyncIterable<SourceRow>;
  /** Stop reading (the import failed). */
  destroy(error: Error): void;
}

/** Bytes handed to the CSV parser at a time. */
const SLICE = 1 << 16;
/** How much of the file is looked at before deciding what it is (its header line, at most this). */
const HEAD = 1 << 16;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** An OLE2 compound file: an .xls workbook of Excel 97–2003. */
const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

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

/** The field separator of a file from its header line: the most frequent of tab, ';' and ',' (',' when none). */
export function detectDelimiter(head: string): ',' | ';' | '\t' {
  const first = head.split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => first.split(c).length - 1;
  if (count('\t') > count(',') && count('\t') > count(';')) return '\t';
  return count(';') > count(',') ? ';' : ',';
}

/** How a separator is named in messages. */
export function separatorName(char: string): string {
  return char === '\t' ? 'tab' : `"${char}"`;
}

/** The length of `buf` without an incomplete UTF-8 sequence at its end. */
function completeUtf8(buf: Buffer): number {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const b = buf[buf.length - back];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? buf.length - back : buf.length;
  }
  return buf.length;
}

/**
 * The file's bytes as UTF-8, counted: UTF-8 (with or without a byte-order mark) passes unchanged;
 * a file that is not valid UTF-8 is read as Windows-1252, what a Portuguese Excel writes for
 * "CSV (separado por vírgulas)" — from the start, or from where it stops being ASCII. A file that
 * mixes both refuses (its text cannot be told apart).
 */
function textDecoder(onBytes: (n: number) => void): Transform {
  let mode: 'utf8' | 'ascii' | 'cp1252' = 'ascii';
  let carry: Buffer | null = null;
  const decoder = iconv.getDecoder('win1252');
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      onBytes(chunk.length);
      if (mode === 'cp1252') return done(null, Buffer.from(decoder.write(chunk), 'utf8'));
      const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
      const end = completeUtf8(bytes);
      const whole = end === bytes.length ? bytes : bytes.subarray(0, end);
      if (isUtf8(whole)) {
        carry = end === bytes.length ? null : Buffer.from(bytes.subarray(end));
        if (mode === 'ascii' && !isAscii(whole)) mode = 'utf8';
        return done(null, whole);
      }
      if (mode === 'utf8') return done(new ImportLineError('BAD_USER_INPUT', null, null, message('import.notText')));
      mode = 'cp1252';
      carry = null;
      done(null, Buffer.from(decoder.write(bytes), 'utf8'));
    },
    flush(done) {
      if (carry && mode !== 'cp1252') return done(new ImportLineError('BAD_USER_INPUT', null, null, message('import.notText')));
      done();
    },
  });
}

/** Reads the start of `input` (its first line, or HEAD bytes) and gives it back with the whole stream, unread. */
async function peek(input: Readable): Promise<{ head: Buffer; stream: Readable }> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < HEAD) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    const chunk = typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
    chunks.push(chunk);
    size += chunk.length;
    if (chunk.includes(10)) break;
  }
  const stream = Readable.from((async function* () {
    yield* chunks;
    if (ended) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
    }
  })(), { objectMode: false });
  return { head: Buffer.concat(chunks), stream };
}

/**
 * Open an import file from its bytes: an .xlsx workbook (a zip) or CSV text. CSV is parsed as it
 * arrives (csv-parse), its separator the one given or detected from the header line; a workbook
 * is read as it arrives too (exceljs's streaming reader), its first worksheet only.
 */
export async function openSource(input: Readable, options: { delimiter?: string | null; onBytes: (n: number) => void }): Promise<Source> {
  const { head, stream } = await peek(input);
  if (head.subarray(0, 4).equals(ZIP_MAGIC)) return workbookSource(stream, options.onBytes);
  if (head.subarray(0, 4).equals(OLE2_MAGIC)) {
    stream.destroy();
    throw new ImportLineError('BAD_USER_INPUT', null, null, message('import.xlsWorkbook'));
  }
  const text = head.subarray(0, completeUtf8(head));
  const given = options.delimiter ?? null;
  const char = given ?? detectDelimiter(isUtf8(text) ? text.toString('utf8') : iconv.decode(head, 'win1252'));
  const decoder = textDecoder(options.onBytes);
  // Big chunks are cut into 64 KB slices: the parser emits every record of a chunk at once, and
  // fewer records in flight keep the heap (and the RSS) small.
  const slicer = new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (let i = 0; i < chunk.length; i += SLICE) this.push(chunk.subarray(i, i + SLICE));
      done();
    },
  });
  const parser = new LineParser({ bom: true, delimiter: char, trim: true, skip_empty_lines: true, relax_quotes: false });
  const fail = (e: Error) => parser.destroy(e);
  stream.on('error', fail);
  decoder.on('error', fail);
  stream.pipe(decoder).pipe(slicer).pipe(parser);
  return {
    format: 'csv',
    delimiter: { char, detected: given === null },
    rows: csvRows(parser),
    destroy: (e) => {
      stream.unpipe();
      stream.destroy();
      parser.destroy(e);
    },
  };
}

async function* csvRows(parser: LineParser): AsyncIterable<SourceRow> {
  try {
    yield* parser as AsyncIterable<SourceRow>;
  } catch (e) {
    if (e instanceof CsvError) {
      const line = (e as CsvError & { lines?: number }).lines ?? null;
      const count = /expect (\d+), got (\d+)/.exec(e.message);
      if (count) throw new ImportLineError('BAD_USER_INPUT', line, null, message('import.fieldCount', { expected: Number(count[1]), got: Number(count[2]) }));
      throw new ImportLineError('BAD_USER_INPUT', line, null, message('import.notCsv', { detail: e.message.replace(/^Invalid Record Length: /, '') }));
    }
    throw e;
  }
}

/** A cell of exceljs as a plain value: a formula's result, rich text's text, a hyperlink's text, an error. */
function plainCell(v: unknown): RawCell {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || v instanceof Date) return v as RawCell;
  const o = v as Record<string, unknown>;
  if ('error' in o) return { error: String(o.error) };
  if ('result' in o) return plainCell(o.result);
  if ('formula' in o || 'sharedFormula' in o) return null;
  if (Array.isArray(o.richText)) return (o.richText as Array<{ text: string }>).map((t) => t.text).join('');
  if ('text' in o) return plainCell(o.text);
  return String(v);
}

function workbookSource(stream: Readable, onBytes: (n: number) => void): Source {
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
  stream.on('error', (e) => counted.destroy(e));
  stream.pipe(counted);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(counted, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
  return {
    format: 'xlsx',
    delimiter: null,
    rows: sheetRows(reader),
    destroy: () => {
      stream.unpipe();
      stream.destroy();
      counted.destroy();
    },
  };
}

async function* sheetRows(reader: ExcelJS.stream.xlsx.WorkbookReader): AsyncIterable<SourceRow> {
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      sheets++;
      if (sheets > 1) continue; // the first worksheet only; the others are read past
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as unknown[];
        const cells: RawCell[] = [];
        for (let i = 1; i < values.length; i++) cells.push(plainCell(values[i]));
        if (cells.every((c) => c === null || c === '' || (typeof c === 'string' && c.trim() === ''))) continue;
        yield [row.number, cells];
      }
    }
  } catch (e) {
    if (e instanceof ImportLineError) throw e;
    throw new ImportLineError('BAD_USER_INPUT', null, null, message('import.notAWorkbook', { detail: e instanceof Error ? e.message : String(e) }));
  }
  if (sheets === 0) throw new ImportLineError('BAD_USER_INPUT', null, null, message('import.noWorksheet'));
}
