import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { importFile } from '../../src/import/importer';
import { ImportLineError } from '../../src/import/import-error';
import { Role } from '../../src/law/types';
import { importsRunning } from '../../src/http/import-slots';
import { headerKey, headerKeyWithoutUnit } from '../../src/import/cells';
import { Caller, startTestApi, TestApi } from '../support/api';
import { createProducer, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { checkProperty } from '../support/property';
import { cp1252, formBody, heldByImports, repeated, workbookWithSheet, writtenRows } from '../support/hostile-files';

/**
 * Files made to break the import endpoint: each is answered 4xx with a code, leaves no import
 * slot, pooled connection, transaction or lock behind, and writes nothing (docs/RELIABILITY.md).
 */
let api: TestApi;
let producerId: string;
const HEADER = 'soldOn,volumeM3,revenue';

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producerId = await createProducer(api, 'Usina Arquivos');
});

afterAll(async () => {
  await api?.close();
});

interface Answer {
  status: number;
  body: Record<string, any>;
  size: number;
}

async function post(body: Buffer | string, contentType = 'text/csv', path = `/import/sales?producer=${producerId}`, as: Caller = { role: 'PRODUCER', producerId, sub: 'hostile' }): Promise<Answer> {
  const res = await fetch(`${api.url.replace(/\/graphql$/, '')}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: `Bearer ${await api.token(as)}` },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, any>, size: text.length };
}

/** Nothing held and nothing written since `before`. */
async function nothingLeft(before: Record<string, number>): Promise<void> {
  expect(importsRunning()).toBe(0);
  expect(await heldByImports(api.db.dataSource)).toEqual({ checkedOut: 0, waiting: 0, busy: 0, locks: 0 });
  expect(await writtenRows(api.db.dataSource)).toEqual(before);
}

it('answers a form whose body ends without its closing boundary with 400 BAD_USER_INPUT, and the process lives on', async () => {
  const before = await writtenRows(api.db.dataSource);
  for (const file of [`${HEADER}\n2026-03-01,1.5,1000\n`, `${HEADER}\n2026-03-01,1.5,1000`, '']) {
    const { body, contentType } = formBody(Buffer.from(file), { close: false });
    const answer = await post(body, contentType);
    expect([answer.status, answer.body.error.code]).toEqual([400, 'BAD_USER_INPUT']);
    expect(answer.body.error.message).toMatch(/multipart\/form-data/);
  }
  await nothingLeft(before);
  // Two slots per caller: three more imports from the same token go through, so none was kept.
  for (let i = 0; i < 3; i++) expect((await post(`${HEADER}\n2026-03-0${i + 1},1.5,1000\n`)).status).toBe(200);
});

it('refuses a body with the .xls signature before taking a connection, and frees its slot', async () => {
  const before = await writtenRows(api.db.dataSource);
  const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4)]);
  for (let i = 0; i < 3; i++) {
    const answer = await post(xls, 'application/vnd.ms-excel');
    expect([answer.status, answer.body.error.code, answer.body.error.messageKey]).toEqual([400, 'BAD_USER_INPUT', 'import.xlsWorkbook']);
  }
  await nothingLeft(before);
  expect((await post(`${HEADER}\n2026-04-01,1.5,1000\n`)).status).toBe(200);
});

describe('workbook bombs are refused before any connection is taken', () => {
  it('a sheet that inflates past 128 MB (a few hundred KB sent)', async () => {
    const before = await writtenRows(api.db.dataSource);
    const bomb = await workbookWithSheet(repeated('<row r="1"/>'.repeat(87_381), 140));
    expect(bomb.length).toBeLessThan(1 << 20);
    const answer = await post(bomb, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect([answer.status, answer.body.error.code, answer.body.error.messageKey]).toEqual([400, 'BAD_USER_INPUT', 'import.workbookTooBig']);
    await nothingLeft(before);
  }, 60_000);

  it('a text of megabytes in one cell, and shared strings past their cap', async () => {
    const before = await writtenRows(api.db.dataSource);
    const cell = await workbookWithSheet(Buffer.from(`<row r="1"><c r="A1" t="inlineStr"><is><t>${'x'.repeat(3 << 20)}</t></is></c></row>`).toString());
    const answer = await post(cell, 'application/octet-stream');
    expect([answer.status, answer.body.error.messageKey]).toEqual([400, 'import.workbookCell']);
    const strings = await workbookWithSheet('', [{ name: 'xl/sharedStrings.xml', data: repeated('<si><t>a</t></si>'.repeat(60_000), 40) }]);
    const refused = await post(strings, 'application/octet-stream');
    expect([refused.status, refused.body.error.messageKey]).toEqual([400, 'import.workbookStrings']);
    await nothingLeft(before);
  }, 60_000);

  it('forty million empty rows', async () => {
    const before = await writtenRows(api.db.dataSource);
    const rows = await workbookWithSheet(repeated('<row/>'.repeat(174_763), 230));
    expect(rows.length).toBeLessThan(1 << 20);
    const answer = await post(rows, 'application/octet-stream');
    expect([answer.status, answer.body.error.messageKey]).toEqual([400, 'import.workbookTooBig']);
    await nothingLeft(before);
  }, 60_000);
});

it('stops reading a file still unread at its deadline, with no connection taken', async () => {
  const input = new PassThrough();
  input.write(`${HEADER}\n2026-03-01,1.5,1000\n`);
  const pool = (api.db.dataSource.driver as unknown as { master: { totalCount: number; idleCount: number } }).master;
  const checkedOut: number[] = [];
  const watch = setInterval(() => checkedOut.push(pool.totalCount - pool.idleCount), 10);
  const refused = await importFile(api.db.dataSource, { role: Role.ADMIN, sub: 'deadline', producerId: null, requestId: null }, { kind: 'sales', producerId, input, readTimeoutMs: 300 })
    .catch((e: unknown) => e).finally(() => clearInterval(watch));
  expect(refused).toBeInstanceOf(ImportLineError);
  expect((refused as ImportLineError).messageKey).toBe('import.readDeadline');
  expect(Math.max(0, ...checkedOut)).toBe(0);
});

describe('header cells', () => {
  it('drops a unit in parentheses as the regular expression did, in one pass', () => {
    const regex = (t: string) => headerKey(t.replace(/\([^)]*\)/g, ''));
    checkProperty(fc.property(fc.string({ unit: fc.constantFrom('(', ')', 'a', 'B', ' ', 'é', '$') }), (t) => headerKeyWithoutUnit(t) === regex(t)), { seed: 2028, numRuns: 2000 });
    expect(headerKeyWithoutUnit('Quantidade (kg)')).toBe('quantidade');
    expect(headerKeyWithoutUnit('Custo (R$) (total)')).toBe('custo');
    expect(headerKeyWithoutUnit('a(b')).toBe('ab');
    expect(headerKeyWithoutUnit('('.repeat(80_000))).toBe('');
  });

  it('refuses a header cell of 80,000 "(" as too long, writing nothing', async () => {
    const before = await writtenRows(api.db.dataSource);
    const answer = await post(`${'('.repeat(80_000)},volumeM3,revenue\n2026-03-01,1.5,1000\n`);
    expect([answer.status, answer.body.error.messageKey, answer.body.error.line]).toEqual([400, 'import.headerTooLong', 1]);
    await nothingLeft(before);
  });
});

describe('error answers quote at most 80 characters of the file', () => {
  it('a header cell of 20 MB is not echoed', async () => {
    const answer = await post(`${'x'.repeat(20 << 20)},volumeM3,revenue\n`);
    expect([answer.status, answer.body.error.messageKey, answer.body.error.line]).toEqual([400, 'import.lineTooLong', 1]);
    expect(answer.size).toBeLessThan(2_000);
  }, 60_000);

  it('an unknown column of 150 characters and a bad number of 200 are cut at 80, with an ellipsis', async () => {
    const column = await post(`${'Z'.repeat(150)},soldOn,volumeM3,revenue\n`);
    expect(column.body.error.column).toBe(`${'Z'.repeat(80)}…`);
    expect(column.body.error.message).toContain(`${'Z'.repeat(80)}…`);
    expect(column.body.error.message).not.toContain('Z'.repeat(81));
    const cell = await post(`${HEADER}\n2026-03-01,${'9'.repeat(200)}x,1000\n`);
    expect([cell.status, cell.body.error.line]).toEqual([400, 2]);
    expect(cell.body.error.message).toContain(`"${'9'.repeat(80)}…"`);
    expect(cell.size).toBeLessThan(2_000);
  });
});

describe('a CSV file in two encodings is refused at the line that differs', () => {
  const FARMERS = 'cpf,name,municipalityCode\n';

  it('UTF-8 first, then a Windows-1252 line', async () => {
    const before = await writtenRows(api.db.dataSource);
    const body = Buffer.concat([Buffer.from(`${FARMERS}529.982.247-25,João Araújo,${RECIFE}\n862.883.667-57,Zé,${RECIFE}\n`), cp1252(`111.444.777-35,José Conceição,${RECIFE}\n`)]);
    const answer = await post(body, 'text/csv', '/import/farmers', { role: 'ADMIN' });
    expect([answer.status, answer.body.error.code, answer.body.error.messageKey, answer.body.error.line]).toEqual([400, 'BAD_USER_INPUT', 'import.mixedEncoding', 4]);
    expect(answer.body.error.message).toBe('line 4: the line is Windows-1252 text where the file is UTF-8 from line 2 on: save the whole file in one encoding (UTF-8)');
    await nothingLeft(before);
  });

  it('Windows-1252 first, then a UTF-8 line (that would be stored as mojibake)', async () => {
    const before = await writtenRows(api.db.dataSource);
    const body = Buffer.concat([cp1252(`${FARMERS}529.982.247-25,João Araújo,${RECIFE}\n`), Buffer.from(`111.444.777-35,José Conceição,${RECIFE}\n`)]);
    const answer = await post(body, 'text/csv', '/import/farmers', { role: 'ADMIN' });
    expect([answer.status, answer.body.error.messageKey, answer.body.error.line]).toEqual([400, 'import.mixedEncoding', 3]);
    await nothingLeft(before);
  });

  it('a file in one encoding, either, is read', async () => {
    for (const [encode, cpf] of [[(t: string) => Buffer.from(t), '529.982.247-25'], [cp1252, '111.444.777-35']] as const) {
      const answer = await post(encode(`${FARMERS}${cpf},João Araújo,${RECIFE}\n`), 'text/csv', '/import/farmers', { role: 'ADMIN' });
      expect(answer.status).toBe(200);
    }
    const names = await api.db.dataSource.query(`SELECT name FROM family_farmer ORDER BY name`);
    expect(names.map((r: { name: string }) => r.name)).toEqual(['João Araújo', 'João Araújo']);
  });
});
