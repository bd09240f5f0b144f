import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, FEIRA, grantSeal, newCpf, nfeKey, PORTO_ALEGRE, producerCnpj, upsertMunicipalities } from '../support/fixtures';

/**
 * Purchase returns in the tax month's blend (Lei 11.116/2005, art. 5º §§4º–5º; Decreto
 * 10.527/2020, art. 6º §§2º–4º; docs/LAW.md, "Returns"). Amounts per m³: GENERAL 26,41 / 121,59;
 * CASTOR_PALM_PRIORITY_REGION 22,48 / 103,51; FAMILY_FARMING 10,39 / 47,85. The Selo is regular
 * throughout; the family farmer's CAF lapses on 2026-09-15.
 */
let api: TestApi;
let farmer: string;
beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [PORTO_ALEGRE, FEIRA]);
  farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, { i: {
    cpf: newCpf(), name: 'Agricultora de Porto Alegre', municipalityCode: PORTO_ALEGRE,
    registrations: [{ kind: 'CAF', number: 'RS-CAF-2026-9', validFrom: '2025-01-01', validUntil: '2026-09-15' }],
  } })).createFamilyFarmer.id;
});
afterAll(async () => { await api.close(); });

const QUERY = `query($p: ID!, $m: Int!) { taxPeriod(producerId: $p, year: 2026, month: $m) {
  pisDue cofinsDue feedstockCost ownProductionPricePerKg blendPeriod { year month } warnings { code message } segments { mix { category cost quantityKg } } } }`;
const month = async (p: string, m: number) => (await api.ok(QUERY, { p, m })).taxPeriod;
const codes = (tp: { warnings: Array<{ code: string }> }) => tp.warnings.map((w) => w.code);

interface Lot { on: string; kg: string; cost?: string; kind: 'FAMILY_FARMER' | 'THIRD_PARTY' | 'OWN_PRODUCTION'; feedstock?: string; origin?: string }

/** A producer under the special regime with the Selo; its lots, each with its own NF-e (n = index + 1). */
async function producer(name: string, lots: Lot[]) {
  const p = await createProducer(api, name, FEIRA);
  await electSpecialRegime(api, p);
  await grantSeal(api, p);
  const cnpj = await producerCnpj(api, p);
  const ids: string[] = (await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: lots.map((l, n) => ({
    producerId: p, purchasedOn: l.on, feedstock: l.feedstock ?? 'SOYBEAN', quantityKg: l.kg, cost: l.cost ?? null, supplierKind: l.kind,
    familyFarmerId: l.kind === 'FAMILY_FARMER' ? farmer : null, supplierName: l.kind === 'THIRD_PARTY' ? 'Trading Grãos SA' : null,
    originMunicipalityCode: l.origin ?? PORTO_ALEGRE, invoiceKey: l.kind === 'OWN_PRODUCTION' ? null : nfeKey(cnpj, n + 1),
  })) })).recordPurchases.map((r: { id: string }) => r.id);
  const giveBack = async (lot: number, returnedOn: string, quantity: string, value: string) => {
    await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: nfeKey(cnpj, lot + 1), purchaseId: ids[lot], returnedOn, quantity, value }] });
  };
  const sell = async (soldOn: string) => {
    await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId: p, soldOn, volumeM3: '1', revenue: '5000' }] });
  };
  return { p, giveBack, sell };
}

describe('a returned lot is judged as its original purchase (Decreto 10.527/2020, art. 6º §2º)', () => {
  test('the farmer\'s lot half returned after the CAF lapsed takes back family farming, not general', async () => {
    const { p, giveBack, sell } = await producer('Usina Devolve Familiar', [
      { on: '2026-09-05', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER' },
      { on: '2026-09-06', kg: '1000', cost: '2000', kind: 'THIRD_PARTY' },
    ]);
    await sell('2026-09-25');
    await giveBack(0, '2026-09-20', '500', '1500');
    // Family farming 3.000 − 1.500 = 1.500 (the lot as on 09-05, CAF valid), general 2.000:
    // PIS (1.500 × 10,39 + 2.000 × 26,41) / 3.500 = 68.405 / 3.500 = 19,5442… → 19,54;
    // Cofins (1.500 × 47,85 + 2.000 × 121,59) / 3.500 = 314.955 / 3.500 = 89,9871… → 89,99.
    // (Judged on 09-20, the return took 1.500 from GENERAL: 12,68 / 58,38.)
    const sep = await month(p, 9);
    expect([sep.pisDue, sep.cofinsDue, sep.feedstockCost]).toEqual(['19.54', '89.99', '3500.00']);
    expect(sep.segments[0].mix).toEqual([
      { category: 'FAMILY_FARMING', cost: '1500.00', quantityKg: '500.000' }, { category: 'GENERAL', cost: '2000.00', quantityKg: '1000.000' },
    ]);
    expect(codes(sep)).toEqual([]);
  });

  test('without a general lot the return reduces its own lot, never vanishes', async () => {
    const { p, giveBack, sell } = await producer('Usina Devolve Só Familiar', [{ on: '2026-09-05', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER' }]);
    await sell('2026-09-25');
    await giveBack(0, '2026-09-20', '500', '1500');
    // Family farming alone: 1 m³ × 10,39 / 47,85, of a cost of 3.000 − 1.500 = 1.500 (the return
    // judged on 09-20 was a negative GENERAL group dropped: the cost stayed 3.000).
    const sep = await month(p, 9);
    expect([sep.pisDue, sep.cofinsDue, sep.feedstockCost]).toEqual(['10.39', '47.85', '1500.00']);
    expect(sep.segments[0].mix).toEqual([{ category: 'FAMILY_FARMING', cost: '1500.00', quantityKg: '500.000' }]);
  });

  test('a category returned beyond its use in the month weighs nothing and is named (RETURN_EXCEEDS_USE)', async () => {
    const { p, giveBack, sell } = await producer('Usina Devolve Mês Anterior', [
      { on: '2026-08-05', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER' },
      { on: '2026-09-06', kg: '1000', cost: '2000', kind: 'THIRD_PARTY' },
    ]);
    await sell('2026-09-25');
    // August's farmer lot (used in August) half back in September: family farming −1.500 in
    // September, general 2.000. A negative weight would give (2.000 × 26,41 − 1.500 × 10,39) / 500
    // = 74,47, beyond every published amount: the category weighs nothing, GENERAL alone applies.
    await giveBack(0, '2026-09-20', '500', '1500');
    const sep = await month(p, 9);
    expect([sep.pisDue, sep.cofinsDue]).toEqual(['26.41', '121.59']);
    expect(sep.segments[0].mix).toEqual([{ category: 'GENERAL', cost: '2000.00', quantityKg: '1000.000' }]);
    expect(codes(sep)).toEqual(['RETURN_EXCEEDS_USE']);
    expect(sep.warnings[0].message).toContain('FAMILY_FARMING raw material returned in the period exceeds that used in it by R$ 1500.00 (500.000 kg');
    // August stays as it was: family farming alone.
    await sell('2026-08-25');
    expect([(await month(p, 8)).pisDue, codes(await month(p, 8))]).toEqual(['10.39', []]);
  });
});

test('an earlier month\'s lot returned leaves this month\'s average price of art. 6º §4º alone', async () => {
  const { p, giveBack, sell } = await producer('Usina Devolve Preço', [
    { on: '2026-11-03', kg: '1000', cost: '1000', kind: 'THIRD_PARTY' },
    { on: '2026-12-02', kg: '1000', kind: 'OWN_PRODUCTION', feedstock: 'CASTOR_BEAN', origin: FEIRA },
    { on: '2026-12-03', kg: '1000', cost: '2000', kind: 'THIRD_PARTY' },
  ]);
  await sell('2026-12-20');
  // 900 kg / R$ 900 of November's lot A back on 12-05. The raw material acquired in December is lot
  // B alone: R$ 2.000 / 1.000 kg = R$ 2,00 per kg (with the return: 1.100 / 100 kg = R$ 11,00).
  // Own castor from Feira de Santana worth 2.000 (art. 6º I); GENERAL lot B 2.000 less the return's
  // 900, which reduces the raw material used of the month of the return (docs/LAW.md, "Returns"):
  // PIS (2.000 × 22,48 + 1.100 × 26,41) / 3.100 = 74.011 / 3.100 = 23,8745… → 23,87;
  // Cofins (2.000 × 103,51 + 1.100 × 121,59) / 3.100 = 340.769 / 3.100 = 109,9254… → 109,93
  // (at R$ 11,00: 22,84 / 105,15).
  await giveBack(0, '2026-12-05', '900', '900');
  const dec = await month(p, 12);
  expect([dec.ownProductionPricePerKg, dec.pisDue, dec.cofinsDue, dec.feedstockCost]).toEqual(['2.00', '23.87', '109.93', '3100.00']);
  expect(dec.segments[0].mix).toEqual([
    { category: 'CASTOR_PALM_PRIORITY_REGION', cost: '2000.00', quantityKg: '1000.000' }, { category: 'GENERAL', cost: '1100.00', quantityKg: '100.000' },
  ]);
});

test('a stock-only month passes over an earlier month whose raw material all went back', async () => {
  const { p, giveBack, sell } = await producer('Usina Devolve Tudo', [
    { on: '2026-08-05', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER' },
    { on: '2026-09-06', kg: '1000', cost: '2000', kind: 'THIRD_PARTY' },
  ]);
  // September's lot goes back whole on 09-20: September used no raw material, net. October sells
  // 1 m³ from stock and takes the blend of August, the latest earlier month with raw material used
  // (art. 6º §3º; docs/LAW.md): family farming alone, 10,39 / 47,85 (not September's empty blend,
  // which fell to GENERAL 26,41 / 121,59).
  await giveBack(1, '2026-09-20', '1000', '2000');
  await sell('2026-10-15');
  const oct = await month(p, 10);
  expect([oct.pisDue, oct.cofinsDue, oct.blendPeriod, codes(oct)]).toEqual(['10.39', '47.85', { year: 2026, month: 8 }, ['BLEND_OF_EARLIER_PERIOD']]);
  expect(oct.segments[0].mix).toEqual([{ category: 'FAMILY_FARMING', cost: '3000.00', quantityKg: '1000.000' }]);
  // September itself looks back to August too.
  expect((await month(p, 9)).blendPeriod).toEqual({ year: 2026, month: 8 });
});
