import { loadDemoData } from '../../src/database/demo-data';
import { Decimal } from '../../src/law/decimal';
import { efdProblems } from '../support/efd-layout';
import { startTestApi, TestApi } from '../support/api';

/**
 * The whole EFD-Contribuições file of demo months (src/database/demo-data.ts): a month with
 * castor/palm of the priority region (Decreto 10.527/2020, art. 6º I) under the special regime, a
 * month of the 2026 zero window with family-farming raw material of the priority region (art. 6º
 * III), a month with exports, and a month written for the cumulative regime. Each passes the layout
 * check, and its M200/M600 equal the closed month's dues to the centavo.
 */

let api: TestApi;
const MONTH = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) {
  regime pisDue cofinsDue exportedVolumeM3 segments { from mix { category pisPerM3 } } } }`;
interface Month { producer: string; year: number; month: number; pisDue: string; cofinsDue: string; exported: boolean; categories: string[]; window: boolean }
const months: Month[] = [];

beforeAll(async () => {
  api = await startTestApi();
  await loadDemoData(api.db.dataSource);
  const producers = (await api.ok('{ producers(first: 20) { edges { node { id } } } }')).producers.edges.map((e: { node: { id: string } }) => e.node.id);
  for (const producer of producers) {
    for (const [year, month] of [[2025, 9], [2025, 11], [2026, 4], [2026, 5]]) {
      const t = (await api.ok(MONTH, { p: producer, y: year, m: month })).taxPeriod;
      if (t.regime !== 'SPECIAL_PER_M3') continue;
      const mix = t.segments.flatMap((s: { mix: Array<{ category: string; pisPerM3: string }> }) => s.mix);
      months.push({
        producer, year, month, pisDue: t.pisDue, cofinsDue: t.cofinsDue, exported: new Decimal(t.exportedVolumeM3).gt(0),
        categories: [...new Set<string>(mix.map((m: { category: string }) => m.category))], window: mix.some((m: { category: string; pisPerM3: string }) => m.category === 'GENERAL' && new Decimal(m.pisPerM3).isZero()),
      });
    }
  }
});
afterAll(() => api?.close());

async function file(m: Month, incidence = 'non-cumulative'): Promise<string> {
  await api.gql('mutation($p: ID!, $y: Int!, $m: Int!) { closeTaxPeriod(producerId: $p, year: $y, month: $m) { status } }', { p: m.producer, y: m.year, m: m.month });
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${m.producer}&year=${m.year}&month=${m.month}&incidence=${incidence}`),
    { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  return body.toString('latin1');
}
const total = (text: string, reg: string) => text.split('\r\n').find((l) => l.startsWith(`|${reg}|`))!.split('|')[13].replace(',', '.');

describe('the EFD-Contribuições of demo months', () => {
  it.each([
    ['castor/palm of the priority region (art. 6º I), special regime', (m: Month) => m.categories.includes('CASTOR_PALM_PRIORITY_REGION') && !m.window, 'non-cumulative'],
    ['the 2026 zero window with family farming of the priority region (art. 6º III)', (m: Month) => m.window && m.categories.includes('FAMILY_FARMING_PRIORITY_REGION'), 'non-cumulative'],
    ['exports (CST 08)', (m: Month) => m.exported && !m.window, 'non-cumulative'],
    ['the cumulative regime (COD_CONT 53)', (m: Month) => !m.window && new Decimal(m.pisDue).gt(0), 'cumulative'],
  ])('%s: passes the layout check, M200/M600 equal the dues', async (_name, pick, incidence) => {
    const m = months.find(pick);
    expect(m).toBeDefined();
    const text = await file(m!, incidence);
    expect(total(text, 'M200')).toBe(m!.pisDue);
    expect(total(text, 'M600')).toBe(m!.cofinsDue);
    if (m!.exported) expect(text).toMatch(/\|M400\|08\|/);
    if (m!.window) expect(text).toMatch(/\|M400\|06\|/);
    if (incidence === 'cumulative') expect(text).toMatch(/\|M210\|53\|/);
  });
});
