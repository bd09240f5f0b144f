import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { cp1252, formBody, repeated, workbookOf, workbookWithSheet, zipOf } from './hostile-files';

/**
 * The file fuzzer of the import endpoint: a case is an import kind, an upload form (CSV body, .xlsx
 * body, multipart form) and a mutation of a valid file of that kind (truncation, flipped bytes,
 * another format's signature, huge cells and rows, bombs, nested zips, mixed encodings, broken form
 * boundaries). Shared by test/e2e/import-file-fuzz.test.ts and `npm run reliability -- --only files`.
 */

const FIXTURES = path.resolve(__dirname, '../fixtures/import');

export const FORMS = ['csv', 'xlsx', 'multipart'] as const;
export type Form = (typeof FORMS)[number];

export const MUTATIONS = [
  'none', 'truncate', 'flip', 'signature', 'hugeCell', 'hugeRow', 'manyRows', 'headerParens', 'mixedEncoding',
  'inflateBomb', 'rowsBomb', 'wideRow', 'longText', 'nestedZip', 'noClosingBoundary', 'wrongBoundary', 'noBoundary', 'cutInPartHeader',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

export interface FuzzTarget {
  /** The producer the producer-scoped kinds import for. */
  producerId: string;
  /** Sizes the bombs are made for: past the target's read limits. */
  bombBytes: number;
  bombRows: number;
  lineBytes: number;
}

export interface Kind {
  name: string;
  path: (t: FuzzTarget) => string;
  /** Imported as the producer itself, or as an ADMIN. */
  producer: boolean;
  csv: Buffer;
  delimiter: string;
}

export const KINDS: Kind[] = [
  { name: 'sales', path: (t) => `/import/sales?producer=${t.producerId}`, producer: true, delimiter: ',', csv: Buffer.from('soldOn,volumeM3,revenue\n2026-03-01,1.5,1000\n2026-03-02,2,2000\n') },
  { name: 'purchases', path: (t) => `/import/purchases?producer=${t.producerId}`, producer: true, delimiter: ';', csv: fs.readFileSync(path.join(FIXTURES, 'compras-pt-br.csv')) },
  { name: 'farmers', path: () => '/import/farmers', producer: false, delimiter: ',', csv: fs.readFileSync(path.join(FIXTURES, 'farmers.csv')) },
  { name: 'municipalities', path: () => '/import/municipalities', producer: false, delimiter: ';', csv: fs.readFileSync(path.join(FIXTURES, 'municipalities.csv')) },
  { name: 'semiarid', path: () => '/import/semiarid?act=Portaria%20fuzz&validFrom=2026-01-01', producer: false, delimiter: ',', csv: Buffer.from('ibgeCode,name\n2611606,Recife\n2910800,Feira de Santana\n') },
];

/** One case as fast-check draws it: what to build, and the random numbers the building uses. */
export interface CaseSpec {
  kind: number;
  form: Form;
  mutation: Mutation;
  at: number;
  bytes: number[];
  size: number;
}

export const caseSpec: fc.Arbitrary<CaseSpec> = fc.record({
  kind: fc.nat(KINDS.length - 1),
  form: fc.constantFrom(...FORMS),
  mutation: fc.constantFrom(...MUTATIONS),
  at: fc.nat(),
  bytes: fc.array(fc.nat(255), { minLength: 1, maxLength: 16 }),
  size: fc.nat(3),
});

export interface BuiltCase {
  kind: string;
  form: Form;
  mutation: Mutation;
  path: string;
  producer: boolean;
  body: Buffer;
  contentType: string;
}

const SIGNATURES = [
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), // .xls
  Buffer.from([0x1f, 0x8b, 0x08, 0x00]), // gzip
  Buffer.from('%PDF-1.7\n'),
  Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), // a zip's, before text
  Buffer.from([0xff, 0xfe, 0x00, 0x00]), // UTF-16/32 byte-order marks
];

/** Bombs are made once per target (deflating tens of megabytes costs a second). */
const made = new Map<string, Promise<Buffer>>();
function once(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
  if (!made.has(key)) made.set(key, make());
  return made.get(key)!;
}

function lines(csv: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let nl = csv.indexOf(10); nl !== -1; nl = csv.indexOf(10, start)) {
    out.push(csv.subarray(start, nl + 1));
    start = nl + 1;
  }
  if (start < csv.length) out.push(csv.subarray(start));
  return out;
}

/** The CSV text of a kind with its mutation, before it takes its form. */
function mutatedCsv(kind: Kind, spec: CaseSpec, t: FuzzTarget): Buffer {
  const csv = kind.csv;
  const [header, ...rest] = lines(csv);
  const d = kind.delimiter;
  const hugeSizes = [100, t.lineBytes + 1, 2 * t.lineBytes, 70_000];
  switch (spec.mutation) {
    case 'hugeCell': {
      const line = rest[spec.at % rest.length] ?? header;
      const cut = line.indexOf(d.charCodeAt(0));
      const huge = Buffer.from('9'.repeat(hugeSizes[spec.size]));
      return Buffer.concat([header, ...rest.filter((l) => l !== line), line.subarray(0, cut + 1), huge, line.subarray(cut + 1)]);
    }
    case 'hugeRow':
      return Buffer.concat([csv, Buffer.from(`${Array.from({ length: [50, 500, 5_000, 20_000][spec.size] }, (_, i) => i).join(d)}\n`)]);
    case 'manyRows':
      return Buffer.concat([header, ...Array.from({ length: [10, 200, 2_000, 5_000][spec.size] }, (_, i) => rest[i % rest.length])]);
    case 'headerParens':
      return Buffer.concat([Buffer.from(`${'('.repeat([100, 5_000, 80_000, 200][spec.size])}${d}`), csv]);
    case 'mixedEncoding': {
      // A line in the other encoding than the file's first non-ASCII one.
      const utf8 = Buffer.from(`Conceição${d}José${d}Araújo\n`);
      const latin = cp1252(`Conceição${d}José${d}Araújo\n`);
      return Buffer.concat([csv, spec.size % 2 ? utf8 : latin, spec.size % 2 ? latin : utf8]);
    }
    default:
      return csv;
  }
}

/** Bytes mutated in place (truncated, flipped, another signature). */
function mutatedBytes(bytes: Buffer, spec: CaseSpec): Buffer {
  switch (spec.mutation) {
    case 'truncate':
      return bytes.subarray(0, spec.at % Math.max(1, bytes.length));
    case 'flip': {
      const out = Buffer.from(bytes);
      spec.bytes.forEach((b, i) => {
        if (out.length) out[(spec.at + i * 7919) % out.length] ^= b || 1;
      });
      return out;
    }
    case 'signature': {
      const magic = SIGNATURES[spec.at % SIGNATURES.length];
      return Buffer.concat([magic, bytes.subarray(spec.size % 2 ? magic.length : 0)]);
    }
    default:
      return bytes;
  }
}

/** The file of a workbook mutation (bombs, wide rows, long texts, nested zips). */
async function workbookMutation(kind: Kind, spec: CaseSpec, t: FuzzTarget): Promise<Buffer | null> {
  switch (spec.mutation) {
    case 'inflateBomb':
      return once(`inflate-${t.bombBytes}`, () => workbookWithSheet(repeated('<row/>'.repeat(1 << 14), Math.ceil(t.bombBytes / (6 << 14)) + 1)));
    case 'rowsBomb':
      return once(`rows-${t.bombRows}`, () => workbookWithSheet(repeated('<row><c t="inlineStr"><is><t>2026-03-01</t></is></c></row>'.repeat(1_000), Math.ceil(t.bombRows / 1_000) + 1)));
    case 'wideRow':
      return once('wide', () => workbookWithSheet('<row r="1"><c r="A1" t="inlineStr"><is><t>soldOn</t></is></c><c r="XFD1" t="inlineStr"><is><t>x</t></is></c></row>'));
    case 'longText':
      return once(`long-${t.lineBytes}`, () => workbookWithSheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>${'x'.repeat(t.lineBytes + 10)}</t></is></c></row>`));
    case 'nestedZip': {
      const inner = await workbookOf(kind.csv.toString('latin1'), kind.delimiter);
      return spec.size % 2
        ? workbookWithSheet('', [{ name: 'xl/embeddings/inner.xlsx', data: inner }])
        : zipOf([{ name: 'xl/worksheets/sheet1.xml', data: inner }, { name: 'inner.xlsx', data: inner }]);
    }
    default:
      return null;
  }
}

/** Build one case: its path, body and content type. */
export async function buildCase(spec: CaseSpec, t: FuzzTarget): Promise<BuiltCase> {
  const kind = KINDS[spec.kind];
  const csv = mutatedCsv(kind, spec, t);
  const workbook = spec.form === 'csv' ? null : await workbookMutation(kind, spec, t);
  let file = workbook ?? csv;
  if (!workbook && spec.form === 'xlsx') {
    // A workbook of the (mutated) rows; a cell over Excel's 32,767 characters stays a CSV body.
    file = csv.length < 4_000_000 ? await workbookOf(csv.toString('latin1'), kind.delimiter).catch(() => csv) : csv;
  }
  file = mutatedBytes(file, spec);
  const base = { kind: kind.name, form: spec.form, mutation: spec.mutation, path: kind.path(t), producer: kind.producer };
  if (spec.form !== 'multipart') {
    return { ...base, body: file, contentType: spec.form === 'csv' ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
  }
  const boundary = `fuzz-${spec.at.toString(36)}`;
  switch (spec.mutation) {
    case 'noClosingBoundary':
      return { ...base, ...formBody(file, { boundary, close: false }) };
    case 'wrongBoundary':
      return { ...base, body: formBody(file, { boundary }).body, contentType: `multipart/form-data; boundary=other-${boundary}` };
    case 'noBoundary':
      return { ...base, body: formBody(file, { boundary }).body, contentType: 'multipart/form-data' };
    case 'cutInPartHeader': {
      const { body, contentType } = formBody(file, { boundary });
      return { ...base, body: body.subarray(0, 20 + (spec.at % 60)), contentType };
    }
    default:
      return { ...base, ...formBody(file, { boundary }) };
  }
}
