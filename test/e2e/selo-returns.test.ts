import { startTestApi, TestApi } from '../support/api';
import { createProducer, FEIRA, newCpf, nfeKey, PORTO_ALEGRE, producerCnpj, RECIFE } from '../support/fixtures';
import { contract, setUpSeloYear } from '../support/selo-year';

/**
 * A purchase returned in part lowers the Selo year of the return (Portaria MDA nº 28/2024 counts
 * the acquisitions made; docs/LAW.md, "Returns"): judged as its original, counted in its own year.
 * Factors as in compliance.test.ts: Recife (Nordeste) d 4, Porto Alegre (Sul) 1; priority-region
 * minimum 15 % in 2025, 20 % in 2026.
 */
let api: TestApi;
let farmer: string;
const KNOWN = '2026-11-30';
beforeAll(async () => {
  api = await startTestApi();
  farmer = await setUpSeloYear(api);
});
afterAll(async () => { await api.close(); });

const YEAR = `query($p: ID!, $y: Int!, $k: Date) { sealCompliance(producerId: $p, year: $y, asKnownOn: $k) {
  base actualTotal familyFarmingAcquisitions minimumShare { weightedTotal achievedShare } priorityRegion { amount share } spending { count actual region } } }`;
const RETURNS = `mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`;
const figures = async (p: string, y: number) => {
  const c = (await api.ok(YEAR, { p, y, k: KNOWN })).sealCompliance;
  return [c.base, c.actualTotal, c.familyFarmingAcquisitions, c.minimumShare.weightedTotal, c.minimumShare.achievedShare, c.priorityRegion.amount, c.priorityRegion.share];
};

test('a Selo year before and after a partial purchase return; a return of the next year leaves it as it was', async () => {
  const p = await createProducer(api, 'Usina Devolve Lote', RECIFE);
  const cnpj = await producerCnpj(api, p);
  const k2025 = await contract(api, p, { farmer });
  const k2026 = await contract(api, p, { farmer, signedOn: '2026-01-02', validFrom: '2026-01-02', validUntil: '2026-12-31' });
  const lot = (on: string, cost: string, k: string, origin: string, n: number) => ({
    producerId: p, purchasedOn: on, feedstock: 'SOYBEAN', quantityKg: '1000', cost, supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer,
    originMunicipalityCode: origin, contractId: k, purpose: 'BIODIESEL_FEEDSTOCK', invoiceKey: nfeKey(cnpj, n),
  });
  const [south, recife] = (await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    lot('2025-03-01', '50000', k2025, PORTO_ALEGRE, 1), lot('2025-04-01', '30000', k2025, RECIFE, 2), lot('2026-01-15', '10000', k2026, RECIFE, 3),
  ] })).recordPurchases;
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [
    { producerId: p, soldOn: '2025-05-01', volumeM3: '10', revenue: '100000', market: 'DOMESTIC', origin: 'OWN_PRODUCTION' },
    { producerId: p, soldOn: '2026-05-01', volumeM3: '10', revenue: '100000', market: 'DOMESTIC', origin: 'OWN_PRODUCTION' },
  ] });

  // 2025 before: actual 50.000 + 30.000 = 80.000; weighted 50.000 × 1 + 30.000 × 4 = 170.000,
  // 170.000 / 100.000 = 1,7; priority region (Recife) 30.000 / 80.000 = 0,375.
  expect(await figures(p, 2025)).toEqual(['100000.00', '80000.00', '80000.00', '170000.00', '1.7', '30000.00', '0.375']);

  // 400 kg of the Recife lot (R$ 12.000) go back in June: actual 80.000 − 12.000 = 68.000; weighted
  // 50.000 + 18.000 × 4 = 122.000, 1,22; priority 18.000 / 68.000 = 0,2647058… → 0,264706.
  await api.ok(RETURNS, { i: [{ originalKey: nfeKey(cnpj, 2), purchaseId: recife.id, returnedOn: '2025-06-10', quantity: '400', value: '12000' }] });
  const after = ['100000.00', '68000.00', '68000.00', '122000.00', '1.22', '18000.00', '0.264706'];
  expect(await figures(p, 2025)).toEqual(after);
  // The return takes from the Recife lot's own group, which still counts one purchase.
  const spending = (await api.ok(YEAR, { p, y: 2025, k: KNOWN })).sealCompliance.spending;
  expect(spending.map((g: { count: number; actual: string; region: string }) => [g.region, g.count, g.actual]).sort()).toEqual([['NORTHEAST', 1, '18000.00'], ['SOUTH', 1, '50000.00']]);

  // 2026 before: 10.000 from Recife, weighted 40.000, 0,4, all of it priority region.
  expect(await figures(p, 2026)).toEqual(['100000.00', '10000.00', '10000.00', '40000.00', '0.4', '10000.00', '1']);
  // 100 kg of the 2025 Porto Alegre lot (R$ 5.000) back in February 2026: 2025 stays as it was;
  // 2026 loses it as judged in 2025 (Sul, factor 1): actual 5.000, weighted 35.000, 0,35; priority 10.000 / 5.000 = 2.
  await api.ok(RETURNS, { i: [{ originalKey: nfeKey(cnpj, 1), purchaseId: south.id, returnedOn: '2026-02-01', quantity: '100', value: '5000' }] });
  expect(await figures(p, 2025)).toEqual(after);
  expect(await figures(p, 2026)).toEqual(['100000.00', '5000.00', '5000.00', '35000.00', '0.35', '10000.00', '2']);
  // Purchase.selo still speaks of the purchase itself, not of its returns.
  expect((await api.ok(`query($id: ID!) { purchase(id: $id) { selo(asKnownOn: "${KNOWN}") { counts } } }`, { id: recife.id })).purchase.selo.counts).toBe(true);
});

test('the program\'s year: a return filed in it serves no family and is no purchase of it', async () => {
  const p = await createProducer(api, 'Usina Devolve ao Sertão', RECIFE);
  const cnpj = await producerCnpj(api, p);
  const cpf = newCpf();
  const sertanejo = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
    i: { cpf, name: 'Agricultor de Feira', municipalityCode: FEIRA, registrations: [{ kind: 'CAF', number: `CAF-${cpf}`, validFrom: '2023-01-01', validUntil: '2027-12-31' }] },
  })).createFamilyFarmer.id;
  const k = await contract(api, p, { farmer: sertanejo });
  const [lot] = (await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [{
    producerId: p, purchasedOn: '2025-04-01', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '4000', supplierKind: 'FAMILY_FARMER', familyFarmerId: sertanejo,
    originMunicipalityCode: FEIRA, contractId: k, purpose: 'BIODIESEL_FEEDSTOCK', invoiceKey: nfeKey(cnpj, 1),
  }] })).recordPurchases;
  await api.ok(RETURNS, { i: [{ originalKey: nfeKey(cnpj, 1), purchaseId: lot.id, returnedOn: '2026-03-01', quantity: '1000', value: '4000' }] });
  const o = (await api.ok(`query { programOverview(year: 2026, asKnownOn: "${KNOWN}") {
    byState { state actual count } families { familyFarmers byState { state familyFarmers } byMunicipality { name familyFarmers } } } }`)).programOverview;
  // 2026 holds one purchase (the first test's 10.000 from Recife) and two returns of 2025 lots: the
  // Porto Alegre one (−5.000) and this one from Feira (−4.000). Each state keeps its amount; only
  // the purchase counts, and only its farmer (of Recife) is served.
  expect(o.byState).toEqual([
    { state: 'BA', actual: '-4000.00', count: 0 }, { state: 'PE', actual: '10000.00', count: 1 }, { state: 'RS', actual: '-5000.00', count: 0 },
  ]);
  expect(o.families).toEqual({ familyFarmers: 1, byState: [{ state: 'PE', familyFarmers: 1 }], byMunicipality: [{ name: 'Recife', familyFarmers: 1 }] });
});
