import { isAscii, isUtf8 } from 'node:buffer';
import { Readable, Transform } from 'node:stream';
import { CsvError, Parser } from 'csv-parse';
import type ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import type unzipper from 'unzipper';
import { message, Message } from '../i18n';
import { RawCell } from './cells';
import { ImportLineError } from './import-error';
import { Spool } from './spool';

export type SourceRow = [line: number, cells: RawCell[]];

export interface Source {
  format: 'csv' | 'xlsx';
  delimiter: { char: string; detected: boolean } | null;
  rows: AsyncIterable<SourceRow>;
  destroy(error: Error): void;
  dispose(): Promise<void>;
}

const SLICE = 1 << 16;
const HEAD = 1 << 16;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** OLE2: an .xls of Excel 97–2003. */
const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

/** The line from the parser's live counter: `info` copies counters per record, costing more than parsing. */
class LineParser extends Parser {
  push(chunk: unknown, encoding?: BufferEncoding): boolean {
    return super.push(chunk === null ? null : [(this as unknown as { info: { lines: number } }).info.lines, chunk], encoding);
  }
}

/** The most frequent of tab, ';' and ',' in the header line. */
export function detectDelimiter(head: string): ',' | ';' | '\t' {
  const first = head.split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => first.split(c).length - 1;
  if (count('\t') > count(',') && count('\t') > count(';')) return '\t';
  return count(';') > count(',') ? ';' : ',';
}

export function separatorName(char: string): string {
  return char === '\t' ? 'tab' : `"${char}"`;
}

function completeUtf8(buf: Buffer): number {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const b = buf[buf.length - back];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? buf.length - back : buf.length;
  }
  return buf.length;
}

const ENCODING_NAMES = { utf8: 'UTF-8', cp1252: 'Windows-1252' } as const;

/** Else Windows-1252 (Portuguese Excel's CSV); the first non-ASCII line decides. */
function textDecoder(onBytes: (n: number) => void, lineBytes: number): Transform {
  let mode: 'ascii' | 'utf8' | 'cp1252' = 'ascii';
  let decidedAt = 0;
  let line = 1;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const tooLong = () => new ImportLineError('BAD_USER_INPUT', line, null, message('import.lineTooLong', { max: lineBytes }));
  const decode = (bytes: Buffer): Buffer | ImportLineError => {
    if (bytes.length > lineBytes) return tooLong();
    if (isAscii(bytes)) return bytes;
    const found = isUtf8(bytes) ? 'utf8' : 'cp1252';
    if (mode === 'ascii') {
      mode = found;
      decidedAt = line;
    } else if (mode !== found) {
      return new ImportLineError('BAD_USER_INPUT', line, null, message('import.mixedEncoding', { found: ENCODING_NAMES[found], first: decidedAt, expected: ENCODING_NAMES[mode] }));
    }
    return found === 'utf8' ? bytes : Buffer.from(iconv.decode(bytes, 'win1252'), 'utf8');
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      onBytes(chunk.length);
      const out: Buffer[] = [];
      let start = 0;
      while (start < chunk.length) {
        const nl = chunk.indexOf(10, start);
        if (nl === -1) {
          pendingBytes += chunk.length - start;
          if (pendingBytes > lineBytes) return done(tooLong());
          pending.push(chunk.subarray(start));
          break;
        }
        const piece = chunk.subarray(start, nl + 1);
        const whole = pending.length ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        pendingBytes = 0;
        const text = decode(whole);
        if (text instanceof ImportLineError) return done(text);
        out.push(text);
        line++;
        start = nl + 1;
      }
      done(null, out.length === 1 ? out[0] : Buffer.concat(out));
    },
    flush(done) {
      if (!pending.length) return done();
      const text = decode(Buffer.concat(pending));
      pending = [];
      if (text instanceof ImportLineError) return done(text);
      done(null, text);
    },
  });
}

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

/** Checked before any connection: a few hundred KB of zip can inflate to gigabytes. */
export interface ReadLimits {
  lineBytes: number;
  inflatedBytes: number;
  /** Held in memory while the sheet is read. */
  sharedStringsBytes: number;
  entries: number;
  textRunBytes: number;
  rows: number;
  cellsPerRow: number;
  cells: number;
}

/** 128 MB of markup is some 300,000 purchase rows; larger goes as CSV. */
export const READ_LIMITS: ReadLimits = {
  lineBytes: 1 << 20,
  inflatedBytes: 128 << 20,
  sharedStringsBytes: 32 << 20,
  entries: 1_000,
  textRunBytes: 1 << 20,
  rows: 1_048_576,
  cellsPerRow: 1_024,
  cells: 20_000_000,
};

export interface OpenOptions {
  delimiter?: string | null;
  onBytes: (n: number) => void;
  limits?: ReadLimits;
  deadline?: Deadline | null;
}

export interface Deadline {
  at: number;
  seconds: number;
}

export function lateError(deadline: Deadline): ImportLineError {
  return new ImportLineError('BAD_USER_INPUT', null, null, message('import.readDeadline', { seconds: deadline.seconds }));
}

export async function beforeDeadline<T>(promise: Promise<T>, deadline: Deadline | null): Promise<T> {
  if (!deadline) return promise;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(lateError(deadline)), Math.max(0, deadline.at - Date.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const OTHER_FORMATS = [
  Buffer.from([0x1f, 0x8b]), // gzip
  Buffer.from('%PDF'),
  Buffer.from([0x37, 0x7a, 0xbc, 0xaf]), // 7z
  Buffer.from('Rar!'),
];

/** .xlsx is kept whole and inflated under `limits` before exceljs reads it. */
export async function openSource(input: Readable, options: OpenOptions): Promise<Source> {
  const limits = options.limits ?? READ_LIMITS;
  const deadline = options.deadline ?? null;
  const { head, stream } = await peek(input);
  if (head.subarray(0, 4).equals(ZIP_MAGIC)) return workbookSource(stream, options.onBytes, limits, deadline);
  if (head.subarray(0, 4).equals(OLE2_MAGIC)) {
    stream.destroy();
    throw new ImportLineError('BAD_USER_INPUT', null, null, message('import.xlsWorkbook'));
  }
  // UTF-16 or binary.
  const firstLine = head.indexOf(10) === -1 ? head : head.subarray(0, head.indexOf(10));
  if (OTHER_FORMATS.some((magic) => head.subarray(0, magic.length).equals(magic)) || firstLine.includes(0)) {
    stream.destroy();
    throw new ImportLineError('BAD_USER_INPUT', null, null, message('import.notText'));
  }
  const text = head.subarray(0, completeUtf8(head));
  const given = options.delimiter ?? null;
  const char = given ?? detectDelimiter(isUtf8(text) ? text.toString('utf8') : iconv.decode(head, 'win1252'));
  const decoder = textDecoder(options.onBytes, limits.lineBytes);
  // The parser emits a chunk's records at once; fewer in flight keep the heap small.
  const slicer = new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (let i = 0; i < chunk.length; i += SLICE) this.push(chunk.subarray(i, i + SLICE));
      done();
    },
  });
  const parser = new LineParser({ bom: true, delimiter: char, trim: true, skip_empty_lines: true, relax_quotes: false, max_record_size: limits.lineBytes });
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
    dispose: async () => undefined,
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

/** A `t="s"` cell whose shared string the workbook does not hold. */
const MISSING_STRING = Symbol('missing shared string');

/**
 * exceljs reads a `t="s"` cell of a workbook without shared strings as `{ sharedString: 7 }`, and
 * one whose index is past them (`<v>7</v>` where there is one) as an empty cell. The lookup of a
 * missing index goes on to the array's prototype: made this one, it answers as in the first case.
 * The strings found are the array's own and pay nothing.
 */
const MISSING_STRINGS: object = new Proxy(Array.prototype, {
  get: (target, key, receiver) => (typeof key === 'string' && String(Number(key)) === key ? { sharedString: Number(key) } : Reflect.get(target, key, receiver)),
});

function plainCell(v: unknown): RawCell | typeof MISSING_STRING {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || v instanceof Date) return v as RawCell;
  const o = v as Record<string, unknown>;
  if ('sharedString' in o) return MISSING_STRING;
  if ('error' in o) return { error: String(o.error) };
  if ('result' in o) return plainCell(o.result);
  if ('formula' in o || 'sharedFormula' in o) return null;
  if (Array.isArray(o.richText)) return (o.richText as Array<{ text: string }>).map((t) => t.text).join('');
  if ('text' in o) return plainCell(o.text);
  return String(v);
}

/** Bounds what exceljs reads; unzipper is exceljs's own zip reader, so both see the same parts. */
async function checkWorkbook(spool: Spool, limits: ReadLimits, deadline: Deadline | null): Promise<void> {
  const refuse = (text: Message) => new ImportLineError('BAD_USER_INPUT', null, null, text);
  const tooBig = () => refuse(message('import.workbookTooBig', { mb: Math.round(limits.inflatedBytes / (1 << 20)) }));
  const { Parse } = await import('unzipper');
  const input = spool.stream();
  const zip = Parse({ forceStream: true });
  // unzipper emits a part's errors on the parser; the part would wait for ever.
  let current: unzipper.Entry | null = null;
  let failed: Error | null = null;
  zip.on('error', (e: Error) => {
    failed ??= e;
    current?.destroy(e);
  });
  input.on('error', (e) => zip.destroy(e));
  input.pipe(zip);
  let total = 0;
  let entries = 0;
  try {
    for await (const entry of zip as AsyncIterable<unzipper.Entry>) {
      current = entry;
      // A part left unread when the scan stops is destroyed; its 'error' then has no reader.
      entry.on('error', () => undefined);
      if (failed) throw failed;
      if (++entries > limits.entries) throw tooBig();
      const shared = entry.path === 'xl/sharedStrings.xml';
      let part = 0;
      let run = 0;
      for await (const chunk of entry as AsyncIterable<Buffer>) {
        total += chunk.length;
        part += chunk.length;
        if (total > limits.inflatedBytes) throw tooBig();
        if (shared && part > limits.sharedStringsBytes) throw refuse(message('import.workbookStrings', { mb: Math.round(limits.sharedStringsBytes / (1 << 20)) }));
        // No literal '<' in text: the bytes between two bound a cell.
        let from = 0;
        for (let at = chunk.indexOf(0x3c); at !== -1; at = chunk.indexOf(0x3c, at + 1)) {
          if (run + at - from > limits.textRunBytes) break;
          run = 0;
          from = at;
        }
        run += chunk.length - from;
        if (run > limits.textRunBytes) throw refuse(message('import.workbookCell', { max: limits.textRunBytes }));
        if (deadline && Date.now() > deadline.at) throw lateError(deadline);
      }
      if (failed) throw failed;
    }
    if (failed) throw failed;
  } catch (e) {
    if (e instanceof ImportLineError) throw e;
    throw refuse(message('import.notAWorkbook', { detail: e instanceof Error ? e.message : String(e) }));
  } finally {
    input.destroy();
    zip.destroy();
  }
}

async function workbookSource(stream: Readable, onBytes: (n: number) => void, limits: ReadLimits, deadline: Deadline | null): Promise<Source> {
  const spool = new Spool();
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      onBytes(chunk.length);
      await spool.write(chunk);
    }
    await spool.end();
    await checkWorkbook(spool, limits, deadline);
  } catch (e) {
    await spool.dispose();
    throw e;
  }
  const input = spool.stream();
  // A server that reads no workbook starts without exceljs.
  const { stream: excelStream } = await import('exceljs');
  const reader = new excelStream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
  return {
    format: 'xlsx',
    delimiter: null,
    rows: sheetRows(reader, limits),
    destroy: () => input.destroy(),
    dispose: () => spool.dispose(),
  };
}

/** `B3` for column 2 of row 3. */
function cellName(column: number, row: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `${letters}${row}`;
}

async function* sheetRows(reader: ExcelJS.stream.xlsx.WorkbookReader, limits: ReadLimits): AsyncIterable<SourceRow> {
  let sheets = 0;
  let rows = 0;
  let cellsRead = 0;
  try {
    for await (const sheet of reader) {
      sheets++;
      if (sheets > 1) continue; // the first worksheet only; the others are read past
      // Whole by now: a sheet is read after the shared strings, or after every part when it comes first.
      const strings = (reader as unknown as { sharedStrings?: unknown[] }).sharedStrings;
      if (strings) Object.setPrototypeOf(strings, MISSING_STRINGS);
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        if (++rows > limits.rows) throw new ImportLineError('BAD_USER_INPUT', row.number, null, message('import.tooManyRows', { max: limits.rows }));
        const values = row.values as unknown[];
        if (values.length - 1 > limits.cellsPerRow) throw new ImportLineError('BAD_USER_INPUT', row.number, null, message('import.tooManyCells', { max: limits.cellsPerRow }));
        cellsRead += values.length;
        if (cellsRead > limits.cells) throw new ImportLineError('BAD_USER_INPUT', row.number, null, message('import.tooManyCellsInAll', { max: limits.cells }));
        const cells: RawCell[] = [];
        for (let i = 1; i < values.length; i++) {
          const cell = plainCell(values[i]);
          if (cell === MISSING_STRING) throw new ImportLineError('BAD_USER_INPUT', row.number, null, message('import.missingSharedString', { cell: cellName(i, row.number) }));
          cells.push(cell);
        }
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
