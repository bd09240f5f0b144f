import { startTestApi, TestApi } from '../support/api';
import { createProducer, newCpf, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The long lists of computed answers — a Selo year's excluded items, a month's purchase credits —
 * given whole as always, or a page with `first`/`offset`, and bounded per response: this server
 * lets one response list 6 such items (the default is LIMITS.maxListed). Four purchases from a
 * family farmer with no DAP/CAF, and one from a cerealista, in March 2025: the four are excluded
 * from the Selo year (art. 3º §2º), all five have a credit line.
 */

const MAX = 6;
let api: TestApi;
let producer: string;
let excludedIds: string[];

beforeAll(async () => {
  api = await startTestApi({ maxListed: MAX });
  await upsertMunicipalities(api, [RECIFE]);
  producer = await createProducer(api, 'Usina das Listas', RECIFE);
  const farmer = (await api.ok<{ createFamilyFarmer: { id: string } }>(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
    i: { cpf: newCpf(), name: 'Agricultor sem DAP', municipalityCode: RECIFE, registrations: [] },
  })).createFamilyFarmer.id;
  const lot = (day: string, extra: Record<string, unknown>) => ({ producerId: producer, purchasedOn: day, feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500.00', originMunicipalityCode: RECIFE, ...extra });
  const recorded = await api.ok<{ recordPurchases: Array<{ id: string }> }>(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    ...['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06'].map((day) => lot(day, { supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer })),
    lot('2025-03-07', { supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista' }),
  ] });
  excludedIds = recorded.recordPurchases.slice(0, 4).map((p) => p.id);
});
afterAll(async () => { await api.close(); });

const EXCLUDED = `query($p: ID!, $first: Int, $offset: Int! = 0) { sealCompliance(producerId: $p, year: 2025) { excludedCount excluded(first: $first, offset: $offset) { id source } } }`;
type Excluded = { sealCompliance: { excludedCount: number; excluded: Array<{ id: string; source: string }> } };

test('excluded: all of them without first, or the page first/offset asks, with their count', async () => {
  const all = await api.ok<Excluded>(EXCLUDED, { p: producer });
  expect(all.sealCompliance.excludedCount).toBe(4);
  expect(all.sealCompliance.excluded.map((e) => e.id)).toEqual(excludedIds);
  expect(new Set(all.sealCompliance.excluded.map((e) => e.source))).toEqual(new Set(['PURCHASE']));
  const page = await api.ok<Excluded>(EXCLUDED, { p: producer, first: 2, offset: 1 });
  expect(page.sealCompliance.excluded.map((e) => e.id)).toEqual(excludedIds.slice(1, 3));
  expect(page.sealCompliance.excludedCount).toBe(4);
  const past = await api.ok<Excluded>(EXCLUDED, { p: producer, first: 3, offset: 3 });
  expect(past.sealCompliance.excluded.map((e) => e.id)).toEqual(excludedIds.slice(3));
});

test('a page outside 1–1000, or a negative offset, is BAD_USER_INPUT on its argument', async () => {
  for (const [first, offset, field] of [[0, 0, 'first'], [1001, 0, 'first'], [2, -1, 'offset']] as const) {
    const res = await api.gql(EXCLUDED, { p: producer, first, offset });
    expect(res.errors?.map((e) => [e.extensions?.code, e.extensions?.field])).toEqual([['BAD_USER_INPUT', field]]);
  }
});

test('one response lists at most the bound of such items, whole lists and pages together', async () => {
  // 4 + 2 = 6: within the bound.
  const within = await api.ok<Record<string, { excluded: unknown[] }>>(`query($p: ID!) {
    a: sealCompliance(producerId: $p, year: 2025) { excluded { id } }
    b: sealCompliance(producerId: $p, year: 2025) { excluded(first: 2) { id } } }`, { p: producer });
  expect([within.a.excluded.length, within.b.excluded.length]).toEqual([4, 2]);
  // 4 + 4 = 8: whichever list is written second is refused, and says how to get it (the year is
  // not nullable, so the answer's data is null).
  const both = `query($p: ID!) {
    a: sealCompliance(producerId: $p, year: 2025) { excluded { id } }
    b: sealCompliance(producerId: $p, year: 2025) { excluded { id } } }`;
  const over = await api.gql(both, { p: producer });
  expect(over.status).toBe(200);
  expect(over.errors?.map((e) => e.extensions?.code)).toEqual(['QUERY_TOO_COMPLEX']);
  expect(['a.excluded', 'b.excluded']).toContain(over.errors?.[0].path?.join('.'));
  expect(over.errors?.[0].message).toBe(`excluded would list 4 items; one response lists at most ${MAX} of the long lists (excluded items, purchase credits): ask pages of it (excluded(first:, offset:), at most 1000 a page), or export it as CSV`);
  const pt = await api.gql(both, { p: producer }, undefined, { 'accept-language': 'pt-BR' });
  expect(pt.errors?.[0].message).toMatch(/^excluded listaria 4 itens; uma resposta lista no máximo 6 /);
  // The month's five purchase credits and a year's four excluded items: over the bound together.
  const mixed = await api.gql(`query($p: ID!) {
    a: taxPeriod(producerId: $p, year: 2025, month: 3) { credits { purchases { purchaseId } } }
    b: sealCompliance(producerId: $p, year: 2025) { excluded { id } } }`, { p: producer });
  expect(mixed.errors?.map((e) => e.extensions?.code)).toEqual(['QUERY_TOO_COMPLEX']);
});

test('a month\'s purchase credits: all of them, or a page, with their count', async () => {
  const q = `query($p: ID!, $first: Int, $offset: Int! = 0) { taxPeriod(producerId: $p, year: 2025, month: 3) { credits { purchaseCount purchases(first: $first, offset: $offset) { purchaseId } } } }`;
  type Credits = { taxPeriod: { credits: { purchaseCount: number; purchases: Array<{ purchaseId: string }> } } };
  const all = (await api.ok<Credits>(q, { p: producer })).taxPeriod.credits;
  expect(all.purchaseCount).toBe(5);
  expect(all.purchases).toHaveLength(5);
  const last = (await api.ok<Credits>(q, { p: producer, first: 2, offset: 4 })).taxPeriod.credits;
  expect(last.purchases).toEqual(all.purchases.slice(4));
  const bad = await api.gql(q, { p: producer, first: 1001 });
  expect(bad.errors?.map((e) => [e.extensions?.code, e.extensions?.field])).toEqual([['BAD_USER_INPUT', 'first']]);
});
