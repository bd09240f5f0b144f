import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { Locale } from '../../src/formats/brazilian';
import { translate } from '../../src/i18n';
import { ImportLineError, ImportProblemsError } from '../../src/import/import-error';
import { importFile, ImportSummary } from '../../src/import/importer';
import { SYSTEM_ACTOR } from '../../src/services/actor';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';

const FIXTURES = path.resolve(__dirname, '../fixtures/import');

let api: TestApi;
let producerId: string;

function run(kind: string, input: string | Buffer, opts: { delimiter?: string; locale?: Locale | null } = {}): Promise<ImportSummary> {
  return importFile(api.db.dataSource, SYSTEM_ACTOR, { kind, producerId, input: Readable.from([typeof input === 'string' ? Buffer.from(input) : input]), ...opts });
}

async function refused(kind: string, input: string | Buffer, opts: { delimiter?: string; locale?: Locale | null } = {}): Promise<ImportLineError | ImportProblemsError> {
  const error = await run(kind, input, opts).then(() => null, (e: unknown) => e);
  // A file refused as a whole (its header, its producer) or for its bad lines.
  expect([ImportLineError, ImportProblemsError]).toContain((error as object).constructor);
  return error as ImportLineError | ImportProblemsError;
}

const purchases = () => api.db.dataSource.query(
  `SELECT to_char(purchased_on, 'YYYY-MM-DD') AS purchased_on, to_char(consumed_on, 'YYYY-MM-DD') AS consumed_on, feedstock, quantity_kg::numeric(18,3)::text AS kg,
          cost::numeric(18,2)::text AS cost, supplier_kind, supplier_name, origin_municipality_code AS origin, external_id
     FROM purchase WHERE producer_id = $1 ORDER BY purchased_on, id`, [producerId]);

/** What the four lines of compras-pt-br.csv (and of its workbook) hold, read the Brazilian way. */
const EXPECTED = [
  { purchased_on: '2026-11-03', consumed_on: '2026-11-03', feedstock: 'SOYBEAN', kg: '12000.000', cost: '30120.50', supplier_kind: 'THIRD_PARTY', supplier_name: 'Cerealista Alfa Ltda.', origin: PORTO_ALEGRE, external_id: 'nf-000123-1' },
  { purchased_on: '2026-11-04', consumed_on: '2026-11-10', feedstock: 'SOYBEAN', kg: '1250.500', cost: '3126.25', supplier_kind: 'THIRD_PARTY', supplier_name: 'Armazém São João', origin: PORTO_ALEGRE, external_id: 'nf-000124-1' },
  { purchased_on: '2026-11-05', consumed_on: '2026-11-05', feedstock: 'CASTOR_BEAN', kg: '800.000', cost: '2400.00', supplier_kind: 'THIRD_PARTY', supplier_name: 'Comércio de Grãos Açaí', origin: RECIFE, external_id: 'nf-000125-1' },
  { purchased_on: '2026-11-06', consumed_on: '2026-11-06', feedstock: 'BEEF_TALLOW', kg: '2000.000', cost: null, supplier_kind: 'OWN_PRODUCTION', supplier_name: null, origin: PORTO_ALEGRE, external_id: null },
];

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE]);
  producerId = await createProducer(api, 'Usina Planilha');
});
afterAll(() => api?.close());
afterEach(() => api.db.dataSource.query('DELETE FROM purchase WHERE producer_id = $1', [producerId]));

describe('a purchases sheet saved by a Portuguese Excel as CSV', () => {
  const file = () => fs.readFileSync(path.join(FIXTURES, 'compras-pt-br.csv'));

  it('is read as it is: Windows-1252, ";", Portuguese headers and names, 30.120,50 and 03/11/2026, with no option', async () => {
    expect(file().includes(Buffer.from('São', 'utf8'))).toBe(false); // not UTF-8: "ã" is one byte
    const summary = await run('purchases', file());
    expect(summary).toMatchObject({ rows: 4, counts: { purchases: 4 }, format: 'csv', delimiter: ';', locale: 'pt-BR' });
    expect(await purchases()).toEqual(EXPECTED);
  });

  it('reads the same with the locale and separator given', async () => {
    await run('purchases', file(), { locale: 'pt-BR', delimiter: ';' });
    expect(await purchases()).toEqual(EXPECTED);
  });

  it('says which separator it used when the wrong one is forced', async () => {
    // Read with ",", the header is one column and line 2 ("R$ 30.120,50") two.
    const e = await refused('purchases', file(), { delimiter: ',' });
    expect(e.message).toBe('line 2: the line has 2 fields where the header has 1 (read with the separator ",", as asked; give delimiter to choose another)');
    expect(translate(e.text, 'pt-BR')).toBe('linha 2: a linha tem 2 campos e o cabeçalho 1 (lido com o separador ",", como pedido; informe delimiter para escolher outro)');
    const header = await refused('purchases', 'purchasedOn;feedstock;quantityKg\n', { delimiter: ',' });
    expect(header.message).toBe('line 1, column purchasedOn;feedstock;quantityKg: unknown column; the columns of a purchases file are purchasedOn, consumedOn, feedstock, quantityKg, '
      + 'cost, supplierKind, familyFarmerId, organizationId, supplierName, originMunicipalityCode, contractId, purpose, externalId, invoiceKey, invoiceItem, supplierDocument, '
      + 'pisCofinsCst, cofinsCst, creditSupplier, creditProduct, icmsValue, importPisPaid, importCofinsPaid, creditRevenueGroup, cbsValue (read with the separator ",", as asked; give delimiter to choose another)');
  });

  it('refuses English numbers in a Brazilian file, naming the line, the column as written and why the file is Brazilian', async () => {
    const text = file().toString('latin1').replace('1.250,5', '1250.5');
    const e = await refused('purchases', Buffer.from(text, 'latin1'));
    expect([e.line, e.column, e.header]).toEqual([3, 'quantityKg', 'Quantidade (kg)']);
    expect(e.message).toBe('line 3, column quantityKg ("Quantidade (kg)"): "1250.5" is written in en notation, but the file is read as pt-BR (from its Portuguese header)');
    expect(translate(e.text, 'pt-BR')).toBe('linha 3, coluna "Quantidade (kg)" (quantityKg): "1250.5" está escrito na notação en, mas o arquivo é lido como pt-BR (pelo cabeçalho em português)');
    expect(await purchases()).toEqual([]);
  });

  it('lists the accepted names of an unknown enumeration value, in Portuguese for a Brazilian file', async () => {
    const e = await refused('purchases', Buffer.from(file().toString('latin1').replace('Mamona', 'Café'), 'latin1'));
    expect([e.line, e.column]).toEqual([4, 'feedstock']);
    expect(translate(e.text, 'pt-BR')).toBe('linha 4, coluna "Matéria-prima" (feedstock): Feedstock desconhecido "Café"; aceitos: SOJA (SOYBEAN), MAMONA (CASTOR_BEAN), PALMA (PALM), '
      + 'ALGODAO (COTTONSEED), GIRASSOL (SUNFLOWER), CANOLA (CANOLA), AMENDOIM (PEANUT), MACAÚBA (MACAUBA), SEBO_BOVINO (BEEF_TALLOW), ÓLEO_DE_FRITURA (USED_COOKING_OIL), ÓLEO_DE_SOJA (SOYBEAN_OIL), ANIMAIS_VIVOS (LIVE_ANIMALS), OUTRO (OTHER)');
  });

  it('refuses a day that does not exist, in the notation of the file', async () => {
    const e = await refused('purchases', Buffer.from(file().toString('latin1').replace('05/11/2026', '31/11/2026'), 'latin1'));
    expect(translate(e.text, 'pt-BR')).toBe('linha 4, coluna "Data da compra" (purchasedOn): deve ser uma data real de 0001-01-01 a 9999-12-31 escrita como 03/11/2026; recebido "31/11/2026"');
  });
});

describe('the same sheet saved as an .xlsx workbook (LibreOffice Calc, pt-BR)', () => {
  const file = () => fs.readFileSync(path.join(FIXTURES, 'compras-pt-br.xlsx'));

  it('is read from its typed cells: dates, numbers, currency, Portuguese names', async () => {
    const summary = await run('purchases', file());
    expect(summary).toMatchObject({ rows: 4, counts: { purchases: 4 }, format: 'xlsx', delimiter: null, locale: 'pt-BR' });
    expect(await purchases()).toEqual(EXPECTED);
  });

  it('names the sheet row and column of a bad cell, and reads text cells in the file\'s locale', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Compras');
    sheet.addRow(['Data da compra', 'Matéria-prima', 'Quantidade (kg)', 'Custo (R$)', 'Tipo de fornecedor', 'Fornecedor', 'Município de origem']);
    sheet.addRow([new Date(Date.UTC(2026, 10, 3)), 'Soja', 1000, 2500.5, 'Terceiro', 'A', Number(RECIFE)]);
    sheet.addRow(['04/11/2026', 'Soja', '1.000,25', '2.500,75', 'Terceiro', 'B', RECIFE]);
    sheet.addRow([new Date(Date.UTC(2026, 10, 5)), 'Soja', -3, 10, 'Terceiro', 'C', RECIFE]);
    const bad = Buffer.from(await workbook.xlsx.writeBuffer());
    const e = await refused('purchases', bad);
    expect([e.line, e.column]).toEqual([4, 'quantityKg']);
    expect(e.message).toBe('line 4, column quantityKg ("Quantidade (kg)"): must be greater than zero');
    expect(translate(e.text, 'pt-BR')).toBe('linha 4, coluna "Quantidade (kg)" (quantityKg): deve ser maior que zero');
    expect(await purchases()).toEqual([]);
    sheet.getRow(4).getCell(3).value = 3;
    await run('purchases', Buffer.from(await workbook.xlsx.writeBuffer()));
    expect((await purchases()).map((p: { purchased_on: string; kg: string; cost: string }) => [p.purchased_on, p.kg, p.cost]))
      .toEqual([['2026-11-03', '1000.000', '2500.50'], ['2026-11-04', '1000.250', '2500.75'], ['2026-11-05', '3.000', '10.00']]);
  });
});

describe('the locale of a file with English headers', () => {
  const header = 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode';

  it('is taken from the first cell only one locale reads', async () => {
    const s = await run('purchases', `${header}\n2026-11-03,SOYBEAN,1000,"2.500,75",THIRD_PARTY,A,${RECIFE}\n03/11/2026,SOJA,"1.000,5",100,TERCEIRO,B,${RECIFE}\n`);
    expect(s.locale).toBe('pt-BR');
    expect((await purchases()).map((p: { kg: string; cost: string }) => [p.kg, p.cost])).toEqual([['1000.000', '2500.75'], ['1000.500', '100.00']]);
  });

  it('stays the API\'s own (en) for files written that way', async () => {
    const s = await run('purchases', `${header}\n2026-11-03,SOYBEAN,1000.5,2500,THIRD_PARTY,A,${RECIFE}\n`);
    expect([s.locale, s.delimiter]).toEqual(['en', ',']);
  });

  it('refuses a number that reads differently in each locale rather than guess (12.500 is 12500 or 12.5)', async () => {
    const e = await refused('purchases', `${header}\n2026-11-03,SOYBEAN,12.500,2500,THIRD_PARTY,A,${RECIFE}\n`);
    expect(e.message).toBe('line 2, column quantityKg: "12.500" reads 12500 in Brazilian notation (pt-BR) and 12.500 in the API\'s (en): give the file\'s locale (locale pt-BR or en)');
    expect((await run('purchases', `${header}\n2026-11-03,SOYBEAN,12.500,2500,THIRD_PARTY,A,${RECIFE}\n`, { locale: 'pt-BR' })).rows).toBe(1);
    expect((await purchases())[0].kg).toBe('12500.000');
  });

  it('refuses a Brazilian date in a file the API\'s numbers decided is en, saying where it decided', async () => {
    const e = await refused('purchases', `${header}\n2026-11-03,SOYBEAN,10.5,2500,THIRD_PARTY,A,${RECIFE}\n03/11/2026,SOYBEAN,10,25,THIRD_PARTY,A,${RECIFE}\n`);
    expect(e.message).toBe('line 3, column purchasedOn: "03/11/2026" is written in pt-BR notation, but the file is read as en (from "10.5" at line 2, column quantityKg)');
  });
});

describe('sales in Portuguese', () => {
  it('reads Mercado, Origem and Volume (m³) by their Portuguese names', async () => {
    const s = await run('sales', 'Data da venda;Volume (m³);Receita bruta;Origem;Mercado\n10/11/2026;45,5;262.000,00;Produção própria;Mercado interno\n12/11/2026;5;30.000;Importado;Exportação\n');
    expect(s).toMatchObject({ rows: 2, locale: 'pt-BR', delimiter: ';' });
    const rows = await api.db.dataSource.query(`SELECT to_char(sold_on, 'YYYY-MM-DD') AS d, volume_m3::numeric(18,3)::text AS v, revenue::numeric(18,2)::text AS r, origin, market FROM sale WHERE producer_id = $1 ORDER BY sold_on`, [producerId]);
    expect(rows).toEqual([
      { d: '2026-11-10', v: '45.500', r: '262000.00', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
      { d: '2026-11-12', v: '5.000', r: '30000.00', origin: 'IMPORTED', market: 'EXPORT' },
    ]);
  });
});

describe('over HTTP, as browsers and partners send files', () => {
  const url = () => `${api.url.replace(/\/graphql$/, '')}/import/purchases?producer=${producerId}`;
  const post = async (body: FormData | Buffer, headers: Record<string, string>, query = ''): Promise<{ status: number; body: any }> => {
    const res = await fetch(url() + query, { method: 'POST', headers: { authorization: `Bearer ${await api.token({ role: 'PRODUCER', producerId })}`, ...headers }, body });
    return { status: res.status, body: await res.json() };
  };

  it('takes a multipart/form-data upload (field "file") of the pt-BR CSV, its separator and locale detected', async () => {
    const form = new FormData();
    form.append('note', 'compras de novembro');
    form.append('file', new Blob([fs.readFileSync(path.join(FIXTURES, 'compras-pt-br.csv'))], { type: 'application/vnd.ms-excel' }), 'compras-pt-br.csv');
    const res = await post(form, {});
    expect(res.status).toBe(200);
    expect(res.body.import).toMatchObject({ rows: 4, format: 'csv', delimiter: ';', locale: 'pt-BR' });
    expect(await purchases()).toEqual(EXPECTED);
  });

  it('takes the workbook in a form, and a form without the field says so', async () => {
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(path.join(FIXTURES, 'compras-pt-br.xlsx'))], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'compras.xlsx');
    const res = await post(form, {});
    expect([res.status, res.body.import?.format]).toEqual([200, 'xlsx']);
    expect(await purchases()).toEqual(EXPECTED);
    const empty = new FormData();
    empty.append('other', 'x');
    const none = await post(empty, {});
    expect([none.status, none.body.error.field]).toEqual([400, 'file']);
  });

  it('takes the CSV content types Windows browsers send, detects ";" and answers in Portuguese for Accept-Language pt-BR', async () => {
    const body = fs.readFileSync(path.join(FIXTURES, 'compras-pt-br.csv'));
    const ok = await post(body, { 'content-type': 'application/vnd.ms-excel' });
    expect([ok.status, ok.body.import?.delimiter]).toEqual([200, ';']);
    await api.db.dataSource.query('DELETE FROM purchase WHERE producer_id = $1', [producerId]);
    const bad = Buffer.from(body.toString('latin1').replace('12.000', '-12.000'), 'latin1');
    const refusedPt = await post(bad, { 'content-type': 'text/plain', 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' });
    expect(refusedPt.status).toBe(400);
    expect(refusedPt.body.error).toMatchObject({ code: 'BAD_USER_INPUT', line: 2, column: 'quantityKg' });
    expect(refusedPt.body.error.message).toMatch(/^linha 2, coluna "Quantidade \(kg\)" \(quantityKg\): /);
    const wrong = await post(body, { 'content-type': 'text/csv' }, '&delimiter=,');
    expect(wrong.body.error).toMatchObject({ line: 2, messageKey: 'import.separatorUsed', message: 'line 2: the line has 2 fields where the header has 1 (read with the separator ",", as asked; give delimiter to choose another)' });
    expect(await purchases()).toEqual([]);
  });
});
