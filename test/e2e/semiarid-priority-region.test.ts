import { Readable } from 'node:stream';
import { importFile } from '../../src/import/importer';
import { SYSTEM_ACTOR } from '../../src/services/actor';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { contract, farmer, purchases } from '../support/selo-year';

/**
 * The priority region is asked on the item's date everywhere (Decreto 10.527/2020, art. 6º I and
 * III; art. 3º §2 I b–c; Portaria Interministerial MME/MDA nº 2/2023): a purchase of raw material
 * produced in Janaúba (MG, Sudeste) — in the Semiárido under the 2017 and 2021 editions, absent from
 * the 2024 one (test data) — is in the priority region when bought in 2023 and not when bought in
 * 2025, in taxPeriod, rate, sealCompliance and Purchase.selo alike.
 */

const JANAUBA = '3135100';
let api: TestApi;
let producer: string;
const ids: Record<string, string> = {};

async function edition(csv: string, act: string, validFrom: string): Promise<void> {
  await importFile(api.db.dataSource, SYSTEM_ACTOR, { kind: 'semiarid', edition: { act, validFrom }, input: Readable.from([csv]) });
}

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  await edition('ibgeCode,name\n3135100,Janaúba\n3143302,Montes Claros\n', 'Resolução Condel/Sudene nº 115/2017', '2017-12-05');
  await edition('ibgeCode,name\n3135100,Janaúba\n3143302,Montes Claros\n', 'Resolução Condel/Sudene nº 150/2021', '2021-12-30');
  await edition('ibgeCode,name\n3143302,Montes Claros\n', 'Resolução Condel/Sudene nº 176/2024', '2024-01-03');

  producer = await createProducer(api, 'Usina do Norte de Minas', RECIFE);
  await api.ok(`mutation($i: GrantSealInput!) { grantSeal(input: $i) { id } }`, { i: { producerId: producer, grantedOn: '2023-01-01', validUntil: '2027-12-31' } });
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: producer, regime: 'SPECIAL_PER_M3', electedOn: '2022-11-03' } });
  const f = await farmer(api, [['CAF', '2022-01-01', '2027-12-31']]);
  const c2023 = await contract(api, producer, { farmer: f, signedOn: '2023-01-10', validFrom: '2023-01-10', validUntil: '2023-12-31' });
  const c2025 = await contract(api, producer, { farmer: f });
  [ids.p2023, ids.p2025] = await purchases(api, producer, [
    { on: '2023-03-10', cost: '3000', farmer: f, contract: c2023, origin: JANAUBA },
    { on: '2025-03-10', cost: '3000', farmer: f, contract: c2025, origin: JANAUBA },
  ]);
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, {
    i: ['2023-03-20', '2025-03-20'].map((soldOn) => ({ producerId: producer, soldOn, volumeM3: '10', revenue: '50000' })),
  });
}, 60_000);
afterAll(async () => { await api?.close(); });

test('taxPeriod: the raw material bought in 2023 is family farming in the priority region (art. 6º III), in 2025 family farming only (II)', async () => {
  const month = async (year: number) => (await api.ok(`query($p: ID!, $y: Int!) { taxPeriod(producerId: $p, year: $y, month: 3) { segments { mix { category cost } } } }`,
    { p: producer, y: year })).taxPeriod.segments.flatMap((s: { mix: unknown[] }) => s.mix);
  expect(await month(2023)).toEqual([{ category: 'FAMILY_FARMING_PRIORITY_REGION', cost: '3000.00' }]);
  expect(await month(2025)).toEqual([{ category: 'FAMILY_FARMING', cost: '3000.00' }]);
});

test('rate: the same lot from Janaúba, acquired in 2023 or in 2025 (acquiredOn, default the date of the sale)', async () => {
  const rate = async (on: string, acquiredOn?: string) => (await api.ok(`query($q: RateQuestion!) { rate(question: $q) { category } }`, {
    q: { on, acquiredOn, feedstock: 'SOYBEAN', originMunicipalityCode: JANAUBA, familyFarming: true, sealRegular: true },
  })).rate.category;
  expect(await rate('2023-03-20')).toBe('FAMILY_FARMING_PRIORITY_REGION');
  expect(await rate('2025-03-20')).toBe('FAMILY_FARMING');
  expect(await rate('2025-03-20', '2023-03-10')).toBe('FAMILY_FARMING_PRIORITY_REGION');
  // The last day in the Semiárido and the first out of it.
  expect(await rate('2025-03-20', '2024-01-02')).toBe('FAMILY_FARMING_PRIORITY_REGION');
  expect(await rate('2025-03-20', '2024-01-03')).toBe('FAMILY_FARMING');
});

test('sealCompliance: the 2023 purchase is priority-region spending (no requirement 2 before 2024), the 2025 one is not', async () => {
  const year = async (y: number) => (await api.ok(`query($p: ID!, $y: Int!) { sealCompliance(producerId: $p, year: $y) {
    countedTotal priorityRegionAmount priorityRegionShare requiredPriorityRegionShare requiredPriorityRegionShareLegalBasis priorityRegionShareMet excluded { id } } }`,
  { p: producer, y })).sealCompliance;
  const y2023 = await year(2023);
  expect(y2023).toMatchObject({ countedTotal: '3000.00', priorityRegionAmount: '3000.00', priorityRegionShare: '1', requiredPriorityRegionShare: '0', priorityRegionShareMet: true, excluded: [] });
  expect(y2023.requiredPriorityRegionShareLegalBasis).toMatch(/Portaria Interministerial MME\/MDA nº 2\/2023/);
  // Portaria Interministerial MME/MDA nº 2/2023: 15% in 2025, and nothing of it in the priority region;
  // weighted from 2024 (Portaria MDA nº 28/2024): an acquisition in the Sudeste, alínea e, × 3.
  expect(await year(2025)).toMatchObject({ countedTotal: '9000.00', priorityRegionAmount: '0.00', priorityRegionShare: '0', requiredPriorityRegionShare: '0.15', priorityRegionShareMet: false, excluded: [] });
});

test('Purchase.selo: priority region in 2023, not in 2025', async () => {
  const selo = async (id: string) => (await api.ok(`query($id: ID!) { purchase(id: $id) { selo { year counts priorityRegion } originMunicipality { priorityRegion
    y2023: priorityRegionOn(date: "2023-03-10") y2025: priorityRegionOn(date: "2025-03-10") } } }`, { id })).purchase;
  expect(await selo(ids.p2023)).toEqual({ selo: { year: 2023, counts: true, priorityRegion: true }, originMunicipality: { priorityRegion: false, y2023: true, y2025: false } });
  expect((await selo(ids.p2025)).selo).toEqual({ year: 2025, counts: true, priorityRegion: false });
});
