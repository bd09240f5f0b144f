import { Readable } from 'node:stream';
import archiver from 'archiver';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

/**
 * Files made to break an import (zip bombs, nested zips, truncated forms, mixed encodings) and the
 * checks that one left nothing held: no connection checked out of the pool, no transaction, COPY
 * or lock in PostgreSQL.
 */

/** `chunk` repeated `times` times, produced as it is read (a bomb's content never sits in memory whole). */
export function repeated(chunk: string, times: number): Readable {
  let n = 0;
  return new Readable({
    read() {
      this.push(n++ < times ? chunk : null);
    },
  });
}

/** A zip of the given parts, deflated (archiver). */
export async function zipOf(entries: Array<{ name: string; data: Buffer | string | Readable }>): Promise<Buffer> {
  const zip = archiver('zip', { zlib: { level: 9 } });
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    zip.on('end', resolve);
    zip.on('error', reject);
  });
  for (const e of entries) zip.append(e.data, { name: e.name });
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>';
const RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WORKBOOK = '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';
const SHEET_OPEN = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_CLOSE = '</sheetData></worksheet>';

/** A workbook whose first sheet's markup is `sheetData` (streamed), beside the parts exceljs needs. */
export function workbookWithSheet(sheetData: Readable | string, extra: Array<{ name: string; data: Buffer | string | Readable }> = []): Promise<Buffer> {
  const sheet = typeof sheetData === 'string' ? SHEET_OPEN + sheetData + SHEET_CLOSE : Readable.from((async function* () {
    yield SHEET_OPEN;
    for await (const c of sheetData) yield c;
    yield SHEET_CLOSE;
  })());
  return zipOf([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: '_rels/.rels', data: RELS },
    { name: 'xl/workbook.xml', data: WORKBOOK },
    { name: 'xl/_rels/workbook.xml.rels', data: WORKBOOK_RELS },
    ...extra,
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
  ]);
}

/** Empty rows `<row r="n"/>`, `count` of them, produced as read. */
export function emptyRows(count: number): Readable {
  let n = 0;
  return new Readable({
    read() {
      if (n >= count) return void this.push(null);
      let s = '';
      for (let i = 0; i < 1000 && n < count; i++) s += `<row r="${++n}"/>`;
      this.push(s);
    },
  });
}

/** The rows of a CSV text as a real .xlsx workbook (exceljs), every cell text. */
export async function workbookOf(csv: string, delimiter = ','): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Dados');
  for (const line of csv.split('\n').filter(Boolean)) sheet.addRow(line.split(delimiter));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A multipart/form-data body with `file` in the field "file"; `close: false` leaves out the closing boundary. */
export function formBody(file: Buffer, options: { boundary?: string; close?: boolean; filename?: string } = {}): { body: Buffer; contentType: string } {
  const boundary = options.boundary ?? 'selo-form-boundary-7f3a';
  const parts = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.filename ?? 'file.csv'}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(options.close === false ? '' : `\r\n--${boundary}--\r\n`),
  ];
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Windows-1252 bytes of `text`. */
export function cp1252(text: string): Buffer {
  return iconv.encode(text, 'win1252');
}

/** What an import may have left held: connections checked out of the pool, and in PostgreSQL open transactions, COPYs and locks. */
export async function heldByImports(ds: DataSource): Promise<{ checkedOut: number; waiting: number; busy: number; locks: number }> {
  const pool = (ds.driver as unknown as { master: Pool }).master;
  const checkedOut = pool.totalCount - pool.idleCount;
  const waiting = pool.waitingCount;
  const [{ busy, locks }] = await ds.query(`SELECT -- client backends only: autovacuum's workers come and go with their own locks
      (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
         AND (state LIKE 'idle in transaction%' OR state = 'active' OR query LIKE 'COPY import_stage%')) AS busy,
      (SELECT count(*)::int FROM pg_locks WHERE pid IN (SELECT pid FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend')) AS locks`);
  // The statement above ran on a connection of the pool itself.
  return { checkedOut: Math.max(0, checkedOut), waiting, busy, locks };
}

/** Rows of every table an import writes, and of the audit log. */
export async function writtenRows(ds: DataSource): Promise<Record<string, number>> {
  const [row] = await ds.query(`SELECT
      (SELECT count(*)::int FROM sale) AS sale, (SELECT count(*)::int FROM purchase) AS purchase,
      (SELECT count(*)::int FROM family_farmer) AS farmer, (SELECT count(*)::int FROM family_farmer_registration) AS registration,
      (SELECT count(*)::int FROM municipality) AS municipality, (SELECT count(*)::int FROM semiarid_membership) AS semiarid,
      (SELECT count(*)::int FROM audit_entry) AS audit`);
  return row;
}
