import { startTestApi, TestApi } from '../support/api';
import { efdProblems } from '../support/efd-layout';
import { createProducer, electSpecialRegime, FEIRA, grantSeal, newCpf, PORTO_ALEGRE, upsertMunicipalities } from '../support/fixtures';

/**
 * docs/LAW.md over real PostgreSQL: each segment's dues rounded half-even (ABNT NBR 5891) from the
 * unrounded computation, nothing rounded in SQL; the month's dues the sums of its segments' (parts
 * add up to the total), in the answer, the statement and the EFD-Contribuições. Amounts: FAMILY_FARMING 10,39 / 47,85
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

describe('the month is the sum of its segments\' rounded dues (docs/LAW.md, "Rounding of the month\'s dues")', () => {
  const sales = (producerId: string, list: Array<[string, string, string]>) =>
    api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: list.map(([soldOn, volumeM3, revenue]) => ({ producerId, soldOn, volumeM3, revenue, origin: 'OWN_PRODUCTION', market: 'DOMESTIC' })) });
  const month = (p: string, year: number, m: number) => api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: ${year}, month: ${m}) { regime pisDue cofinsDue totalDue segments { from sealRegular pisDue cofinsDue } } }`, { p });
  const get = async (path: string) => {
    const res = await fetch(api.url.replace('/graphql', path), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  /** The month's closed EFD-Contribuições, checked against the layout, as its lines. */
  const efd = async (p: string, year: number, m: number) => {
    await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: ${year}, month: ${m}) { status } }`, { p });
    const body = await get(`/export/efd?producer=${p}&year=${year}&month=${m}`);
    expect(efdProblems(body)).toEqual([]);
    const lines = body.toString('latin1').split('\r\n');
    return (...regs: string[]) => lines.filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  };
  const suspend = async (p: string, effectiveOn: string) => {
    const grant = (await api.ok(`query($p: ID!) { producer(id: $p) { sealGrants { id } } }`, { p })).producer.sealGrants[0].id;
    await api.ok(`mutation($g: ID!) { recordSealEvent(input: { grantId: $g, kind: SUSPENDED, effectiveOn: "${effectiveOn}", reason: "Auditoria" }) { id } }`, { g: grant });
  };

  test('family farming, the Selo suspended on 09-15: 0,1 m³ at 10,39 / 47,85 and 0,6 m³ at 26,41 / 121,59 → 16,89 / 77,73, in the statement and the EFD', async () => {
    const p = await producer();
    await suspend(p, '2026-09-15');
    const farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, { i: {
      cpf: newCpf(), name: 'Agricultor Setembro', municipalityCode: PORTO_ALEGRE, registrations: [{ kind: 'CAF', number: 'CAF-RND-09', validFrom: '2024-01-01', validUntil: '2027-12-31' }],
    } })).createFamilyFarmer.id;
    await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
      { producerId: p, feedstock: 'SOYBEAN', purchasedOn: '2026-09-02', quantityKg: '1000', cost: '5000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer, originMunicipalityCode: PORTO_ALEGRE },
    ] });
    await sales(p, [['2026-09-10', '0.1', '600'], ['2026-09-20', '0.6', '3600']]);
    const tp = (await month(p, 2026, 9)).taxPeriod;
    // art. 6º §2º: from 09-15 the family-farming lot falls back to GENERAL. PIS 0,1 × 10,39 = 1,039 → 1,04 and
    // 0,6 × 26,41 = 15,846 → 15,85: 16,89 (not the exact 16,885 rounded once, 16,88). Cofins 0,1 × 47,85 = 4,785 → 4,78
    // (8 even) and 0,6 × 121,59 = 72,954 → 72,95: 77,73 (not 77,739 → 77,74).
    expect(tp.segments.map((s: { sealRegular: boolean; pisDue: string; cofinsDue: string }) => [s.sealRegular, s.pisDue, s.cofinsDue])).toEqual([[true, '1.04', '4.78'], [false, '15.85', '72.95']]);
    expect([tp.pisDue, tp.cofinsDue, tp.totalDue]).toEqual(['16.89', '77.73', '94.62']);
    // The statement says the same.
    const csv = (await get(`/export/tax-period?producer=${p}&year=2026&month=9&format=csv`)).toString('utf8');
    expect(csv).toMatch(/PIS\/Pasep devido \(R\$\);16,89/);
    expect(csv).toMatch(/Cofins devida \(R\$\);77,73/);
    // The EFD: one M210/M610 line per rate (quantity × rate to the centavo), which add up to the month: no adjustment.
    const only = await efd(p, 2026, 9);
    expect(only('M210', 'M610').map((l) => l.split('|').slice(9, 12).join('|'))).toEqual(['0,600|26,4100|15,85', '0,100|10,3900|1,04', '0,600|121,5900|72,95', '0,100|47,8500|4,78']);
    expect(only('M220', 'M620')).toEqual([]);
    expect([only('M200')[0].split('|')[13], only('M600')[0].split('|')[13]]).toEqual(['16,89', '77,73']);
  });

  test('ad valorem, April 2026: R$ 30,00 on 04-06 and R$ 30,00 on 04-07 (the zero window cuts the month) → 1,84 + 1,84 = 3,68; 8,50 + 8,50 = 17,00', async () => {
    const p = await createProducer(api, 'Usina Ad Valorem', PORTO_ALEGRE);
    await sales(p, [['2026-04-06', '0.01', '30'], ['2026-04-07', '0.01', '30']]);
    const tp = (await month(p, 2026, 4)).taxPeriod;
    expect(tp.regime).toBe('AD_VALOREM');
    // Lei 11.116/2005, art. 3º: 30 × 6,15% = 1,845 → 1,84 (4 even); 30 × 28,32% = 8,496 → 8,50; each segment on its own
    // (rounding 60 × 6,15% = 3,69 and 16,992 → 16,99 once would not add up to the segments shown).
    expect(tp.segments.map((s: { from: string; pisDue: string; cofinsDue: string }) => [s.from, s.pisDue, s.cofinsDue])).toEqual([['2026-04-01', '1.84', '8.50'], ['2026-04-07', '1.84', '8.50']]);
    expect([tp.pisDue, tp.cofinsDue, tp.totalDue]).toEqual(['3.68', '17.00', '20.68']);
  });

  test('special regime, a trader\'s soy only (GENERAL), the Selo suspended on 09-15: 0,5 m³ on 09-10 and 09-20 → 26,40 / 121,60; the EFD adjusts its one rate line', async () => {
    const p = await producer();
    await suspend(p, '2026-09-15');
    await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
      { producerId: p, feedstock: 'SOYBEAN', purchasedOn: '2026-09-02', quantityKg: '1000', cost: '5000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA', originMunicipalityCode: PORTO_ALEGRE },
    ] });
    await sales(p, [['2026-09-10', '0.5', '3000'], ['2026-09-20', '0.5', '3000']]);
    const tp = (await month(p, 2026, 9)).taxPeriod;
    // Each half: 0,5 × 26,41 = 13,205 → 13,20 (0 even); 0,5 × 121,59 = 60,795 → 60,80 (9 odd: up). The month their sums.
    expect(tp.segments.map((s: { pisDue: string; cofinsDue: string }) => [s.pisDue, s.cofinsDue])).toEqual([['13.20', '60.80'], ['13.20', '60.80']]);
    expect([tp.pisDue, tp.cofinsDue, tp.totalDue]).toEqual(['26.40', '121.60', '148.00']);
    // The EFD's one rate line is 1,000 × 26,41 = 26,41 and 1,000 × 121,59 = 121,59; the segments' rounding is its
    // M220 reduction (0) of 0,01 and M620 increase (1) of 0,01, so M200/M600 are the month's dues.
    const only = await efd(p, 2026, 9);
    expect(only('M210', 'M610').map((l) => l.split('|').slice(9, 12).join('|'))).toEqual(['1,000|26,4100|26,41', '1,000|121,5900|121,59']);
    expect(only('M220', 'M620').map((l) => l.split('|').slice(1, 4).join('|'))).toEqual(['M220|0|0,01', 'M620|1|0,01']);
    expect([only('M200')[0].split('|')[13], only('M600')[0].split('|')[13]]).toEqual(['26,40', '121,60']);
  });
});
