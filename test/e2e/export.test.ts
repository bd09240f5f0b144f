import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { message, translate } from '../../src/i18n';
import { Decimal } from '../../src/law/decimal';
import { stringify } from 'csv-stringify/sync';
import { toCsv } from '../../src/export/csv';
import { neutralised, restored, workbookText } from '../../src/formats/formula-text';
import type { ExportDocument } from '../../src/export/document';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, FEIRA, newCpf, nfeKey, PORTO_ALEGRE, upsertMunicipalities } from '../support/fixtures';
import { importFile } from '../../src/import/importer';
import { SYSTEM_ACTOR } from '../../src/services/actor';
import { pdfText } from '../support/pdf-text';
import { efdProblems } from '../support/efd-layout';

/**
 * The exports give the API's figures as files (CSV as Brazilian Excel opens it, XLSX, PDF, the
 * EFD-Contribuições draft): parsed back, every figure equals the GraphQL answer to the centavo.
 *
 * The month: April 2026 of a producer under the special regime (Lei 11.116/2005, art. 4º), cut by
 * the zero window (Decreto 10.527/2020, art. 5º §§2º–4º) into 1–6 April and 7–30 April. Raw material
 * used: castor bought from a third party in Feira de Santana (Semiárido: CASTOR_PALM_PRIORITY_REGION,
 * art. 6º I) for R$ 1.000 and soybean from Porto Alegre (GENERAL) for R$ 2.000: shares 1/3 and 2/3.
 */

let api: TestApi;
let producer: string;
let other: string;

const MONTH = `query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 4) {
  status regime pisDue cofinsDue totalDue domesticVolumeM3 importedVolumeM3 exportedVolumeM3 feedstockCost
  segments { from to pisDue cofinsDue ownProductionVolumeM3 importedVolumeM3 exportedVolumeM3 domesticRevenue blendedPisPerM3 blendedCofinsPerM3 legalBasis
             mix { category cost share pisPerM3 cofinsPerM3 legalBasis } }
  warnings { code } } }`;

async function get(path: string, as: { role: 'ADMIN' | 'AUDITOR' | 'PRODUCER'; producerId?: string } | null = { role: 'PRODUCER' }, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { ...headers };
  if (as) h.authorization = `Bearer ${await api.token(as.role === 'PRODUCER' ? { role: 'PRODUCER', producerId: as.producerId ?? producer } : { role: as.role })}`;
  const res = await fetch(api.url.replace('/graphql', path), { headers: h });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** The sections of an exported CSV: title line, header, rows, until a blank line. */
function csvSections(body: Buffer, delimiter = ';'): Map<string, string[][]> {
  expect(body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])); // UTF-8 byte-order mark
  const rows: string[][] = parse(body, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: false });
  const sections = new Map<string, string[][]>();
  let i = rows.findIndex((r) => r.length === 1 && r[0] === '') + 1;
  while (i < rows.length) {
    const title = rows[i][0];
    const table: string[][] = [];
    for (i++; i < rows.length && !(rows[i].length === 1 && rows[i][0] === ''); i++) table.push(rows[i]);
    sections.set(title, table);
    i++;
  }
  return sections;
}

/** Brazilian number text → the API's decimal text. */
/** The columns of a page of purchases after externalId: the note and the facts of the credits. */
const NOTE_AND_CREDIT = ['Chave da NF-e', 'Item da NF-e', 'CNPJ/CPF do fornecedor', 'CST PIS/Cofins', 'Fornecedor para o crédito', 'Produto para o crédito', 'Valor do ICMS',
  'PIS importação pago', 'Cofins importação paga', 'Receita do crédito', 'Valor da CBS'];
const br = (text: string) => new Decimal(text.replace(',', '.'));
const fields = (table: string[][]) => new Map(table.slice(1).map(([k, v]) => [k, v]));

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [FEIRA, PORTO_ALEGRE]);
  producer = await createProducer(api, 'Usina Exportadora', FEIRA);
  other = await createProducer(api, 'Usina Vizinha', FEIRA);
  await electSpecialRegime(api, producer);
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    { producerId: producer, purchasedOn: '2026-04-01', feedstock: 'CASTOR_BEAN', quantityKg: '1000', cost: '1000', supplierKind: 'THIRD_PARTY', supplierName: '=HYPERLINK("http://x")', originMunicipalityCode: FEIRA },
    { producerId: producer, purchasedOn: '2026-04-01', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2000', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista Sul', originMunicipalityCode: PORTO_ALEGRE },
  ] });
  const sale = (soldOn: string, volumeM3: string, revenue: string, origin = 'OWN_PRODUCTION', market = 'DOMESTIC') => ({ producerId: producer, soldOn, volumeM3, revenue, origin, market });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [
    sale('2026-04-02', '80.5', '450000'), sale('2026-04-03', '20.2', '113000.55'), sale('2026-04-04', '5', '28000', 'IMPORTED'),
    sale('2026-04-20', '50', '280000'), sale('2026-04-21', '3', '17000', 'OWN_PRODUCTION', 'EXPORT'),
  ] });
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 4) { status } }`, { p: producer });
});
afterAll(() => api?.close());

describe('a month of PIS/Cofins', () => {
  it('as CSV: ";", decimal commas, BOM, every figure equal to the GraphQL answer to the centavo', async () => {
    const month = (await api.ok(MONTH, { p: producer })).taxPeriod;
    // 1–6 April: PIS 100,7 × (1.000 × 22,48 + 2.000 × 26,41) / 3.000 + 5 × 26,41 = 2.527,57 + 132,05 = 2.659,62;
    // Cofins 100,7 × (1.000 × 103,51 + 2.000 × 121,59) / 3.000 + 5 × 121,59 = 11.637,2277 + 607,95 → 12.245,18. 7–30 April: zero.
    expect([month.status, month.pisDue, month.cofinsDue, month.segments.length]).toEqual(['CLOSED', '2659.62', '12245.18', 2]);
    const res = await get(`/export/tax-period?producer=${producer}&year=2026&month=4&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(`pis-cofins-2026-04-producer-${producer}.csv`);
    const sections = csvSections(res.body);
    const summary = fields(sections.get('O mês')!);
    expect(summary.get('PIS/Pasep devido (R$)')).toBe('2659,62');
    expect(summary.get('Cofins devida (R$)')).toBe('12245,18');
    expect(summary.get('Total devido (R$)')).toBe('14904,80');
    expect(summary.get('Situação')).toBe('CLOSED');
    for (const [key, label] of [['pisDue', 'PIS/Pasep devido (R$)'], ['cofinsDue', 'Cofins devida (R$)'], ['totalDue', 'Total devido (R$)'], ['feedstockCost', 'Matéria-prima utilizada: custo valorado (R$)'],
      ['domesticVolumeM3', 'Biodiesel próprio vendido no mercado interno (m³)'], ['importedVolumeM3', 'Biodiesel importado vendido no mercado interno (m³)'], ['exportedVolumeM3', 'Biodiesel exportado (m³)']]) {
      expect(br(summary.get(label)!).eq(month[key])).toBe(true);
    }
    // m³ with 3 decimals whatever their scale: 150,7 m³ is written 150,700.
    expect(summary.get('Biodiesel próprio vendido no mercado interno (m³)')).toBe('150,700');
    const segments = sections.get('Segmentos')!;
    expect(segments[0].slice(0, 2)).toEqual(['De', 'Até']);
    const col = (name: string) => segments[0].indexOf(name);
    month.segments.forEach((s: Record<string, string>, i: number) => {
      const row = segments[i + 1];
      expect(row[col('De')]).toBe(`${s.from.slice(8)}/${s.from.slice(5, 7)}/${s.from.slice(0, 4)}`);
      expect(br(row[col('PIS/Pasep devido (R$)')]).eq(s.pisDue)).toBe(true);
      expect(br(row[col('Cofins devida (R$)')]).eq(s.cofinsDue)).toBe(true);
      expect(br(row[col('Volume próprio, mercado interno (m³)')]).eq(s.ownProductionVolumeM3)).toBe(true);
      expect(br(row[col('Receita no mercado interno (R$)')]).eq(s.domesticRevenue)).toBe(true);
      expect(row[col('Fundamento legal')]).toBe(s.legalBasis);
    });
    const mix = sections.get('Composição por categoria (Decreto 10.527/2020, art. 6º §3º)')!;
    const flat = month.segments.flatMap((s: { mix: Array<Record<string, string>> }) => s.mix);
    expect(mix.length - 1).toBe(flat.length);
    flat.forEach((m: Record<string, string>, i: number) => {
      const row = mix[i + 1];
      expect(row[2]).toBe(m.category);
      expect(br(row[mix[0].indexOf('Participação')]).eq(m.share)).toBe(true);
      expect(br(row[mix[0].indexOf('PIS/Pasep (R$/m³)')]).eq(m.pisPerM3)).toBe(true);
    });
    expect(mix[1][mix[0].indexOf('Participação')]).toBe('0,333333');
    // The findings in the file's language, their codes unchanged.
    const findings = sections.get('Constatações')!;
    expect(findings.slice(1).map((r) => r[0])).toEqual(month.warnings.map((w: { code: string }) => w.code));
    expect(findings.find((r) => r[0] === 'IMPORTED_BIODIESEL')![1]).toBe(translate(message('finding.IMPORTED_BIODIESEL'), 'pt-BR'));
  });

  it('as XLSX: numbers as numbers with their decimals, the same figures', async () => {
    const month = (await api.ok(MONTH, { p: producer })).taxPeriod;
    const res = await get(`/export/tax-period?producer=${producer}&year=2026&month=4&format=xlsx&locale=en`, { role: 'AUDITOR' });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as unknown as ArrayBuffer);
    const summary = wb.getWorksheet('The month')!;
    const byLabel = new Map<string, ExcelJS.Cell>();
    summary.eachRow((row) => byLabel.set(String(row.getCell(1).value), row.getCell(2)));
    const pis = byLabel.get('PIS/Pasep due (R$)')!;
    expect(typeof pis.value).toBe('number');
    expect(pis.numFmt).toBe('#,##0.00');
    expect(new Decimal(pis.value as number).toFixed(2)).toBe(new Decimal(month.pisDue).toFixed(2));
    expect(new Decimal(byLabel.get('Cofins due (R$)')!.value as number).toFixed(2)).toBe(new Decimal(month.cofinsDue).toFixed(2));
    expect(byLabel.get('Own biodiesel sold, domestic market (m³)')!.numFmt).toBe('#,##0.000');
    const segments = wb.getWorksheet('Segments')!;
    const header = (segments.getRow(1).values as string[]);
    month.segments.forEach((s: Record<string, string>, i: number) => {
      const row = segments.getRow(i + 2);
      expect((row.getCell(header.indexOf('From')).value as Date).toISOString().slice(0, 10)).toBe(s.from);
      expect(new Decimal(row.getCell(header.indexOf('PIS/Pasep due (R$)')).value as number).toFixed(2)).toBe(new Decimal(s.pisDue).toFixed(2));
      expect(new Decimal(row.getCell(header.indexOf('Cofins due (R$)')).value as number).toFixed(2)).toBe(new Decimal(s.cofinsDue).toFixed(2));
    });
  });

  it('as a PDF statement whose text holds the dues, the segments and the legal bases', async () => {
    const res = await get(`/export/tax-period?producer=${producer}&year=2026&month=4&format=pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.body.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await pdfText(res.body)).replace(/\s+/g, ' ');
    expect(text).toContain('PIS/Pasep e Cofins sobre biodiesel — 04/2026');
    expect(text).toContain('Usina Exportadora');
    expect(text).toMatch(/PIS\/Pasep devido \(R\$\) 2659,62/);
    expect(text).toMatch(/Cofins devida \(R\$\) 12245,18/);
    expect(text).toContain('Mês fechado');
    expect(text).toContain('Lei 11.116/2005');
    expect(text).toContain('Decreto 10.527/2020, art. 6º §3º');
    expect(text).toContain('CASTOR_PALM_PRIORITY_REGION');
    expect(text).toContain('07/04/2026');
  });

  it('is scoped like the API: another producer NOT_FOUND, no token UNAUTHENTICATED, bad parameters BAD_USER_INPUT', async () => {
    const foreign = await get(`/export/tax-period?producer=${producer}&year=2026&month=4`, { role: 'PRODUCER', producerId: other });
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.body.toString()).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get(`/export/tax-period?producer=${producer}&year=2026&month=4`, null)).status).toBe(401);
    const bad = await get(`/export/tax-period?producer=${producer}&year=2026&month=13`);
    expect([bad.status, JSON.parse(bad.body.toString()).error.code]).toEqual([400, 'BAD_USER_INPUT']);
    const twice = await get(`/export/tax-period?producer=${producer}&producer=${other}&year=2026&month=4`, { role: 'ADMIN' });
    expect(JSON.parse(twice.body.toString()).error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'producer' });
    const format = await get(`/export/tax-period?producer=${producer}&year=2026&month=4&format=docx`);
    expect(JSON.parse(format.body.toString()).error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'format' });
    const long = await get(`/export/tax-period?producer=${producer}&year=20260&month=4`);
    expect(JSON.parse(long.body.toString()).error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'year', message: 'year must be a whole number of up to 4 digits' });
  });
});

describe('a month with imports, and a month of the CBS (the sections of the GraphQL answer)', () => {
  let importer: string;
  const TP = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: $k) {
    totalDue imports { volumeM3 pisDue cofinsDue totalDue imports { declarationNumber clearedOn volumeM3 pisPerM3 cofinsPerM3 pisDue cofinsDue legalBasis } }
    fuelTaxes { tax status ownProductionVolumeM3 importedVolumeM3 volumeM3 ratePerM3 due legalBasis segments { from to status volumeM3 ratePerM3 due legalBasis } } } }`;
  beforeAll(async () => {
    importer = await createProducer(api, 'Usina Importadora', PORTO_ALEGRE);
    await api.ok(`mutation($i: [RecordImportInput!]!) { recordImports(input: $i) { id } }`, { i: [
      { producerId: importer, clearedOn: '2026-09-10', volumeM3: '33.333', declarationNumber: '26/0912345-6' },
      { producerId: importer, clearedOn: '2027-01-15', volumeM3: '4', declarationNumber: '27/0000001-1' },
    ] });
    await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [
      { producerId: importer, soldOn: '2027-01-10', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
    ] });
  });
  const exported = (year: number, month: number, format: string, locale: string, asKnownOn = '') =>
    get(`/export/tax-period?producer=${importer}&year=${year}&month=${month}&format=${format}&locale=${locale}${asKnownOn ? `&asKnownOn=${asKnownOn}` : ''}`, { role: 'ADMIN' });

  it('September 2026: each import with its PIS/Cofins-Importação, 33,333 × 26,41 = 880,32 and × 121,59 = 4.052,96 (Decreto 10.527/2020, art. 5º §1º)', async () => {
    const month = (await api.ok(TP, { p: importer, y: 2026, m: 9, k: null })).taxPeriod;
    expect([month.totalDue, month.imports.pisDue, month.imports.cofinsDue, month.imports.totalDue]).toEqual(['0.00', '880.32', '4052.96', '4933.28']);
    const sections = csvSections((await exported(2026, 9, 'csv', 'pt-BR')).body);
    const summary = fields(sections.get('O mês')!);
    expect(summary.get('Total devido (R$)')).toBe('0,00'); // the domestic sales'; the imports apart (docs/LAW.md)
    expect(summary.get('Biodiesel importado, desembaraçado no mês (m³)')).toBe('33,333');
    expect(summary.get('PIS/Pasep-Importação devido (R$)')).toBe('880,32');
    expect(summary.get('Cofins-Importação devida (R$)')).toBe('4052,96');
    expect(summary.get('Total devido nas importações (R$)')).toBe('4933,28');
    const imports = sections.get('Importações: PIS/Pasep-Importação e Cofins-Importação (Decreto 10.527/2020, art. 5º §1º)')!;
    expect(imports[0]).toEqual(['Declaração (DI/DUIMP)', 'Desembaraço', 'Volume (m³)', 'PIS/Pasep-Importação (R$/m³)', 'Cofins-Importação (R$/m³)',
      'PIS/Pasep-Importação devido (R$)', 'Cofins-Importação devida (R$)', 'Fundamento legal']);
    const line = month.imports.imports[0];
    expect(imports.slice(1)).toEqual([['26/0912345-6', '10/09/2026', '33,333', '26,41', '121,59', '880,32', '4052,96', line.legalBasis]]);
    expect(sections.has('Tributos monofásicos sobre combustíveis (Lei Complementar 214/2025, arts. 172–175)')).toBe(false);
    // In English, and as a PDF statement whose text holds the same figures.
    const en = csvSections((await exported(2026, 9, 'csv', 'en')).body, ',');
    expect(fields(en.get('The month')!).get('PIS/Pasep-Importação due (R$)')).toBe('880.32');
    const pdf = await exported(2026, 9, 'pdf', 'pt-BR');
    const text = (await pdfText(pdf.body)).replace(/\s+/g, ' ');
    expect(text).toContain('PIS/Pasep e Cofins sobre biodiesel — 09/2026');
    expect(text).toContain('Lei 11.116/2005, arts. 3º–5º; Decreto 10.527/2020, arts. 5º–6º.');
    expect(text).toContain('PIS/Pasep-Importação devido (R$) 880,32');
    expect(text).toContain('Cofins-Importação devida (R$) 4052,96');
    expect(text).toContain('26/0912345-6 10/09/2026 33,333 26,41 121,59 880,32 4052,96');
    const xlsx = new ExcelJS.Workbook();
    await xlsx.xlsx.load((await exported(2026, 9, 'xlsx', 'en')).body as unknown as ArrayBuffer);
    const sheet = xlsx.worksheets.find((w) => w.name.startsWith('Imports'))!;
    expect(new Decimal(sheet.getRow(2).getCell(6).value as number).toFixed(2)).toBe('880.32');
  });

  it('January 2027: the CBS (LC 214/2025) with its volumes, "not determinable" while no rate is published, then its rate and amount', async () => {
    const none = (await api.ok(TP, { p: importer, y: 2027, m: 1, k: '2026-12-19' })).taxPeriod;
    expect(none.fuelTaxes[0]).toMatchObject({ tax: 'CBS', status: 'RATE_NOT_PUBLISHED', ownProductionVolumeM3: '10.000', importedVolumeM3: '4.000', volumeM3: '14.000', due: null });
    const sections = csvSections((await exported(2027, 1, 'csv', 'pt-BR', '2026-12-19')).body);
    const taxes = sections.get('Tributos monofásicos sobre combustíveis (Lei Complementar 214/2025, arts. 172–175)')!;
    const at = (name: string) => taxes[0].indexOf(name);
    expect(taxes.slice(1).map((r) => [r[at('Tributo')], r[at('Situação')], r[at('Produção própria vendida no mercado interno (m³)')], r[at('Importado, desembaraçado (m³)')],
      r[at('Base (m³)')], r[at('Alíquota (R$/m³)')], r[at('Valor (R$)')]])).toEqual([['CBS', 'RATE_NOT_PUBLISHED', '10,000', '4,000', '14,000', '', '']]);
    expect(taxes[1][at('Valor não determinável porque')]).toContain('nenhuma alíquota por m³ está publicada para estes dias, conforme conhecido em 2026-12-19');
    expect(taxes[1][at('Fundamento legal')]).toBe(none.fuelTaxes[0].legalBasis);
    const runs = sections.get('Tributos monofásicos: períodos com uma alíquota')!;
    expect(runs.slice(1).map((r) => r.slice(0, 4))).toEqual([['CBS', '01/01/2027', '31/01/2027', 'RATE_NOT_PUBLISHED']]);
    // The imports of 2027 owe no PIS/Cofins-Importação (EC 132/2023): listed with 0,00.
    expect(fields(sections.get('O mês')!).get('Total devido nas importações (R$)')).toBe('0,00');
    const pdfNone = (await pdfText((await exported(2027, 1, 'pdf', 'en', '2026-12-19')).body)).replace(/\s+/g, ' ');
    expect(pdfNone).toContain('CBS on biodiesel — 2027-01');
    expect(pdfNone).toContain('EC 132/2023, ADCT art. 126 (PIS/Pasep and Cofins extinct); Lei Complementar 214/2025, arts. 172–175.');
    expect(pdfNone).not.toContain('Decreto 10.527/2020, arts. 5º–6º');
    expect(pdfNone).toContain('CBS RATE_NOT_PUBLISHED 10.000 4.000 14.000');
    expect(pdfNone).toContain('no rate per m³ is published for these days as known on 2026-12-19');

    await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
      parameter: 'fuel-tax-rate', scope: 'CBS', values: [{ name: 'perM3', value: '187.4567' }], validFrom: '2027-01-01',
      publishedOn: '2026-12-20', legalBasis: 'Decreto hipotético nº 1/2026, art. 1º (CBS on biodiesel B100, per m³)',
    } });
    // 14 × 187,4567 = 2.624,3938 → 2.624,39.
    const after = (await api.ok(TP, { p: importer, y: 2027, m: 1, k: '2026-12-20' })).taxPeriod;
    expect(after.fuelTaxes[0]).toMatchObject({ status: 'COMPUTED', ratePerM3: '187.4567', due: '2624.39' });
    const computed = csvSections((await exported(2027, 1, 'csv', 'en', '2026-12-20')).body, ',').get('Single-phase taxes on fuels (Lei Complementar 214/2025, arts. 172–175)')!;
    const col = (name: string) => computed[0].indexOf(name);
    expect([computed[1][col('Status')], computed[1][col('Base (m³)')], computed[1][col('Rate (R$/m³)')], computed[1][col('Amount (R$)')], computed[1][col('Amount not determinable because')]])
      .toEqual(['COMPUTED', '14.000', '187.4567', '2624.39', '']);
    expect(computed[1][col('Legal basis')]).toContain('rate: Decreto hipotético nº 1/2026');
    const pdfAfter = (await pdfText((await exported(2027, 1, 'pdf', 'pt-BR', '2026-12-20')).body)).replace(/\s+/g, ' ');
    expect(pdfAfter).toContain('CBS sobre biodiesel — 01/2027');
    expect(pdfAfter).toContain('CBS COMPUTED 10,000 4,000 14,000 187,4567 2624,39');
  });
});

describe('a page of purchases', () => {
  it('equals the API\'s page, cursor in the headers, and a cell that would be a formula is neutralised', async () => {
    const api1 = (await api.ok(`query($p: ID!) { producer(id: $p) { purchases(first: 1) { edges { node { id quantityKg cost supplierName } } pageInfo { endCursor hasNextPage } } } }`, { p: producer })).producer.purchases;
    const res = await get(`/export/purchases?producer=${producer}&first=1&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-page-has-next-page')).toBe('true');
    expect(res.headers.get('x-page-end-cursor')).toBe(api1.pageInfo.endCursor);
    const rows = csvSections(res.body).get('Compras')!;
    expect(rows[0]).toEqual(['Id', 'Data da compra', 'Data de consumo', 'Matéria-prima', 'Quantidade (kg)', 'Custo (R$)', 'Tipo de fornecedor', 'Id do agricultor',
      'Id da organização', 'Nome do fornecedor', 'Município de origem', 'Id do contrato', 'Finalidade', 'Id externo', ...NOTE_AND_CREDIT]);
    expect(rows[1]).toEqual([api1.edges[0].node.id, '01/04/2026', '01/04/2026', 'CASTOR_BEAN', '1000,000', '1000,00', 'THIRD_PARTY', '', '', '\'=HYPERLINK("http://x")', FEIRA, '', 'BIODIESEL_FEEDSTOCK', '',
      ...NOTE_AND_CREDIT.map(() => '')]);
    const next = await get(`/export/purchases?producer=${producer}&first=1&after=${encodeURIComponent(api1.pageInfo.endCursor)}&format=csv`);
    expect(csvSections(next.body).get('Compras')![1][9]).toBe('Cerealista Sul');
    expect(next.headers.get('x-page-has-next-page')).toBe('false');
  });

  it('carries the note and the facts of the credits in the files, not on the printed page, and its table imports back as the same purchase', async () => {
    const lot = {
      producerId: other, purchasedOn: '2026-05-04', feedstock: 'SOYBEAN_OIL', quantityKg: '1000.5', cost: '10000.5', supplierKind: 'THIRD_PARTY', supplierName: 'Esmagadora Sul',
      originMunicipalityCode: PORTO_ALEGRE, externalId: 'nf-77-3', invoiceKey: nfeKey('11444777000161', 77, '2605'), invoiceItem: 3, supplierDocument: '11444777000161',
      pisCofinsCst: '50', creditSupplier: 'COMPANY', creditProduct: 'VEGETABLE_OIL', icmsValue: '1200', creditRevenueGroup: 'TAXED_DOMESTIC', cbsValue: '90.04',
    };
    await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [lot] });
    const as = { role: 'PRODUCER' as const, producerId: other };
    const table = csvSections((await get(`/export/purchases?producer=${other}&format=csv`, as)).body).get('Compras')!;
    expect(table).toHaveLength(2);
    const cell = (name: string) => table[1][table[0].indexOf(name)];
    expect(NOTE_AND_CREDIT.map(cell)).toEqual([lot.invoiceKey, '3', '11444777000161', '50', 'COMPANY', 'VEGETABLE_OIL', '1200,00', '', '', 'TAXED_DOMESTIC', '90,04']);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await get(`/export/purchases?producer=${other}&format=xlsx&locale=en`, as)).body as unknown as ArrayBuffer);
    const sheet = wb.worksheets.find((w) => w.getColumn(1).values.includes('id'))!;
    const header = (sheet.getRow(sheet.getColumn(1).values.indexOf('id')).values as unknown[]).slice(1);
    expect(header.slice(-11)).toEqual(['invoiceKey', 'invoiceItem', 'supplierDocument', 'pisCofinsCst', 'creditSupplier', 'creditProduct', 'icmsValue', 'importPisPaid',
      'importCofinsPaid', 'creditRevenueGroup', 'cbsValue']);
    const pdf = (await pdfText((await get(`/export/purchases?producer=${other}&format=pdf`, as)).body)).replace(/\s+/g, ' ');
    expect(pdf).toContain('Esmagadora Sul');
    expect(pdf).not.toContain('Chave da NF-e');

    // The table without its id column, as a purchases file of another producer: every fact read back.
    const mirror = await createProducer(api, 'Usina Espelho', FEIRA);
    const file = table.map((row) => row.slice(1).join(';')).join('\r\n');
    await importFile(api.db.dataSource, SYSTEM_ACTOR, { kind: 'purchases', producerId: mirror, input: Readable.from([Buffer.from(file)]) });
    const stored = (p: string) => api.db.dataSource.query(
      `SELECT purchased_on::text, consumed_on::text, feedstock, quantity_kg::text, cost::text, supplier_kind, supplier_name, origin_municipality_code, purpose, external_id, invoice_key,
              invoice_item, supplier_document, pis_cofins_cst, credit_supplier, credit_product, icms_value::text, import_pis_paid::text, import_cofins_paid::text,
              credit_revenue_group, cbs_value::text FROM purchase WHERE producer_id = $1`, [p]);
    const [original] = await stored(other);
    const [imported] = await stored(mirror);
    // Money is written with its 2 decimals: the figures are equal, their text keeps the file's scale.
    for (const k of ['cost', 'icms_value', 'cbs_value']) expect(new Decimal(imported[k]).eq(original[k])).toBe(true);
    expect({ ...imported, cost: 0, icms_value: 0, cbs_value: 0, quantity_kg: new Decimal(imported.quantity_kg).toFixed() })
      .toEqual({ ...original, cost: 0, icms_value: 0, cbs_value: 0, quantity_kg: new Decimal(original.quantity_kg).toFixed() });
  });
});

describe('a page of purchases imported back', () => {
  // Texts a spreadsheet takes for a formula, one beginning with each of `=`, `+`, `-`, `@` and U+2212 (a tab or a carriage
  // return is refused at input), and one that already begins with a `'` before one.
  const STARTS = ['=', '+', '-', '@', '\u2212', "'="];
  const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  let owner: string;
  const as = () => ({ role: 'PRODUCER' as const, producerId: owner });
  const post = async (producerId: string, body: Buffer, type: string) => {
    const res = await fetch(api.url.replace('/graphql', `/import/purchases?producer=${producerId}&locale=en`), {
      method: 'POST', headers: { 'content-type': type, authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` }, body,
    });
    return { status: res.status, body: (await res.json()) as { error?: Record<string, any>; import?: Record<string, any> } };
  };
  const texts = (producerId: string): Promise<Array<{ supplier_name: string; external_id: string }>> =>
    api.db.dataSource.query('SELECT supplier_name, external_id FROM purchase WHERE producer_id = $1 ORDER BY purchased_on', [producerId]);
  const recorded = STARTS.map((c, k) => ({ supplier_name: `${c}1+1`, external_id: `${c}2024-004${k}` }));
  /** Every line of the file a CONFLICT DUPLICATE on externalId: the same purchases, not new ones. */
  const duplicates = (answer: { status: number; body: { error?: Record<string, any> } }) => {
    expect(answer.status).toBe(409);
    expect(answer.body.error!.problems.map((p: any) => [p.line, p.column, p.reason])).toEqual(STARTS.map((_, k) => [k + 2, 'externalId', 'DUPLICATE']));
  };

  beforeAll(async () => {
    owner = await createProducer(api, 'Usina Apóstrofo', FEIRA);
    await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: recorded.map((t, k) => ({
      producerId: owner, purchasedOn: `2026-06-0${k + 1}`, feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2000', supplierKind: 'THIRD_PARTY',
      supplierName: t.supplier_name, originMunicipalityCode: PORTO_ALEGRE, externalId: t.external_id,
    })) });
    expect(await texts(owner)).toEqual(recorded);
  });

  it('from CSV: the file opened raw shows each text after a \', the import takes it off: the same purchases, duplicates of themselves', async () => {
    const res = await get(`/export/purchases?producer=${owner}&from=2026-06-01&to=2026-06-30&locale=en&format=csv`, as());
    const raw = res.body.toString('utf8');
    for (const t of recorded) expect(raw).toContain(`,'${t.supplier_name},`);
    expect(raw).toContain(",'-2024-0042,");
    expect(raw).toContain(",''=2024-0045,");
    // The table without its id column, as docs/API.md says.
    const file = Buffer.from(stringify(csvSections(res.body, ',').get('Purchases')!.map((row) => row.slice(1)), { record_delimiter: 'windows' }));
    duplicates(await post(owner, file, 'text/csv'));
    expect(await texts(owner)).toEqual(recorded);
    const mirror = await createProducer(api, 'Usina Espelho CSV', FEIRA);
    expect((await post(mirror, file, 'text/csv')).body.import).toMatchObject({ counts: { purchases: STARTS.length } });
    expect(await texts(mirror)).toEqual(recorded);
  });

  it('from XLSX: string cells hold each text as recorded, and an older file\'s \' before them is taken off too', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await get(`/export/purchases?producer=${owner}&from=2026-06-01&to=2026-06-30&locale=en&format=xlsx`, as())).body as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    const column = (name: string) => sheet.getColumn((sheet.getRow(1).values as unknown[]).indexOf(name));
    const cells = (name: string) => recorded.map((_, k) => sheet.getRow(k + 2).getCell(column(name).number));
    // A string cell, never a formula; the one beginning with `'` before a formula gets one more, which the import takes off.
    expect(cells('externalId').map((c) => [c.type, c.value])).toEqual(recorded.map((t) => [ExcelJS.ValueType.String, workbookText(t.external_id)]));
    expect(cells('externalId')[2].value).toBe('-2024-0042');
    expect(cells('supplierName').map((c) => c.value)).toEqual(recorded.map((t) => workbookText(t.supplier_name)));
    sheet.spliceColumns(1, 1);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    duplicates(await post(owner, file, XLSX));
    const mirror = await createProducer(api, 'Usina Espelho XLSX', FEIRA);
    expect((await post(mirror, file, XLSX)).body.import).toMatchObject({ counts: { purchases: STARTS.length } });
    expect(await texts(mirror)).toEqual(recorded);

    // A workbook exported before string cells were written as recorded held `'-2024-0042`: still the same purchases.
    for (const name of ['externalId', 'supplierName']) for (const c of cells(name)) c.value = neutralised(restored(String(c.value)));
    expect(cells('externalId')[2].value).toBe("'-2024-0042");
    duplicates(await post(owner, Buffer.from(await wb.xlsx.writeBuffer()), XLSX));
    expect(await texts(owner)).toEqual(recorded);
  });
});

describe('CSV cells from stored text', () => {
  // Text stored before control characters were refused at input, or written by SQL: the file keeps one line per row.
  const doc = (names: string[]): ExportDocument => ({
    name: 'x', title: { en: 'T', 'pt-BR': 'T' }, subtitle: [{ en: 'Usina\r\n|M200|', 'pt-BR': 'Usina\r\n|M200|' }],
    sections: [{ kind: 'table', key: 's', title: { en: 'S', 'pt-BR': 'S' }, columns: [{ key: 'n', label: { en: 'Name', 'pt-BR': 'Nome' }, type: 'text' }], rows: names.map((n) => [n]) }],
  });

  it('writes control characters and direction overrides as visible text: no line of a name\'s own, no reordering', () => {
    const csv = toCsv(doc(['Planalto\r\n|M210|1|', 'tab\there', 'nel\u0085', 'Usina \u202Eetnatsiser', 'a\u2066b\u2069', 'Cerealista Sul']), 'pt-BR').toString('utf8');
    expect(csv.split('\r\n')).toEqual(['\ufeffT', 'Usina<U+000D><U+000A>|M200|', '', 'S', 'Nome', 'Planalto<U+000D><U+000A>|M210|1|', 'tab<U+0009>here', 'nel<U+0085>',
      'Usina <U+202E>etnatsiser', 'a<U+2066>b<U+2069>', 'Cerealista Sul', '', '']);
  });

  it('neutralises a formula after Unicode normalisation: full-width ＝ ＋ － ＠ and a leading space too', () => {
    for (const text of ['＝HYPERLINK("http://x")', '＋1', '－1', '＠SUM(A1)', ' =1+1', '=1+1', '\t=1']) expect(neutralised(text)).toBe(`'${text}`);
    for (const text of ['Cerealista', '1+1', 'a=b', '']) expect(neutralised(text)).toBe(text);
    // One `'` more before a text that already begins with `'`s before a formula; the import takes exactly one off.
    for (const [text, written] of [["'=1", "''=1"], ["''+1", "'''+1"], ["'abc", "'abc"], ["'", "'"], ["a'=1", "a'=1"]]) expect(neutralised(text)).toBe(written);
  });

  it('gives back every text from its neutralised cell, and leaves alone a `\'` the export did not add', () => {
    const texts = ['=1+1', '+1', '-2024-0042', '@SUM(A1)', '\u22121', '\t=1', '\r=1', ' =1', '＝1', "'=1", "''=1", "'abc", "'", 'Cerealista', ''];
    for (const text of texts) expect(restored(neutralised(text))).toBe(text);
    for (const text of ["'abc", "'1", "'", "a'=1", "'Cerealista"]) expect(restored(text)).toBe(text);
    // What a workbook's string cell holds imports back the same.
    for (const text of texts) expect(restored(workbookText(text))).toBe(text);
    expect(['=1+1', '-2024-0042', "'abc"].map(workbookText)).toEqual(['=1+1', '-2024-0042', "'abc"]);
    const rows: string[][] = parse(toCsv(doc(['＝1+1']), 'pt-BR'), { bom: true, delimiter: ';', relax_column_count: true });
    expect(rows.slice(-2)).toEqual([['\'＝1+1'], ['']]);
  });
});

describe('a Selo compliance year', () => {
  it('lists every excluded item with its findings, and the year\'s figures equal the GraphQL answer', async () => {
    const farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`,
      { i: { cpf: newCpf(), name: 'Sem DAP', municipalityCode: FEIRA, registrations: [] } })).createFamilyFarmer.id;
    await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
      { producerId: producer, purchasedOn: '2026-05-04', feedstock: 'CASTOR_BEAN', quantityKg: '500', cost: '1234.5', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer, originMunicipalityCode: FEIRA },
    ] });
    const year = (await api.ok(`query($p: ID!) { sealCompliance(producerId: $p, year: 2026) { base countedTotal achievedShare compliant excluded { id source amount findings { code } } } }`, { p: producer })).sealCompliance;
    expect(year.excluded).toHaveLength(1);
    const res = await get(`/export/seal-compliance?producer=${producer}&year=2026&format=csv`);
    expect(res.status).toBe(200);
    const sections = csvSections(res.body);
    const summary = fields(sections.get('O ano')!);
    expect(br(summary.get('Base (R$)')!).eq(year.base)).toBe(true);
    expect(br(summary.get('Total computado (R$)')!).eq(year.countedTotal)).toBe(true);
    expect(br(summary.get('Percentual atingido')!).eq(year.achievedShare)).toBe(true);
    const excluded = sections.get('Itens não computados, e por quê')!;
    expect(excluded.slice(1).map((r) => [r[0], r[1], r[2], r[3]])).toEqual(year.excluded.map((e: { source: string; id: string; amount: string; findings: Array<{ code: string }> }) => [
      e.source, e.id, new Decimal(e.amount).toFixed(2).replace('.', ','), e.findings.map((f) => f.code).join(', ')]));
    expect(excluded[1][2]).toBe('1234,50');

    const xlsx = await get(`/export/seal-compliance?producer=${producer}&year=2026&format=xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    const sheet = wb.worksheets.find((w) => w.name.startsWith('Itens não computados'))!;
    expect(new Decimal(sheet.getRow(2).getCell(3).value as number).toFixed(2)).toBe('1234.50');

    const pdf = (await pdfText((await get(`/export/seal-compliance?producer=${producer}&year=2026&format=pdf`)).body)).replace(/\s+/g, ' ');
    expect(pdf).toContain('Selo Biocombustível Social — cumprimento de 2026');
    expect(pdf).toContain(year.excluded[0].findings[0].code);
    expect(pdf).toContain('1234,50');
  });
});

describe('the EFD-Contribuições draft', () => {
  const records = (text: string, reg: string) => text.split('\r\n').filter((l) => l.startsWith(`|${reg}|`)).map((l) => l.split('|').slice(1, -1));
  const num = (text: string) => new Decimal(text.replace(',', '.'));

  it('of a blended closed month: one M210/M610 per rate, lines that sum to the dues within the rounding shown, the C170 quantity fields', async () => {
    const month = (await api.ok(MONTH, { p: producer })).taxPeriod;
    const res = await get(`/export/efd?producer=${producer}&year=2026&month=4&format=draft`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = res.body.toString('utf8');
    expect(text.split('\r\n')[0]).toMatch(/^# RASCUNHO — EFD-Contribuições, 04\/2026/);
    expect(text).toContain('PVA');

    // PIS/Pasep. 1–6 April: own 100,7 m³ split 1/3 castor (art. 6º I, 22,48) and 2/3 GENERAL (26,41) by
    // largest remainder: 33,567 and 67,133 (33,5667 and 67,1333); imported 5 m³ at GENERAL. 7–30 April: 50 m³ at 0,00.
    const m210 = records(text, 'M210');
    expect(m210.map((r) => [r[1], r[8], r[9], r[10], r[15]])).toEqual([
      ['03', '72,133', '26,4100', '1905,03', '1905,03'], //  (67,133 + 5) × 26,41 = 1.905,03253
      ['03', '33,567', '22,4800', '754,59', '754,59'], //    33,567 × 22,48 = 754,58616
      ['03', '50,000', '0,0000', '0,00', '0,00'],
    ]);
    expect(m210.every((r) => r.length === 16)).toBe(true);
    const pisLines = m210.reduce((s, r) => s.plus(num(r[10])), new Decimal(0));
    expect(pisLines.toFixed(2)).toBe('2659.62'); // = the month's PIS/Pasep due: no difference
    expect(num(records(text, 'M200')[0][1]).eq(pisLines)).toBe(true);
    expect(text).toContain('# PIS/Pasep: Σ quantidade × alíquota = 2659,62; devido no mês (apuração fechada) = 2659,62; diferença = 0,00.');

    // Cofins: 72,133 × 121,59 = 8.770,65147 → 8.770,65; 33,567 × 103,51 = 3.474,52017 → 3.474,52; Σ 12.245,17
    // against the month's 12.245,18 (100,7 × 115,5633… + 607,95 = 12.245,1777): the rounding of the
    // quantities costs one centavo, and it is shown.
    const m610 = records(text, 'M610');
    expect(m610.map((r) => [r[8], r[9], r[10]])).toEqual([['72,133', '121,5900', '8770,65'], ['33,567', '103,5100', '3474,52'], ['50,000', '0,0000', '0,00']]);
    const cofinsLines = m610.reduce((s, r) => s.plus(num(r[10])), new Decimal(0));
    expect(cofinsLines.minus(month.cofinsDue).toFixed(2)).toBe('-0.01');
    expect(text).toContain('# Cofins: Σ quantidade × alíquota = 12245,17; devido no mês (apuração fechada) = 12245,18; diferença = -0,01 (arredondamento');
    // Quantities: every m³ of the month's domestic sales, once (150,7 own + 5 imported).
    expect(m210.reduce((s, r) => s.plus(num(r[8])), new Decimal(0)).toFixed(3)).toBe(new Decimal(month.domesticVolumeM3).plus(month.importedVolumeM3).toFixed(3));

    // C170, one per sale: 37 fields; own sales at the blended rate of their segment (25,1000 PIS =
    // (22,48 + 2 × 26,41) / 3), imported at GENERAL, the export with CST 08.
    const c170 = records(text, 'C170');
    expect(c170).toHaveLength(5);
    expect(c170.every((r) => r.length === 37)).toBe(true);
    expect(c170.map((r) => [r[4], r[24], r[27], r[28], r[29], r[30], r[33], r[34], r[35]])).toEqual([
      ['80,50000', '03', '80,500', '25,1000', '2020,55', '03', '80,500', '115,5633', '9302,85'],
      ['20,20000', '03', '20,200', '25,1000', '507,02', '03', '20,200', '115,5633', '2334,38'],
      ['5,00000', '03', '5,000', '26,4100', '132,05', '03', '5,000', '121,5900', '607,95'],
      ['50,00000', '03', '50,000', '0,0000', '0,00', '03', '50,000', '0,0000', '0,00'],
      ['3,00000', '08', '', '', '0', '08', '', '', '0'],
    ]);
  });

  it('is refused for an open month, and the draft for the ad valorem regime, with the reason (the ad valorem file is written)', async () => {
    const open = await get(`/export/efd?producer=${producer}&year=2026&month=5`);
    expect(open.status).toBe(400);
    expect(JSON.parse(open.body.toString()).error.message).toContain('2026-05 is open');
    const adValorem = await get(`/export/efd?producer=${other}&year=2026&month=4`, { role: 'ADMIN' });
    expect(adValorem.status).toBe(400);
    await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 4) { status } }`, { p: other });
    const draft = await get(`/export/efd?producer=${other}&year=2026&month=4&format=draft`, { role: 'ADMIN' });
    expect(draft.status).toBe(400);
    expect(JSON.parse(draft.body.toString()).error.message).toContain('special regime per m³');
    // The file itself: a closed ad valorem month (Lei 11.116/2005, art. 3º) is written (test/e2e/efd-ad-valorem.test.ts).
    const closed = await get(`/export/efd?producer=${other}&year=2026&month=4`, { role: 'ADMIN' });
    expect(closed.status).toBe(200);
    expect(efdProblems(closed.body)).toEqual([]);
  });
});

describe('the month\'s whole EFD-Contribuições file', () => {
  const lines = (body: Buffer) => body.toString('latin1').split('\r\n');
  const only = (body: Buffer, ...regs: string[]) => lines(body).filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));

  it('passes the layout check, ISO-8859-1, and its Bloco M equals the closed month\'s dues to the centavo (hand-worked)', async () => {
    const month = (await api.ok(MONTH, { p: producer })).taxPeriod;
    const res = await get(`/export/efd?producer=${producer}&year=2026&month=4`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=iso-8859-1');
    expect(res.headers.get('content-disposition')).toContain(`efd-contribuicoes-2026-04-producer-${producer}.txt`);
    expect(efdProblems(res.body)).toEqual([]);
    expect(lines(res.body)[0]).toMatch(/^\|0000\|006\|0\|\|\|01042026\|30042026\|Usina Exportadora\|\d{14}\|BA\|2910800\|\|00\|0\|$/);
    // 1–6 April: own 100,7 m³ split 1/3 castor (art. 6º I) and 2/3 GENERAL: 33,567 and 67,133 m³, the revenue 187.666,85 and
    // 375.333,70; imported 5 m³ at GENERAL (CFOP 5102). 7–30 April, the zero window: 50 m³ at zero, CST 06. The export: CST 08.
    expect(only(res.body, 'C010', 'C180', 'C181')).toEqual([
      expect.stringMatching(/^\|C010\|\d{14}\|1\|$/),
      '|C180|55|02042026|04042026|BIODIESEL-B100|38260000||591000,55|',
      '|C181|03|5101|375333,70|0,00|||67,133|26,4100|1772,98||',
      '|C181|03|5101|187666,85|0,00|||33,567|22,4800|754,59||',
      '|C181|03|5102|28000,00|0,00|||5,000|26,4100|132,05||',
      '|C180|55|20042026|21042026|BIODIESEL-B100|38260000||297000,00|', // a C180 per period of one rate (the Guia, C180 note 4)
      '|C181|06|5101|280000,00|0,00|||50,000|0,0000|0,00||',
      '|C181|08|7101|17000,00|0,00|||||0,00||',
    ]);
    // PIS: 72,133 × 26,41 = 1.905,03 and 33,567 × 22,48 = 754,59: 2.659,62, the month's due, no adjustment.
    expect(only(res.body, 'M200', 'M205', 'M210', 'M220')).toEqual([
      '|M200|2659,62|0,00|0,00|2659,62|0,00|0,00|2659,62|0,00|0,00|0,00|0,00|2659,62|',
      '|M205|08|691201|2659,62|',
      '|M210|03|403333,70|0,00|0,00|0,00|0,00||72,133|26,4100|1905,03|0,00|0,00|0,00|0,00|1905,03|',
      '|M210|03|187666,85|0,00|0,00|0,00|0,00||33,567|22,4800|754,59|0,00|0,00|0,00|0,00|754,59|',
    ]);
    // Cofins: 72,133 × 121,59 = 8.770,65 and 33,567 × 103,51 = 3.474,52: 12.245,17 against the month's 12.245,18: one centavo
    // of increase on the line of the largest quantity (M620), so that M600 is the due.
    const cofins = only(res.body, 'M600', 'M605', 'M610', 'M620');
    expect(cofins.slice(0, 3)).toEqual([
      '|M600|12245,18|0,00|0,00|12245,18|0,00|0,00|12245,18|0,00|0,00|0,00|0,00|12245,18|',
      '|M605|08|585601|12245,18|',
      '|M610|03|403333,70|0,00|0,00|0,00|0,00||72,133|121,5900|8770,65|0,01|0,00|0,00|0,00|8770,66|',
    ]);
    expect(cofins[3]).toMatch(/^\|M620\|1\|0,01\|03\|\|Arredondamento: .*COD_AJ a confirmar \(tabela 4\.3\.8\)\|30042026\|$/);
    expect([month.pisDue, month.cofinsDue]).toEqual(['2659.62', '12245.18']);
    // Zero rate and exports: M400/M410 (M800/M810), the revenue-nature codes not found are empty and said open in DESC_COMPL.
    expect(only(res.body, 'M400', 'M410').map((l) => l.split('|').slice(1, 4).join('|'))).toEqual(['M400|06|280000,00', 'M410||280000,00', 'M400|08|17000,00', 'M410||17000,00']);
    expect(only(res.body, 'M410')[0]).toContain('NAT_REC EM ABERTO: codigo da tabela 4.3.13');
    expect(only(res.body, '0110')).toEqual(['|0110|1|1|2||']);
    expect(only(res.body, 'I001', 'I990')).toEqual(['|I001|1|', '|I990|2|']);
    expect(lines(res.body).at(-2)).toBe(`|9999|${lines(res.body).length - 1}|`);
  });

  it('of a producer in the cumulative regime: COD_CONT 53, 0110 COD_INC_TRIB 2, the totals in M200/M600 fields 09–12', async () => {
    const res = await get(`/export/efd?producer=${producer}&year=2026&month=4&incidence=cumulative`);
    expect(res.status).toBe(200);
    expect(efdProblems(res.body)).toEqual([]);
    expect(only(res.body, '0110', 'M200', 'M205')).toEqual([
      '|0110|2||2|9|',
      '|M200|0,00|0,00|0,00|0,00|0,00|0,00|0,00|2659,62|0,00|0,00|2659,62|2659,62|',
      '|M205|12|810902|2659,62|',
    ]);
    expect(only(res.body, 'M210').every((l) => l.startsWith('|M210|53|'))).toBe(true);
    expect((await get(`/export/efd?producer=${producer}&year=2026&month=4&incidence=lucro`)).status).toBe(400);
    expect(JSON.parse((await get(`/export/efd?producer=${producer}&year=2026&month=4&format=pdf`)).body.toString()).error.field).toBe('format');
  });
});

describe('npm run export', () => {
  const run = (args: string[]) => new Promise<{ code: number; stdout: Buffer; stderr: string }>((resolve) => {
    execFile(process.execPath, ['-r', '@swc-node/register', 'scripts/export.ts', ...args],
      { cwd: path.resolve(__dirname, '../..'), env: { ...process.env, DATABASE_URL: api.db.url, LOG_LEVEL: 'silent' }, encoding: 'buffer' },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr: stderr.toString() }));
  });

  it('writes the same files as the HTTP endpoints, and refuses with the code and reason', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-export-'));
    try {
      const csv = await run(['tax-period', '--producer', producer, '--year', '2026', '--month', '4', '--out', path.join(dir, 'april.csv')]);
      expect([csv.code, csv.stderr]).toEqual([0, expect.stringContaining('Wrote ')]);
      expect(fields(csvSections(fs.readFileSync(path.join(dir, 'april.csv'))).get('O mês')!).get('PIS/Pasep devido (R$)')).toBe('2659,62');
      const efd = await run(['efd', '--producer', producer, '--year', '2026', '--month', '4', '--out', '-']);
      expect(efd.code).toBe(0);
      expect(efd.stdout.toString('latin1')).toContain('|M210|03|');
      expect(efdProblems(efd.stdout)).toEqual([]);
      const open = await run(['efd', '--producer', producer, '--year', '2026', '--month', '5', '--out', '-']);
      expect(open.code).toBe(1);
      expect(open.stderr).toContain('Export refused (BAD_USER_INPUT): The EFD-Contribuições file is made from a closed month: 2026-05 is open');
      expect((await run(['taxes'])).code).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
