import { Decimal } from '../../src/law/decimal';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, grantSeal, newCpf, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The segments of a month (docs/LAW.md): maximal runs of days over which the rules in force (as
 * known on asKnownOn; docs/LAW.md) and the Selo standing (Decreto 10.527/2020, art. 6º §2º) do not
 * change; each sale is taxed with the segment of its soldOn; each segment's dues are rounded
 * half-even to the centavo and the period's are their sums. Expected figures are worked out here
 * from the published amounts:
 *   GENERAL 26,41 / 121,59 (art. 5º §1º); CASTOR_PALM_PRIORITY_REGION 22,48 / 103,51 (art. 6º §1º I);
 *   FAMILY_FARMING 10,39 / 47,85 (art. 6º §1º II); FAMILY_FARMING_PRIORITY_REGION 0 / 0 (art. 6º §1º III);
 *   zero window (art. 5º §§2º–4º) from 2026-04-07: to 05-31 as published on 04-07, to 07-31 as
 *   extended (seeded as published on 05-31); ad valorem 6,15% / 28,32% (Lei 11.116/2005, art. 3º).
 */

const D = (v: string | number) => new Decimal(v);
const cent = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed();

const QUERY = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: $k) {
  asKnownOn regime pisDue cofinsDue totalDue warnings { code }
  segments { from to sealRegular ownProductionVolumeM3 importedVolumeM3 domesticRevenue blendedPisPerM3 blendedCofinsPerM3 pisDue cofinsDue legalBasis mix { category share pisPerM3 cofinsPerM3 } }
} }`;

let api: TestApi;
let farmerSouth: string;
let farmerRecife: string;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE]);
  const farmer = async (municipalityCode: string, n: string) => (await api.ok(
    `mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`,
    { i: { cpf: newCpf(), name: `Agricultora ${n}`, municipalityCode, registrations: [{ kind: 'CAF', number: n, validFrom: '2024-01-01', validUntil: '2027-12-31' }] } },
  )).createFamilyFarmer.id as string;
  farmerSouth = await farmer(PORTO_ALEGRE, 'CAF-SEG-S');
  farmerRecife = await farmer(RECIFE, 'CAF-SEG-R');
});
afterAll(async () => { await api.close(); });

/** SPECIAL_PER_M3 elected on 2025-11-03 (effective 2026, Lei 11.116/2005 art. 4º §1º) unless adValorem; a Selo grant. */
async function producer(opts: { adValorem?: boolean; grantUntil?: string } = {}) {
  const id = await createProducer(api, 'Usina Segmentos', RECIFE);
  if (!opts.adValorem) await electSpecialRegime(api, id);
  const grantId = await grantSeal(api, id, opts.grantUntil ?? '2027-12-31');
  return { id, grantId };
}
async function event(grantId: string, kind: string, effectiveOn: string, validUntil: string | null = null) {
  await api.ok(`mutation($i: SealEventInput!) { recordSealEvent(input: $i) { id } }`, { i: { grantId, kind, effectiveOn, validUntil, reason: kind === 'RENEWED' ? null : 'Portaria MDA (teste)' } });
}
async function purchases(producerId: string, lots: Array<{ on: string; kg: string; cost: string; kind: string; farmer?: string; origin: string; feedstock?: string }>) {
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: lots.map((l) => ({
    producerId, purchasedOn: l.on, feedstock: l.feedstock ?? 'SOYBEAN', quantityKg: l.kg, cost: l.cost, supplierKind: l.kind,
    familyFarmerId: l.farmer ?? null, supplierName: l.kind === 'THIRD_PARTY' ? 'Trading Grãos SA' : null, originMunicipalityCode: l.origin,
  })) });
}
async function sales(producerId: string, list: Array<{ on: string; m3: string; revenue?: string; origin?: string }>) {
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: list.map((s) => ({
    producerId, soldOn: s.on, volumeM3: s.m3, revenue: s.revenue ?? '100000', origin: s.origin ?? 'OWN_PRODUCTION', market: 'DOMESTIC',
  })) });
}
async function taxPeriod(producerId: string, year: number, month: number, asKnownOn?: string) {
  const tp = (await api.ok(QUERY, { p: producerId, y: year, m: month, k: asKnownOn ?? null })).taxPeriod;
  // docs/LAW.md: the period's dues are the sums of its segments' (parts add up to the total).
  const pis = tp.segments.reduce((s: Decimal, g: any) => s.plus(g.pisDue), D(0));
  const cofins = tp.segments.reduce((s: Decimal, g: any) => s.plus(g.cofinsDue), D(0));
  expect([D(tp.pisDue).toFixed(), D(tp.cofinsDue).toFixed(), D(tp.totalDue).toFixed()]).toEqual([pis.toFixed(), cofins.toFixed(), pis.plus(cofins).toFixed()]);
  return tp;
}
const spans = (tp: any) => tp.segments.map((s: any) => [s.from, s.to, s.sealRegular, s.ownProductionVolumeM3]);
const dues = (tp: any) => tp.segments.map((s: any) => [s.pisDue, s.cofinsDue]);

// A month's lots: R$ 3.000 from a family farmer of the Sul (art. 6º II) and R$ 1.000 from a third party (GENERAL).
// art. 6º §3º: PIS 0,75 × 10,39 + 0,25 × 26,41 = 7,7925 + 6,6025 = 14,395; Cofins 0,75 × 47,85 + 0,25 × 121,59 = 35,8875 + 30,3975 = 66,285.
const FF_GENERAL = { pis: D('14.395'), cofins: D('66.285') };

describe('the zero window as known on different days (art. 5º §§2º–4º; docs/LAW.md)', () => {
  test('April 2026 as known on 2026-04-06 (before Decreto 12.923/2026): one segment, all at the usual blend; as known on 2026-04-07: cut at the 7th', async () => {
    const { id } = await producer();
    await purchases(id, [
      { on: '2026-04-01', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER', farmer: farmerSouth, origin: PORTO_ALEGRE },
      { on: '2026-04-02', kg: '1000', cost: '1000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
    ]);
    await sales(id, [{ on: '2026-04-06', m3: '10' }, { on: '2026-04-07', m3: '20' }]);

    const before = await taxPeriod(id, 2026, 4, '2026-04-06');
    expect(spans(before)).toEqual([['2026-04-01', '2026-04-30', true, '30.000']]);
    // 30 m³ × 14,395 = 431,85; 30 × 66,285 = 1.988,55
    expect(dues(before)).toEqual([[cent(D(30).times(FF_GENERAL.pis)), cent(D(30).times(FF_GENERAL.cofins))]]);
    expect(dues(before)).toEqual([['431.85', '1988.55']]);

    const published = await taxPeriod(id, 2026, 4, '2026-04-07');
    expect(spans(published)).toEqual([['2026-04-01', '2026-04-06', true, '10.000'], ['2026-04-07', '2026-04-30', true, '20.000']]);
    // 10 m³ × 14,395 = 143,95; 10 × 66,285 = 662,85; the 7th on: R$ 0,00 for every category (§4º).
    expect(dues(published)).toEqual([['143.95', '662.85'], ['0.00', '0.00']]);
    expect(published.segments[1].mix.map((m: any) => [m.category, m.pisPerM3, m.cofinsPerM3])).toEqual([['FAMILY_FARMING', '0.00', '0.00'], ['GENERAL', '0.00', '0.00']]);
    expect([published.pisDue, published.cofinsDue]).toEqual(['143.95', '662.85']);
  });

  test('July 2026: general as known on 2026-05-20 and 2026-05-30 (the window then ended 05-31); zero as known on 2026-05-31, when the extension is seeded as published, and today', async () => {
    const { id } = await producer();
    await purchases(id, [
      { on: '2026-07-01', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER', farmer: farmerSouth, origin: PORTO_ALEGRE },
      { on: '2026-07-01', kg: '1000', cost: '1000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
    ]);
    await sales(id, [{ on: '2026-07-01', m3: '4' }, { on: '2026-07-31', m3: '6' }]);
    for (const k of ['2026-05-20', '2026-05-30']) {
      const tp = await taxPeriod(id, 2026, 7, k);
      expect(spans(tp)).toEqual([['2026-07-01', '2026-07-31', true, '10.000']]);
      expect(dues(tp)).toEqual([['143.95', '662.85']]); // 10 m³ × 14,395 and × 66,285
    }
    for (const k of ['2026-05-31', undefined]) {
      const tp = await taxPeriod(id, 2026, 7, k);
      expect(spans(tp)).toEqual([['2026-07-01', '2026-07-31', true, '10.000']]);
      expect([tp.pisDue, tp.cofinsDue, tp.totalDue]).toEqual(['0.00', '0.00', '0.00']);
    }
    // May 2026 is in the first version already: zero as known on 2026-05-20.
    await sales(id, [{ on: '2026-05-20', m3: '3' }]);
    const may = await taxPeriod(id, 2026, 5, '2026-05-20');
    expect(spans(may)).toEqual([['2026-05-01', '2026-05-31', true, '3.000']]);
    expect([may.pisDue, may.cofinsDue]).toEqual(['0.00', '0.00']);
  });

  test('imported biodiesel in the window: the GENERAL amount, which is R$ 0,00 from the 7th (art. 5º §3º; art. 6º §5º)', async () => {
    const { id } = await producer();
    await sales(id, [{ on: '2026-04-06', m3: '10', origin: 'IMPORTED' }, { on: '2026-04-07', m3: '10', origin: 'IMPORTED' }]);
    const tp = await taxPeriod(id, 2026, 4);
    // 10 m³ × 26,41 = 264,10; 10 × 121,59 = 1.215,90; then 10 × 0.
    expect(tp.segments.map((s: any) => [s.importedVolumeM3, s.pisDue, s.cofinsDue])).toEqual([['10.000', '264.10', '1215.90'], ['10.000', '0.00', '0.00']]);
    expect(tp.warnings.map((w: any) => w.code)).toEqual(expect.arrayContaining(['IMPORTED_BIODIESEL']));
  });
});

describe('the Selo standing cuts the month where it changes, events effective on their own day (art. 6º §2º; docs/LAW.md)', () => {
  // Castor bean from a family farmer of Recife (R$ 6.000) and soybean from a third party (R$ 4.000):
  // regular → art. 6º III: PIS 0,6 × 0 + 0,4 × 26,41 = 10,564; Cofins 0,4 × 121,59 = 48,636;
  // not regular → art. 6º I: PIS 0,6 × 22,48 + 0,4 × 26,41 = 13,488 + 10,564 = 24,052;
  //                          Cofins 0,6 × 103,51 + 0,4 × 121,59 = 62,106 + 48,636 = 110,742.
  const REGULAR = { pis: D('10.564'), cofins: D('48.636') };
  const LAPSED = { pis: D('24.052'), cofins: D('110.742') };
  const lots = (month: string) => [
    { on: `2026-${month}-01`, kg: '2000', cost: '6000', kind: 'FAMILY_FARMER', farmer: farmerRecife, origin: RECIFE, feedstock: 'CASTOR_BEAN' },
    { on: `2026-${month}-01`, kg: '2000', cost: '4000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
  ];

  test('suspended on 09-10, reinstated on 09-21: three segments; the suspension day is suspended, the reinstatement day regular', async () => {
    const { id, grantId } = await producer();
    await event(grantId, 'SUSPENDED', '2026-09-10');
    await event(grantId, 'REINSTATED', '2026-09-21');
    await purchases(id, lots('09'));
    await sales(id, [{ on: '2026-09-09', m3: '1' }, { on: '2026-09-10', m3: '2' }, { on: '2026-09-20', m3: '3' }, { on: '2026-09-21', m3: '4' }]);
    const tp = await taxPeriod(id, 2026, 9);
    expect(spans(tp)).toEqual([
      ['2026-09-01', '2026-09-09', true, '1.000'], ['2026-09-10', '2026-09-20', false, '5.000'], ['2026-09-21', '2026-09-30', true, '4.000'],
    ]);
    expect(tp.segments.map((s: any) => s.mix.map((m: any) => m.category))).toEqual([
      ['FAMILY_FARMING_PRIORITY_REGION', 'GENERAL'], ['CASTOR_PALM_PRIORITY_REGION', 'GENERAL'], ['FAMILY_FARMING_PRIORITY_REGION', 'GENERAL'],
    ]);
    expect(dues(tp)).toEqual([
      [cent(REGULAR.pis), cent(REGULAR.cofins)], //                         10,564 → 10,56; 48,636 → 48,64
      [cent(LAPSED.pis.times(5)), cent(LAPSED.cofins.times(5))], //         120,26; 553,71
      [cent(REGULAR.pis.times(4)), cent(REGULAR.cofins.times(4))], //       42,256 → 42,26; 194,544 → 194,54
    ]);
    expect(dues(tp)).toEqual([['10.56', '48.64'], ['120.26', '553.71'], ['42.26', '194.54']]);
    expect([tp.pisDue, tp.cofinsDue]).toEqual(['173.08', '796.89']);
  });

  test('cancelled on 10-15: regular to the 14th, not from the cancellation day on', async () => {
    const { id, grantId } = await producer();
    await event(grantId, 'CANCELLED', '2026-10-15');
    await purchases(id, lots('10'));
    await sales(id, [{ on: '2026-10-14', m3: '10' }, { on: '2026-10-15', m3: '10' }]);
    const tp = await taxPeriod(id, 2026, 10);
    expect(spans(tp)).toEqual([['2026-10-01', '2026-10-14', true, '10.000'], ['2026-10-15', '2026-10-31', false, '10.000']]);
    // 10 × 10,564 = 105,64; 10 × 48,636 = 486,36 | 10 × 24,052 = 240,52; 10 × 110,742 = 1.107,42
    expect(dues(tp)).toEqual([['105.64', '486.36'], ['240.52', '1107.42']]);
    expect(tp.warnings.map((w: any) => w.code)).toContain('SEAL_NOT_REGULAR');
  });

  test('a grant valid until 11-10 lapses on the 11th; renewed before it lapses, the month is not cut (renewals move validUntil)', async () => {
    const lapsing = await producer({ grantUntil: '2026-11-10' });
    const renewed = await producer({ grantUntil: '2026-11-10' });
    await event(renewed.grantId, 'RENEWED', '2026-11-05', '2028-11-10');
    for (const p of [lapsing, renewed]) {
      await purchases(p.id, lots('11'));
      await sales(p.id, [{ on: '2026-11-10', m3: '10' }, { on: '2026-11-11', m3: '10' }]);
    }
    const a = await taxPeriod(lapsing.id, 2026, 11);
    expect(spans(a)).toEqual([['2026-11-01', '2026-11-10', true, '10.000'], ['2026-11-11', '2026-11-30', false, '10.000']]);
    expect(dues(a)).toEqual([['105.64', '486.36'], ['240.52', '1107.42']]);
    const b = await taxPeriod(renewed.id, 2026, 11);
    expect(spans(b)).toEqual([['2026-11-01', '2026-11-30', true, '20.000']]);
    expect(dues(b)).toEqual([['211.28', '972.72']]); // 20 × 10,564; 20 × 48,636
  });
});

test('ad valorem April 2026: the same two segments, each rounded half-even, the period their sum (Lei 11.116/2005, art. 3º; docs/LAW.md)', async () => {
  const { id } = await producer({ adValorem: true });
  await sales(id, [{ on: '2026-04-06', m3: '1', revenue: '1000.10' }, { on: '2026-04-07', m3: '2', revenue: '2000.10' }]);
  const tp = await taxPeriod(id, 2026, 4);
  expect(tp.regime).toBe('AD_VALOREM');
  expect(tp.segments.map((s: any) => [s.from, s.to, s.domesticRevenue])).toEqual([['2026-04-01', '2026-04-06', '1000.10'], ['2026-04-07', '2026-04-30', '2000.10']]);
  // PIS: 1.000,10 × 6,15% = 61,50615 → 61,51; 2.000,10 × 6,15% = 123,00615 → 123,01; the period 184,52
  // (rounding the month at once would give 3.000,20 × 6,15% = 184,5123 → 184,51: parts must add up).
  // Cofins: 1.000,10 × 28,32% = 283,22832 → 283,23; 2.000,10 × 28,32% = 566,42832 → 566,43; the period 849,66.
  // The zero window does not touch ad valorem (art. 5º reduces only the per-m³ amounts).
  expect(dues(tp)).toEqual([['61.51', '283.23'], ['123.01', '566.43']]);
  expect([tp.pisDue, tp.cofinsDue, tp.totalDue]).toEqual(['184.52', '849.66', '1034.18']);
  expect(tp.warnings.map((w: any) => w.code)).toEqual(['NO_REGIME_ELECTION']);
});

test('December 2026 is the last month with PIS/Cofins; January 2027 owes none, naming EC 132/2023 (ADCT art. 126, II), under either regime', async () => {
  const special = await producer();
  const adValorem = await producer({ adValorem: true });
  for (const { id } of [special, adValorem]) {
    await sales(id, [{ on: '2026-12-31', m3: '1', revenue: '1000' }]);
    const dec = await taxPeriod(id, 2026, 12);
    expect(dec.segments.map((s: any) => [s.from, s.to])).toEqual([['2026-12-01', '2026-12-31']]);
    const jan = (await api.ok(QUERY, { p: id, y: 2027, m: 1, k: null })).taxPeriod;
    expect(jan.segments.map((s: any) => [s.from, s.to, s.pisDue, s.cofinsDue])).toEqual([['2027-01-01', '2027-01-31', '0.00', '0.00']]);
    expect(jan.segments[0].legalBasis).toContain('EC 132/2023, ADCT art. 126, II');
  }
  // 1 m³ with no feedstock at GENERAL: 26,41 / 121,59; ad valorem on R$ 1.000: 61,50 / 283,20.
  expect([(await taxPeriod(special.id, 2026, 12)).pisDue, (await taxPeriod(adValorem.id, 2026, 12)).pisDue]).toEqual(['26.41', '61.50']);
});
