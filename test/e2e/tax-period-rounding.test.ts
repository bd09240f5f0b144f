import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, FEIRA, grantSeal, newCpf, PORTO_ALEGRE, upsertMunicipalities } from '../support/fixtures';

/**
 * docs/LAW.md over real PostgreSQL: each segment's dues rounded half-even (ABNT NBR 5891) from the
 * unrounded computation, nothing rounded in SQL. Amounts: FAMILY_FARMING 10,39 / 47,85
 * (Decreto 10.527/2020, art. 6º §1º II); GENERAL 26,41 / 121,59 (art. 5º §1º);
 * CASTOR_PALM_PRIORITY_REGION 22,48 / 103,51 (art. 6º §1º I).
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [PORTO_ALEGRE, FEIRA]);
});
afterAll(async () => { await api.close(); });

async function producer(): Promise<string> {
  const id = await createProducer(api, 'Usina Arredondamento', PORTO_ALEGRE);
  await electSpecialRegime(api, id);
  await grantSeal(api, id);
  return id;
}
const record = (producerId: string, lots: object[], saleM3: string) => Promise.all([
  api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: lots.map((l) => ({ producerId, feedstock: 'SOYBEAN', ...l })) }),
  api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId, soldOn: '2026-02-20', volumeM3: saleM3, revenue: '100000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }] }),
]);
const Q = `query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 2) { pisDue cofinsDue feedstockCost segments { blendedPisPerM3 mix { category cost share } } } }`;

test('a half-centavo tie after a blend in sevenths goes to the even centavo', async () => {
  const p = await producer();
  const farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, { i: {
    cpf: newCpf(), name: 'Agricultora', municipalityCode: PORTO_ALEGRE, registrations: [{ kind: 'CAF', number: 'CAF-RND', validFrom: '2024-01-01', validUntil: '2027-12-31' }],
  } })).createFamilyFarmer.id;
  await record(p, [
    { purchasedOn: '2026-02-02', quantityKg: '1000', cost: '1000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer, originMunicipalityCode: PORTO_ALEGRE },
    { purchasedOn: '2026-02-03', quantityKg: '3000', cost: '6000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA', originMunicipalityCode: PORTO_ALEGRE },
  ], '35.7');
  const tp = (await api.ok(Q, { p })).taxPeriod;
  // Weights 1.000 : 6.000. PIS 35,7 × (1.000 × 10,39 + 6.000 × 26,41) / 7.000 = 5,1 × 168,85 = 861,135 → 861,14 (3 odd: up);
  // Cofins 5,1 × (47,85 + 6 × 121,59) = 5,1 × 777,39 = 3.964,689 → 3.964,69.
  expect([tp.pisDue, tp.cofinsDue]).toEqual(['861.14', '3964.69']);
  expect(tp.segments[0].blendedPisPerM3).toBe('24.121429'); // 168,85 / 7 shown to 6 decimals
});

test('own production valued at R$ 2/3 per kg (art. 6º §4º) weighs exactly: 83,305 goes to 83,30', async () => {
  const p = await producer();
  await record(p, [
    { purchasedOn: '2026-02-02', feedstock: 'CASTOR_BEAN', quantityKg: '500', supplierKind: 'OWN_PRODUCTION', originMunicipalityCode: FEIRA },
    { purchasedOn: '2026-02-03', quantityKg: '3000', cost: '2000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA', originMunicipalityCode: PORTO_ALEGRE },
  ], '0.7');
  const tp = (await api.ok(Q, { p })).taxPeriod;
  // 500 kg × 2.000 / 3.000 = 333,333… (art. 6º I) against 2.000 (GENERAL): 1 : 6. 0,7 m³:
  // PIS 0,1 × (22,48 + 6 × 26,41) = 18,094 → 18,09; Cofins 0,1 × (103,51 + 6 × 121,59) = 83,305 → 83,30 (0 even).
  expect([tp.pisDue, tp.cofinsDue]).toEqual(['18.09', '83.30']);
  expect(tp.segments[0].mix).toEqual([
    { category: 'CASTOR_PALM_PRIORITY_REGION', cost: '333.33', share: '0.142857' }, { category: 'GENERAL', cost: '2000.00', share: '0.857143' },
  ]);
  expect(tp.feedstockCost).toBe('2333.33');
});
