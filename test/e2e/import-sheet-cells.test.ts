import { startTestApi, TestApi } from '../support/api';
import { createProducer, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { workbookWithSheet, writtenRows } from '../support/hostile-files';

/**
 * Cells of a workbook that exceljs reads into something no cell holds: a date-formatted number
 * past any calendar day, a shared string the workbook does not have. Each refuses the file over
 * HTTP (400, naming the row), and nothing is written.
 */
let api: TestApi;
let producerId: string;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producerId = await createProducer(api, 'Usina Células');
});
afterAll(() => api?.close());
afterEach(() => api.db.dataSource.query('DELETE FROM purchase WHERE producer_id = $1', [producerId]));

/** Style 1 is the date format 14 (d/m/yyyy), as Excel writes a date. */
const STYLES = '<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
  + '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>';
const sharedStrings = (...texts: string[]) => '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
  + `count="${texts.length}" uniqueCount="${texts.length}">${texts.map((t) => `<si><t>${t}</t></si>`).join('')}</sst>`;

const COLUMNS = ['purchasedOn', 'consumedOn', 'feedstock', 'quantityKg', 'cost', 'supplierKind', 'originMunicipalityCode', 'externalId', 'supplierName'];
const LETTERS = 'ABCDEFGHI';
const text = (ref: string, value: string) => `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;

/** A row of the sheet: each cell's markup by column, inline text for the others of a good purchase. */
function row(r: number, cells: Partial<Record<string, string>> = {}): string {
  const good: Record<string, string> = {
    purchasedOn: '2026-03-02', consumedOn: '2026-03-05', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500', supplierKind: 'THIRD_PARTY',
    originMunicipalityCode: RECIFE, externalId: `nf-${r}`, supplierName: 'Cerealista Alfa',
  };
  return `<row r="${r}">${COLUMNS.map((c, i) => (cells[c] ?? text(`${LETTERS[i]}${r}`, good[c]))).join('')}</row>`;
}
const header = `<row r="1">${COLUMNS.map((c, i) => text(`${LETTERS[i]}1`, c)).join('')}</row>`;
const dated = (ref: string, v: string) => `<c r="${ref}" s="1"><v>${v}</v></c>`;

async function post(file: Buffer): Promise<{ status: number; body: any }> {
  const res = await fetch(`${api.url.replace(/\/graphql$/, '')}/import/purchases?producer=${producerId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', authorization: `Bearer ${await api.token({ role: 'PRODUCER', producerId })}` },
    body: file,
  });
  return { status: res.status, body: await res.json() };
}

const purchases = () => api.db.dataSource.query(
  `SELECT to_char(purchased_on, 'YYYY-MM-DD') AS purchased_on, to_char(consumed_on, 'YYYY-MM-DD') AS consumed_on, external_id FROM purchase WHERE producer_id = $1 ORDER BY external_id`,
  [producerId],
);

describe('a date-formatted number that names no day from 0001-01-01 to 9999-12-31', () => {
  it('is a problem of its cell in any column (date, number, enumeration, text), with the other lines\' problems', async () => {
    const before = await writtenRows(api.db.dataSource);
    const sheet = header
      + row(2, { purchasedOn: dated('A2', '1e20') })
      + row(3, { consumedOn: dated('B3', 'NaN') })
      + row(4, { quantityKg: dated('D4', 'NaN') })
      + row(5, { feedstock: dated('C5', '1e20') })
      + row(6, { externalId: dated('H6', '1e20') })
      // 3,000,000 days after 1899-12-30 fall in the year 10113; 700,000 days before it in 18 BC.
      + row(7, { purchasedOn: dated('A7', '3000000') })
      + row(8, { consumedOn: dated('B8', '-700000') });
    const answer = await post(await workbookWithSheet(sheet, [{ name: 'xl/styles.xml', data: STYLES }]));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'BAD_USER_INPUT', line: 2, column: 'purchasedOn', messageKey: 'import.workbookDate', problemCount: 7 });
    expect(answer.body.error.problems.map((p: { line: number; column: string; messageKey: string }) => [p.line, p.column, p.messageKey])).toEqual([
      [2, 'purchasedOn', 'import.workbookDate'],
      [3, 'consumedOn', 'import.workbookDate'],
      [4, 'quantityKg', 'import.workbookDate'],
      [5, 'feedstock', 'import.workbookDate'],
      [6, 'externalId', 'import.workbookDate'],
      [7, 'purchasedOn', 'import.workbookDate'],
      [8, 'consumedOn', 'import.workbookDate'],
    ]);
    expect(answer.body.error.problems[0].message).toBe('line 2, column purchasedOn: the cell is formatted as a date, but its number names no day from 0001-01-01 to 9999-12-31');
    expect(await writtenRows(api.db.dataSource)).toEqual(before);
  });

  it('while a date serial of the calendar is read as its day', async () => {
    // 46083 days after 1899-12-30 (Excel's day 0 in the 1900 date system) is 2026-03-02.
    const sheet = header + row(2, { purchasedOn: dated('A2', '46083'), consumedOn: dated('B2', '46086') });
    const answer = await post(await workbookWithSheet(sheet, [{ name: 'xl/styles.xml', data: STYLES }]));
    expect([answer.status, answer.body.import?.rows]).toEqual([200, 1]);
    expect(await purchases()).toEqual([{ purchased_on: '2026-03-02', consumed_on: '2026-03-05', external_id: 'nf-2' }]);
  });
});

describe('a text cell that names a shared string the workbook does not hold', () => {
  it('refuses the file, naming the row and the cell, instead of reading a blank', async () => {
    const before = await writtenRows(api.db.dataSource);
    for (const [v, strings] of [['7', sharedStrings('nf-x')], ['1', sharedStrings('nf-x')], ['x', sharedStrings('nf-x')], ['-1', sharedStrings('nf-x')], ['0', null]] as const) {
      const sheet = header + row(2) + row(3, { externalId: `<c r="H3" t="s"><v>${v}</v></c>` });
      const answer = await post(await workbookWithSheet(sheet, strings === null ? [] : [{ name: 'xl/sharedStrings.xml', data: strings }]));
      expect([v, answer.status, answer.body.error?.code, answer.body.error?.line, answer.body.error?.messageKey]).toEqual([v, 400, 'BAD_USER_INPUT', 3, 'import.missingSharedString']);
      expect(answer.body.error.message).toBe('line 3: the cell H3 names a shared text the workbook does not hold: the file is damaged; save it again from the spreadsheet');
    }
    // The header row is checked too: a blank header cell would drop the column.
    const heading = `<row r="1">${COLUMNS.map((c, i) => (c === 'externalId' ? '<c r="H1" t="s"><v>3</v></c>' : text(`${LETTERS[i]}1`, c))).join('')}</row>`;
    const answer = await post(await workbookWithSheet(heading + row(2), [{ name: 'xl/sharedStrings.xml', data: sharedStrings('nf-x') }]));
    expect([answer.status, answer.body.error?.line, answer.body.error?.messageKey]).toEqual([400, 1, 'import.missingSharedString']);
    expect(await writtenRows(api.db.dataSource)).toEqual(before);
  });

  it('while one the workbook holds is read as its text', async () => {
    const sheet = header + row(2, { externalId: '<c r="H2" t="s"><v>1</v></c>' });
    const answer = await post(await workbookWithSheet(sheet, [{ name: 'xl/sharedStrings.xml', data: sharedStrings('nf-a', 'nf-b') }]));
    expect([answer.status, answer.body.import?.rows]).toEqual([200, 1]);
    expect(await purchases()).toEqual([{ purchased_on: '2026-03-02', consumed_on: '2026-03-05', external_id: 'nf-b' }]);
  });
});
