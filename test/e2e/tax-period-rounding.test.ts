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

describe('one figure per month (Lei 11.116/2005, arts. 3º and 4º): a cut that changes no amount changes no centavo', () => {
  const sales = (producerId: string, list: Array<[string, string, string]>) =>
    api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: list.map(([soldOn, volumeM3, revenue]) => ({ producerId, soldOn, volumeM3, revenue, origin: 'OWN_PRODUCTION', market: 'DOMESTIC' })) });
  const month = (p: string, year: number, m: number) => api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: ${year}, month: ${m}) { regime pisDue cofinsDue totalDue segments { from pisDue cofinsDue } } }`, { p });

  test('ad valorem, April 2026: R$ 30,00 on 04-06 and on 04-07 (the zero window cuts the month) → 60 × 6,15% = 3,69; 60 × 28,32% = 16,992 → 16,99', async () => {
    const p = await createProducer(api, 'Usina Ad Valorem', PORTO_ALEGRE);
    await sales(p, [['2026-04-06', '0.01', '30'], ['2026-04-07', '0.01', '30']]);
    const tp = (await month(p, 2026, 4)).taxPeriod;
    expect(tp.regime).toBe('AD_VALOREM');
    // Each segment shown alone: 1,845 → 1,84 and 8,496 → 8,50; the month is not their sum (3,68 / 17,00).
    expect(tp.segments.filter((s: { pisDue: string }) => s.pisDue !== '0.00').map((s: { pisDue: string; cofinsDue: string }) => [s.pisDue, s.cofinsDue])).toEqual([['1.84', '8.50'], ['1.84', '8.50']]);
    expect([tp.pisDue, tp.cofinsDue, tp.totalDue]).toEqual(['3.69', '16.99', '20.68']);
  });

  test('special regime, a trader\'s soy only (GENERAL), the Selo suspended on 09-15: 0,5 m³ on 09-10 and 09-20 → 26,41 and 121,59', async () => {
    const p = await producer();
    const grant = (await api.ok(`query($p: ID!) { producer(id: $p) { sealGrants { id } } }`, { p })).producer.sealGrants[0].id;
    await api.ok(`mutation($g: ID!) { recordSealEvent(input: { grantId: $g, kind: SUSPENDED, effectiveOn: "2026-09-15", reason: "Auditoria" }) { id } }`, { g: grant });
    await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
      { producerId: p, feedstock: 'SOYBEAN', purchasedOn: '2026-09-02', quantityKg: '1000', cost: '5000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA', originMunicipalityCode: PORTO_ALEGRE },
    ] });
    await sales(p, [['2026-09-10', '0.5', '3000'], ['2026-09-20', '0.5', '3000']]);
    const tp = (await month(p, 2026, 9)).taxPeriod;
    // Each half alone: 13,205 → 13,20 and 60,795 → 60,80; the month 1 × 26,41 and 1 × 121,59 (not 26,40 / 121,60).
    expect(tp.segments.map((s: { pisDue: string; cofinsDue: string }) => [s.pisDue, s.cofinsDue])).toEqual([['13.20', '60.80'], ['13.20', '60.80']]);
    expect([tp.pisDue, tp.cofinsDue, tp.totalDue]).toEqual(['26.41', '121.59', '148.00']);
  });
});
