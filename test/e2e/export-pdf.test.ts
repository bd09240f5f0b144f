import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Decimal } from '../../src/law/decimal';
import { Locale } from '../../src/formats/brazilian';
import { signToken } from '../../src/graphql/auth/token';
import { Role } from '../../src/law/types';
import { startTestApi, TestApi, TEST_SECRET } from '../support/api';
import { ApiProcess, freePort, spawnApi, waitForReady } from '../support/api-process';
import { createProducer, electSpecialRegime, FEIRA, newCpf, PORTO_ALEGRE, upsertMunicipalities } from '../support/fixtures';
import { pdfText } from '../support/pdf-text';

/**
 * The PDF statements are written in the API's own process (pdfmake, fonts from the npm registry):
 * the API runs here with no browser anywhere it could find one — CHROMIUM_PATH names a missing
 * file and PATH holds only `node` — and still answers every statement, in Portuguese
 * and in English. Parsed back, each figure is the GraphQL answer to the centavo.
 *
 * The month is export.test.ts's: April 2026 of a producer under the special regime (Lei
 * 11.116/2005, art. 4º), cut by the zero window (Decreto 10.527/2020, art. 5º §§2º–4º) in two
 * segments, castor from the Semiárido (art. 6º I) and soybean from the South; 60 more purchases
 * make the purchases statement run over several pages.
 */

let api: TestApi;
let server: ApiProcess;
let base: string;
let producer: string;
let bin: string;

const BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'chrome'];

async function gql(query: string, variables: Record<string, unknown>) {
  const token = await signToken(TEST_SECRET, { sub: 'pdf-test', role: Role.ADMIN });
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data: Record<string, any>; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** A statement as the server gives it, and its text with the whitespace folded. */
async function statement(pathAndQuery: string): Promise<{ text: string; pages: number }> {
  const token = await signToken(TEST_SECRET, { sub: 'pdf-test', role: Role.ADMIN });
  const res = await fetch(`${base}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const body = Buffer.from(await res.arrayBuffer());
  expect(body.subarray(0, 5).toString()).toBe('%PDF-');
  // A4 landscape in points (595.28 × 841.89), and the DejaVu Sans glyphs embedded in the file.
  expect(body.toString('latin1')).toMatch(/\/MediaBox \[0 0 841\.89\d* 595\.28\d*\]/);
  expect(body.toString('latin1')).toMatch(/\/FontName \/[A-Z]{6}\+DejaVuSans/);
  const text = (await pdfText(body)).replace(/\s+/g, ' ');
  const pages = Number(/(?:Página|Page) 1 (?:de|of) (\d+)/.exec(text)?.[1]);
  return { text, pages };
}

/** A GraphQL decimal as the statement writes it: its decimals fixed, a decimal comma in pt-BR. */
function shown(value: string, places: number, locale: Locale): string {
  const text = new Decimal(value).toFixed(places, Decimal.ROUND_HALF_EVEN);
  return locale === 'pt-BR' ? text.replace('.', ',') : text;
}
const day = (iso: string, locale: Locale) => (locale === 'pt-BR' ? `${iso.slice(8)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : iso);

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [FEIRA, PORTO_ALEGRE]);
  producer = await createProducer(api, 'Usina São João', FEIRA);
  await electSpecialRegime(api, producer);
  const farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`,
    { i: { cpf: newCpf(), name: 'Sem DAP', municipalityCode: FEIRA, registrations: [] } })).createFamilyFarmer.id;
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    { producerId: producer, purchasedOn: '2026-04-01', feedstock: 'CASTOR_BEAN', quantityKg: '1000', cost: '1000', supplierKind: 'THIRD_PARTY', supplierName: 'Algodoeira Feirense', originMunicipalityCode: FEIRA },
    { producerId: producer, purchasedOn: '2026-04-01', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2000', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista Sul', originMunicipalityCode: PORTO_ALEGRE },
    { producerId: producer, purchasedOn: '2026-05-04', feedstock: 'CASTOR_BEAN', quantityKg: '500', cost: '1234.5', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer, originMunicipalityCode: FEIRA },
    ...Array.from({ length: 60 }, (_, i) => ({
      producerId: producer, purchasedOn: `2026-06-${String(1 + (i % 28)).padStart(2, '0')}`, feedstock: 'SOYBEAN', quantityKg: `${100 + i}.125`, cost: `${300 + i}.35`,
      supplierKind: 'THIRD_PARTY', supplierName: `Armazém Açaí nº ${i}`, originMunicipalityCode: PORTO_ALEGRE,
    })),
  ] });
  const sale = (soldOn: string, volumeM3: string, revenue: string, origin = 'OWN_PRODUCTION', market = 'DOMESTIC') => ({ producerId: producer, soldOn, volumeM3, revenue, origin, market });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [
    sale('2026-04-02', '80.5', '450000'), sale('2026-04-03', '20.2', '113000.55'), sale('2026-04-04', '5', '28000', 'IMPORTED'),
    sale('2026-04-20', '50', '280000'), sale('2026-04-21', '3', '17000', 'OWN_PRODUCTION', 'EXPORT'),
  ] });
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 4) { status } }`, { p: producer });

  // The API's own process, as `npm start` runs it, where no browser can be found.
  // PATH: a folder holding only `node` (Node.js's own folder may hold a browser beside it, as /usr/bin does).
  bin = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-no-browser-'));
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  expect(BROWSERS.filter((b) => fs.existsSync(path.join(bin, b)))).toEqual([]);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawnApi({ HOME: process.env.HOME, PATH: bin, CHROMIUM_PATH: '/nonexistent/chromium', DATABASE_URL: api.db.url, JWT_SECRET: TEST_SECRET, PORT: String(port), LOG_LEVEL: 'warn' });
  if (!(await waitForReady(server, port, 60_000))) throw new Error(`the API did not start:\n${server.out}`);
});
afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await api?.close();
  if (bin) fs.rmSync(bin, { recursive: true, force: true });
});

describe.each<Locale>(['pt-BR', 'en'])('with no Chromium, in %s', (locale) => {
  const pt = locale === 'pt-BR';

  it('the month of PIS/Cofins: its figures, each segment and its mix with their legal bases', async () => {
    const { taxPeriod: month } = await gql(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 4) {
      status pisDue cofinsDue totalDue feedstockCost domesticVolumeM3 importedVolumeM3 exportedVolumeM3 regimeBasis
      segments { from to ownProductionVolumeM3 importedVolumeM3 exportedVolumeM3 domesticRevenue blendedPisPerM3 blendedCofinsPerM3 pisDue cofinsDue legalBasis
                 mix { category cost quantityKg share coefficient pisPerM3 cofinsPerM3 legalBasis } } warnings { code legalBasis } } }`, { p: producer });
    expect([month.status, month.pisDue, month.cofinsDue, month.segments.length]).toEqual(['CLOSED', '2659.62', '12245.18', 2]);
    const { text, pages } = await statement(`/export/tax-period?producer=${producer}&year=2026&month=4&format=pdf&locale=${locale}`);
    expect(text).toContain(pt ? 'PIS/Pasep e Cofins sobre biodiesel — 04/2026' : 'PIS/Pasep and Cofins on biodiesel — 2026-04');
    expect(text).toContain('Usina São João');
    expect(text).toContain(pt ? 'Mês fechado: o registro tomado no fechamento.' : 'Closed month: the snapshot taken at the close.');
    const fields: Array<[string, string, string, number]> = [
      ['pisDue', 'PIS/Pasep devido (R$)', 'PIS/Pasep due (R$)', 2], ['cofinsDue', 'Cofins devida (R$)', 'Cofins due (R$)', 2], ['totalDue', 'Total devido (R$)', 'Total due (R$)', 2],
      ['feedstockCost', 'Matéria-prima utilizada: custo valorado (R$)', 'Raw material used: valued cost (R$)', 2],
      ['domesticVolumeM3', 'Biodiesel próprio vendido no mercado interno (m³)', 'Own biodiesel sold, domestic market (m³)', 3],
      ['importedVolumeM3', 'Biodiesel importado vendido no mercado interno (m³)', 'Imported biodiesel sold, domestic market (m³)', 3],
      ['exportedVolumeM3', 'Biodiesel exportado (m³)', 'Biodiesel exported (m³)', 3],
    ];
    for (const [key, ptLabel, enLabel, places] of fields) expect(text).toContain(`${pt ? ptLabel : enLabel} ${shown(month[key], places, locale)}`);
    expect(text).toContain(pt ? 'PIS/Pasep devido (R$) 2659,62' : 'PIS/Pasep due (R$) 2659.62');
    expect(text).toContain(month.regimeBasis);
    for (const s of month.segments) {
      // A segment's row: its dates, then its volumes, revenue and blended amounts side by side, its dues, its legal basis.
      expect(text).toContain(`${day(s.from, locale)} ${day(s.to, locale)}`);
      expect(text).toContain([shown(s.ownProductionVolumeM3, 3, locale), shown(s.importedVolumeM3, 3, locale), shown(s.exportedVolumeM3, 3, locale),
        shown(s.domesticRevenue, 2, locale), shown(s.blendedPisPerM3, 6, locale), shown(s.blendedCofinsPerM3, 6, locale)].join(' '));
      expect(text).toContain(`${shown(s.pisDue, 2, locale)} ${shown(s.cofinsDue, 2, locale)} ${s.legalBasis}`);
      for (const m of s.mix) {
        expect(text).toContain(`${shown(m.cost, 2, locale)} ${shown(m.quantityKg, 3, locale)} ${shown(m.share, 6, locale)}`);
        expect(text).toContain(m.legalBasis);
      }
    }
    expect(text).toContain(pt ? 'Composição por categoria (Decreto 10.527/2020, art. 6º §3º)' : 'Mix of rate categories (Decreto 10.527/2020, art. 6º §3º)');
    expect(text).toContain('CASTOR_PALM_PRIORITY_REGION');
    for (const w of month.warnings) expect(text).toContain(w.code);
    expect(text).toContain(pt ? 'Registro de fechamento' : 'Closing record');
    expect(text).toContain(pt ? `Página ${pages} de ${pages}` : `Page ${pages} of ${pages}`);
  });

  it('the Selo year: its figures and every excluded item with its findings', async () => {
    const { sealCompliance: year } = await gql(`query($p: ID!) { sealCompliance(producerId: $p, year: 2026) {
      salesRevenue exportedValue base countedTotal achievedShare requiredShare shortfall compliant status excluded { id source amount findings { code legalBasis } } findings { code } } }`, { p: producer });
    expect(year.excluded).toHaveLength(1);
    const { text } = await statement(`/export/seal-compliance?producer=${producer}&year=2026&format=pdf&locale=${locale}`);
    expect(text).toContain(pt ? 'Selo Biocombustível Social — cumprimento de 2026' : 'Selo Biocombustível Social — compliance of 2026');
    const fields: Array<[string, string, string, number]> = [
      ['salesRevenue', 'Receita do biodiesel próprio vendido (R$)', 'Revenue of own biodiesel sold (R$)', 2],
      ['exportedValue', 'Valor proporcional ao volume exportado (R$)', 'Value proportional to the exported volume (R$)', 2],
      ['base', 'Base (R$)', 'Base (R$)', 2], ['countedTotal', 'Total computado (R$)', 'Total counted (R$)', 2],
      ['achievedShare', 'Percentual atingido', 'Share achieved', 6],
    ];
    for (const [key, ptLabel, enLabel, places] of fields) expect(text).toContain(`${pt ? ptLabel : enLabel} ${shown(year[key], places, locale)}`);
    expect(text).toContain(`${pt ? 'Situação (COMPLIANT, NOT_COMPLIANT, NOT_ESTABLISHED)' : 'Verdict (COMPLIANT, NOT_COMPLIANT, NOT_ESTABLISHED)'} ${year.status}`);
    for (const e of year.excluded) {
      expect(text).toContain(`${e.source} ${e.id} ${shown(e.amount, 2, locale)} ${e.findings.map((f: { code: string }) => f.code).join(', ')}`);
    }
    expect(text).toContain(pt ? '1234,50' : '1234.50');
    for (const f of year.findings) expect(text).toContain(f.code);
  });

  it('the purchases: every row over several pages, the header at the top of each, page numbers', async () => {
    const { producer: p } = await gql(`query($p: ID!) { producer(id: $p) { purchases(first: 63) { edges { node { id consumedOn feedstock quantityKg cost supplierName } } pageInfo { hasNextPage } } } }`, { p: producer });
    expect([p.purchases.edges.length, p.purchases.pageInfo.hasNextPage]).toEqual([63, false]);
    const { text, pages } = await statement(`/export/purchases?producer=${producer}&first=63&format=pdf&locale=${locale}`);
    expect(pages).toBeGreaterThan(1);
    for (let page = 1; page <= pages; page++) expect(text).toContain(pt ? `Página ${page} de ${pages}` : `Page ${page} of ${pages}`);
    const header = pt ? 'Quantidade (kg) Custo (R$) Tipo de fornecedor' : 'quantityKg cost supplierKind';
    expect(text.split(header).length - 1).toBe(pages);
    for (const { node } of p.purchases.edges) {
      expect(text).toContain(`${node.id} ${day(node.consumedOn, locale)} ${day(node.consumedOn, locale)} ${node.feedstock} ${shown(node.quantityKg, 3, locale)} ${shown(node.cost, 2, locale)}`);
      if (node.supplierName) expect(text).toContain(node.supplierName);
    }
  });
});

test('the API process found no browser and started none', () => {
  expect(server.out).not.toMatch(/chromium|PDF_UNAVAILABLE/i);
});
