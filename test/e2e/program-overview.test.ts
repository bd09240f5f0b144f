import { execFile } from 'node:child_process';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { startTestApi, TestApi } from '../support/api';
import { pdfText } from '../support/pdf-text';
import { createProducer, FEIRA, grantSeal, PORTO_ALEGRE, RECIFE } from '../support/fixtures';
import { contract, farmer, organization, purchases, setUpSeloYear } from '../support/selo-year';

/**
 * The program as a whole (Decreto 10.527/2020, arts. 2º–4º; Portaria MDA nº 28/2024) on two
 * producers in two regions, every figure worked by hand from the records below and the shipped
 * weighting factors of 2025 (c 30, d 4; a and the minimum weighted percentage not published;
 * priority-region minimum 15%). Recife is PE (Nordeste), Feira de Santana BA (Nordeste, Semiárido),
 * Porto Alegre RS (Sul).
 */

let api: TestApi;
let nordeste: string;
let sul: string;
let farmerRecife: string;
const KNOWN = '2026-11-30';

async function sales(producerId: string, revenue: string): Promise<void> {
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, {
    i: [{ producerId, soldOn: '2025-03-01', volumeM3: '10', revenue, market: 'DOMESTIC', origin: 'OWN_PRODUCTION' }],
  });
}

const OVERVIEW = `query($y: Int!, $k: Date) { programOverview(year: $y, asKnownOn: $k) {
  year asKnownOn on producerCount
  byStanding { standing producers } byCompliance { compliance producers }
  spending { salesRevenue base familyFarmingAcquisitions otherProductAcquisitions fomento actualTotal weightedTotal priorityRegionAmount priorityRegionShare }
  byKind { kind actual weighted count } byRegion { region actual weighted count } byState { state region actual count }
  byFeedstock { feedstock actual weighted count }
  families { familyFarmers organizations organizationFamilyFarmerMembers byState { state familyFarmers } byMunicipality { ibgeCode name state familyFarmers } }
  standingChanges { producer { id } before after reason { code } }
  producers { producer { id } standing compliance sealCompliance { status actualTotal countedTotal } }
  years(from: 2024) { year producerCount byStanding { standing producers } spending { actualTotal weightedTotal } familyFarmers standingChanges }
} }`;

beforeAll(async () => {
  api = await startTestApi();
  farmerRecife = await setUpSeloYear(api);
  const farmerExpired = await farmer(api, [['CAF', '2023-01-01', '2027-12-31']]);
  const coop = await organization(api, 'COOPERATIVE', 10, 8, [['CAF', '2023-01-01', '2027-12-31']]);

  // Nordeste (plant in Recife): the Selo granted 2025-01-01. Sales R$ 100.000.
  nordeste = await createProducer(api, 'Biodiesel Nordeste S.A.', RECIFE);
  await grantSeal(api, nordeste);
  await sales(nordeste, '100000');
  const cN = await contract(api, nordeste, { farmer: farmerRecife });
  await purchases(api, nordeste, [
    { on: '2025-03-10', cost: '30000', farmer: farmerRecife, contract: cN }, // (a) Recife: d × 4 = 120.000
    { on: '2025-03-11', cost: '1000', farmer: farmerExpired }, // no contract: excluded (art. 3º §2 II)
  ]);
  await api.ok(`mutation($i: [RecordFomentoInput!]!) { recordFomento(input: $i) { id } }`, {
    i: [{ producerId: nordeste, spentOn: '2025-06-01', kind: 'TECHNICAL_ASSISTANCE', amount: '1000', municipalityCode: FEIRA }], // (c) Semiárido: c × 30 = 30.000
  });

  // Sul (plant in Porto Alegre): no Selo. Sales R$ 200.000.
  sul = await createProducer(api, 'Biodiesel Sul S.A.', PORTO_ALEGRE);
  await sales(sul, '200000');
  const cS = await contract(api, sul, { farmer: farmerRecife });
  const cO = await contract(api, sul, { org: coop });
  await purchases(api, sul, [
    { on: '2025-04-10', cost: '50000', farmer: farmerRecife, contract: cS, origin: PORTO_ALEGRE }, // (a) Sul soybean: weight 1
    { on: '2025-04-11', cost: '5000', org: coop, contract: cO }, // (a) cooperative, Recife: a unpublished, so no weighted value yet (a × d × 4)
  ]);
});
afterAll(async () => { await api.close(); });

test('two producers in two regions: every figure of the year worked by hand', async () => {
  const o = (await api.ok(OVERVIEW, { y: 2025, k: KNOWN }, { role: 'AUDITOR' })).programOverview;
  expect([o.year, o.asKnownOn, o.on, o.producerCount]).toEqual([2025, KNOWN, '2025-12-31', 2]);
  // Standing on 2025-12-31: Nordeste's grant runs to 2027-12-31; Sul has none.
  expect(o.byStanding).toEqual([
    { standing: 'REGULAR', producers: 1 }, { standing: 'SUSPENDED', producers: 0 }, { standing: 'CANCELLED', producers: 0 },
    { standing: 'EXPIRED', producers: 0 }, { standing: 'NONE', producers: 1 },
  ]);
  // Nordeste: priority region 31.000 / 31.000 ≥ 15%, minimum unpublished → not yet determinable.
  // Sul: priority region 5.000 / 55.000 = 9,09% < 15% → short.
  expect(o.byCompliance).toEqual([{ compliance: 'COMPLIANT', producers: 0 }, { compliance: 'SHORT', producers: 1 }, { compliance: 'NOT_DETERMINABLE', producers: 1 }]);
  // Sales 100.000 + 200.000; (a) 30.000 + 50.000 + 5.000 = 85.000; (c) 1.000; actual 86.000;
  // weighted 120.000 + 30.000 + 50.000 = 200.000 (the cooperative's 5.000 awaits factor a); priority region 31.000 + 5.000 = 36.000,
  // 36.000 / 86.000 = 0,4186046… → 0.418605.
  expect(o.spending).toEqual({
    salesRevenue: '300000.00', base: '300000.00', familyFarmingAcquisitions: '85000.00', otherProductAcquisitions: '0.00', fomento: '1000.00',
    actualTotal: '86000.00', weightedTotal: '200000.00', priorityRegionAmount: '36000.00', priorityRegionShare: '0.418605',
  });
  expect(o.byKind).toEqual([
    { kind: 'FAMILY_FARMING_ACQUISITION', actual: '85000.00', weighted: '170000.00', count: 3 },
    { kind: 'FOMENTO', actual: '1000.00', weighted: '30000.00', count: 1 },
  ]);
  expect(o.byRegion).toEqual([
    { region: 'NORTHEAST', actual: '36000.00', weighted: '150000.00', count: 3 },
    { region: 'SOUTH', actual: '50000.00', weighted: '50000.00', count: 1 },
  ]);
  // By state, as spent: the fomento in Feira (BA); Recife's two purchases (PE); Porto Alegre's (RS). The excluded R$ 1.000 nowhere.
  expect(o.byState).toEqual([
    { state: 'BA', region: 'NORTHEAST', actual: '1000.00', count: 1 },
    { state: 'PE', region: 'NORTHEAST', actual: '35000.00', count: 2 },
    { state: 'RS', region: 'SOUTH', actual: '50000.00', count: 1 },
  ]);
  expect(o.byFeedstock).toEqual([
    { feedstock: 'SOYBEAN', actual: '85000.00', weighted: '170000.00', count: 3 },
    { feedstock: null, actual: '1000.00', weighted: '30000.00', count: 1 },
  ]);
  // One farmer (of Recife) sold to both producers, counted once; the farmer of the excluded purchase
  // is not served; the cooperative declared 8 family-farmer members.
  expect(o.families).toEqual({
    familyFarmers: 1, organizations: 1, organizationFamilyFarmerMembers: 8,
    byState: [{ state: 'PE', familyFarmers: 1 }], byMunicipality: [{ ibgeCode: RECIFE, name: 'Recife', state: 'PE', familyFarmers: 1 }],
  });
  expect(o.standingChanges).toEqual([{ producer: { id: nordeste }, before: 'NONE', after: 'REGULAR', reason: { code: 'SEAL_REGULAR' } }]);
  expect(o.producers).toEqual([
    { producer: { id: nordeste }, standing: 'REGULAR', compliance: 'NOT_DETERMINABLE', sealCompliance: { status: 'NOT_ESTABLISHED', actualTotal: '31000.00', countedTotal: '150000.00' } },
    { producer: { id: sul }, standing: 'NONE', compliance: 'SHORT', sealCompliance: { status: 'NOT_COMPLIANT', actualTotal: '55000.00', countedTotal: '50000.00' } },
  ]);
  // The series: 2024 had no spending and no Selo; 2025 as above.
  expect(o.years).toEqual([
    { year: 2024, producerCount: 2, byStanding: expect.arrayContaining([{ standing: 'NONE', producers: 2 }]), spending: { actualTotal: '0.00', weightedTotal: '0.00' }, familyFarmers: 0, standingChanges: 0 },
    { year: 2025, producerCount: 2, byStanding: expect.arrayContaining([{ standing: 'REGULAR', producers: 1 }]), spending: { actualTotal: '86000.00', weightedTotal: '200000.00' }, familyFarmers: 1, standingChanges: 1 },
  ]);
});

test('the ministry\'s view: ADMIN and AUDITOR; a PRODUCER is FORBIDDEN and sees nothing', async () => {
  await api.ok('query { programOverview(year: 2025) { producerCount } }', {}, { role: 'ADMIN' });
  const res = await api.gql('query { programOverview(year: 2025) { producerCount spending { actualTotal } } }', {}, { role: 'PRODUCER', producerId: nordeste });
  expect(res.errors?.[0]).toMatchObject({ path: ['programOverview'], extensions: { code: 'FORBIDDEN' } });
  expect(res.data?.programOverview ?? null).toBeNull();
});

test('a series reaching back before Decreto 10.527/2020: those years are null with NO_RULE_IN_FORCE, the others stand', async () => {
  const res = await api.gql(`query { programOverview(year: 2021, asKnownOn: "${KNOWN}") { year years(from: 2018) { year producerCount } } }`, {}, { role: 'AUDITOR' });
  // No wording of art. 3º was in force on 31 December 2018 or 2019 (the decree is of October 2020).
  expect(res.data?.programOverview).toEqual({ year: 2021, years: [null, null, { year: 2020, producerCount: 2 }, { year: 2021, producerCount: 2 }] });
  expect(res.errors?.map((e) => ({ path: e.path, code: e.extensions?.code }))).toEqual([
    { path: ['programOverview', 'years', 0], code: 'NO_RULE_IN_FORCE' },
    { path: ['programOverview', 'years', 1], code: 'NO_RULE_IN_FORCE' },
  ]);
  // The year asked itself is still refused whole: there is nothing else to keep.
  const alone = await api.gql('query { programOverview(year: 2019) { producerCount } }', {}, { role: 'AUDITOR' });
  expect(alone.errors?.[0]).toMatchObject({ path: ['programOverview'], extensions: { code: 'NO_RULE_IN_FORCE' } });
  expect(alone.data?.programOverview ?? null).toBeNull();
});

test('many years asked at once (aliases of one request) are computed one after the other: all answered, and the pool left to the other requests', async () => {
  // Twenty days asked: twenty years computed, none kept before.
  const days = Array.from({ length: 20 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);
  const many = api.gql(`query { ${days.map((d, i) => `d${i}: programOverview(year: 2025, asKnownOn: "${d}") { asKnownOn producerCount spending { actualTotal } }`).join(' ')} }`, {}, { role: 'AUDITOR' });
  // Another user's request while they compute: a connection is there for it.
  const other = api.gql('query { producers(first: 5) { edges { node { id } } } }', {}, { role: 'AUDITOR' });
  const [res, beside] = await Promise.all([many, other]);
  expect(beside.errors).toBeUndefined();
  expect(beside.data?.producers.edges).toHaveLength(2);
  expect(res.errors).toBeUndefined();
  expect(days.map((d, i) => res.data?.[`d${i}`])).toEqual(days.map((d) => ({ asKnownOn: d, producerCount: 2, spending: { actualTotal: '86000.00' } })));
});

test('bad input: a year out of range and a series that does not end at the year are BAD_USER_INPUT', async () => {
  const year = await api.gql('query { programOverview(year: 99) { producerCount } }', {}, { role: 'AUDITOR' });
  expect(year.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'year' });
  const from = await api.gql('query { programOverview(year: 2025) { years(from: 2026) { year } } }', {}, { role: 'AUDITOR' });
  expect(from.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'from' });
});

describe('GET /export/program: the overview as CSV, XLSX and PDF', () => {
  async function get(path: string, as: { role: 'ADMIN' | 'AUDITOR' | 'PRODUCER'; producerId?: string }) {
    const res = await fetch(api.url.replace('/graphql', path), { headers: { authorization: `Bearer ${await api.token(as)}` } });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  }

  test('the CSV carries the figures worked above; XLSX and PDF carry them too', async () => {
    const res = await get(`/export/program?year=2025&asKnownOn=${KNOWN}&format=csv`, { role: 'AUDITOR' });
    expect(res.status).toBe(200);
    const rows: string[][] = parse(res.body, { bom: true, delimiter: ';', relax_column_count: true });
    const value = (labelText: string) => rows.find((r) => r[0] === labelText)?.[1];
    // Brazilian text (pt-BR by default): decimal comma, no thousands separator.
    expect([value('Produtores'), value('Total computado, antes da ponderação (R$)'), value('Total ponderado (R$)'), value('Parcela do gasto na região prioritária')])
      .toEqual(['2', '86000,00', '200000,00', '0,418605']);
    expect(value('Agricultores familiares atendidos diretamente')).toBe('1');
    expect(rows.filter((r) => r[0] === 'PE' && r[1] === 'NORTHEAST')).toEqual([['PE', 'NORTHEAST', '35000,00', '2']]);
    expect(rows.find((r) => r[0] === nordeste && r[2] === 'REGULAR')).toEqual([nordeste, 'Biodiesel Nordeste S.A.', 'REGULAR', 'NOT_ESTABLISHED', '100000,00', '31000,00', '150000,00', '31000,00']);

    const xlsx = await get('/export/program?year=2025&asKnownOn=2026-11-30&format=xlsx', { role: 'ADMIN' });
    expect(xlsx.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    const sheet = wb.worksheets.find((w) => w.name.startsWith('Gasto por região'))!;
    expect([sheet.getRow(2).getCell(1).value, sheet.getRow(2).getCell(2).value]).toEqual(['NORTHEAST', 36000]);

    const pdf = await get('/export/program?year=2025&asKnownOn=2026-11-30&format=pdf', { role: 'AUDITOR' });
    expect(pdf.status).toBe(200);
    const text = (await pdfText(pdf.body)).replace(/\s+/g, ' ');
    expect(text).toContain('Selo Biocombustível Social — o programa em 2025');
    expect(text).toContain('200000,00');
  });

  test('a PRODUCER is refused (403 FORBIDDEN), as in the API; bad parameters are 400', async () => {
    const producer = await get('/export/program?year=2025', { role: 'PRODUCER', producerId: nordeste });
    expect(producer.status).toBe(403);
    expect(JSON.parse(producer.body.toString()).error.code).toBe('FORBIDDEN');
    const noYear = await get('/export/program', { role: 'AUDITOR' });
    expect([noYear.status, JSON.parse(noYear.body.toString()).error.field]).toEqual([400, 'year']);
  });

  test('npm run export -- program writes the same file, run as the operator', async () => {
    const out = await new Promise<{ code: number; stdout: Buffer }>((resolve) => {
      execFile(process.execPath, ['-r', '@swc-node/register', 'scripts/export.ts', 'program', '--year', '2025', '--as-known-on', KNOWN, '--out', '-'],
        { cwd: path.resolve(__dirname, '../..'), env: { ...process.env, DATABASE_URL: api.db.url, LOG_LEVEL: 'silent' }, encoding: 'buffer' },
        (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }));
    });
    expect(out.code).toBe(0);
    const http = await get(`/export/program?year=2025&asKnownOn=${KNOWN}&format=csv`, { role: 'ADMIN' });
    expect(out.stdout.toString()).toBe(http.body.toString());
  });
});
