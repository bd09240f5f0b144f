import { Decimal } from '../../src/law/decimal';
import { today } from '../../src/law/dates';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, FEIRA, grantSeal, newCnpj, newCpf, PORTO_ALEGRE, RECIFE, upsertMunicipalities, publishMemberMinimum } from '../support/fixtures';

/**
 * Monthly PIS/Cofins over real PostgreSQL (issue 4; docs/LAW.md). Every expected figure is
 * worked out here from the amounts the decree publishes, never copied from the code's output:
 *   GENERAL                         R$ 26,41 / 121,59 per m³  (Decreto 10.527/2020, art. 5º §1º)
 *   CASTOR_PALM_PRIORITY_REGION     R$ 22,48 / 103,51         (art. 6º I and §1º I)
 *   FAMILY_FARMING                  R$ 10,39 /  47,85         (art. 6º II and §1º II)
 *   FAMILY_FARMING_PRIORITY_REGION  R$  0,00 /   0,00         (art. 6º III and §1º III)
 *   zero window 2026-04-07..07-31   R$  0,00 /   0,00         (art. 5º §§2º–4º)
 *   ad valorem                      6,15% / 28,32%            (Lei 11.116/2005, art. 3º)
 */

const D = (v: string | number) => new Decimal(v);
const AMOUNTS = {
  GENERAL: { pis: D('26.41'), cofins: D('121.59') },
  CASTOR_PALM_PRIORITY_REGION: { pis: D('22.48'), cofins: D('103.51') },
  FAMILY_FARMING: { pis: D('10.39'), cofins: D('47.85') },
  FAMILY_FARMING_PRIORITY_REGION: { pis: D('0'), cofins: D('0') },
};
type Category = keyof typeof AMOUNTS;
const AD_VALOREM = { pis: D('0.0615'), cofins: D('0.2832') };
/** ABNT NBR 5891: half-even to the centavo (docs/LAW.md). */
const cent = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
const six = (d: Decimal) => d.toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toFixed();
/** art. 6º §3º: Σ weight × amount / Σ weight, unrounded. */
function blend(parts: Array<[Decimal, Category]>) {
  const total = parts.reduce((s, [w]) => s.plus(w), D(0));
  const pis = parts.reduce((s, [w, c]) => s.plus(w.times(AMOUNTS[c].pis)), D(0)).div(total);
  const cofins = parts.reduce((s, [w, c]) => s.plus(w.times(AMOUNTS[c].cofins)), D(0)).div(total);
  return { pis, cofins, share: (w: Decimal) => six(w.div(total)) };
}

const TP = `fragment TP on TaxPeriod {
  year month asKnownOn status regime feedstockCost ownProductionPricePerKg ownProductionValuation domesticVolumeM3 importedVolumeM3 exportedVolumeM3
  pisDue cofinsDue totalDue warnings { code message } recomputedDiffers differences { field closed recomputed } fingerprint
  segments { from to sealRegular blendedPisPerM3 blendedCofinsPerM3 ownProductionVolumeM3 importedVolumeM3 exportedVolumeM3 domesticRevenue pisDue cofinsDue
    mix { category cost share coefficient pisPerM3 cofinsPerM3 legalBasis } }
}`;
const QUERY = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: $k) { ...TP } } ${TP}`;

let api: TestApi;
const world = {} as Record<'farmerSouth' | 'farmerRecife' | 'association' | 'coopUnhabilitated' | 'coopHabilitated', string>;
const CAF = (n: string) => [{ kind: 'CAF', number: n, validFrom: '2024-01-01', validUntil: '2027-12-31' }];

beforeAll(async () => {
  api = await startTestApi();
  await publishMemberMinimum(api);
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE, FEIRA]);
  const farmer = async (municipalityCode: string, n: string) => (await api.ok(
    `mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`,
    { i: { cpf: newCpf(), name: `Agricultora ${n}`, municipalityCode, registrations: CAF(n) } },
  )).createFamilyFarmer.id as string;
  const org = async (kind: string, municipalityCode: string, members: number, familyFarmerMembers: number, n: string) => (await api.ok(
    `mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }`,
    { i: { cnpj: newCnpj(), name: `${kind} ${n}`, kind, municipalityCode, members, familyFarmerMembers, registrations: CAF(n) } },
  )).createOrganization.id as string;
  world.farmerSouth = await farmer(PORTO_ALEGRE, 'CAF-S1');
  world.farmerRecife = await farmer(RECIFE, 'CAF-R1');
  world.association = await org('ASSOCIATION', RECIFE, 100, 90, 'CAF-J1');
  // art. 4º VI: 50 of 100 members is below the minimum share of 0,6 in force: not habilitated.
  world.coopUnhabilitated = await org('COOPERATIVE', PORTO_ALEGRE, 100, 50, 'CAF-J2');
  world.coopHabilitated = await org('COOPERATIVE', RECIFE, 100, 80, 'CAF-J3');
});
afterAll(async () => { await api.close(); });

/** A producer; SPECIAL_PER_M3 elected on 2025-11-03 (effective 2026, Lei 11.116/2005 art. 4º §1º) unless adValorem; Selo granted unless noSeal. */
async function producer(opts: { adValorem?: boolean; elect?: 'AD_VALOREM' | 'SPECIAL_PER_M3' | null; noSeal?: boolean } = {}) {
  const id = await createProducer(api, 'Usina de Biodiesel', RECIFE);
  const regime = opts.elect === undefined ? (opts.adValorem ? null : 'SPECIAL_PER_M3') : opts.elect;
  if (regime) await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime, electedOn: '2025-11-03' } });
  let grantId: string | null = null;
  if (!opts.noSeal) {
    grantId = await grantSeal(api, id);
  }
  return { id, grantId };
}

interface Lot { on: string; consumedOn?: string; feedstock?: string; kg: string; cost?: string; kind: string; farmer?: string; org?: string; origin: string; purpose?: string }
async function purchases(producerId: string, lots: Lot[]) {
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: lots.map((l) => ({
    producerId, purchasedOn: l.on, consumedOn: l.consumedOn ?? null, feedstock: l.feedstock ?? 'SOYBEAN', quantityKg: l.kg, cost: l.cost ?? null,
    supplierKind: l.kind, familyFarmerId: l.farmer ?? null, organizationId: l.org ?? null,
    supplierName: l.kind === 'THIRD_PARTY' ? 'Trading Grãos SA' : null, originMunicipalityCode: l.origin, purpose: l.purpose ?? null,
  })) });
}
interface SaleLot { on: string; m3: string; revenue?: string; origin?: 'OWN_PRODUCTION' | 'IMPORTED'; market?: 'DOMESTIC' | 'EXPORT' }
async function sales(producerId: string, list: SaleLot[]) {
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: list.map((s) => ({
    producerId, soldOn: s.on, volumeM3: s.m3, revenue: s.revenue ?? '100000', origin: s.origin ?? 'OWN_PRODUCTION', market: s.market ?? 'DOMESTIC',
  })) });
}
async function taxPeriod(producerId: string, year: number, month: number, asKnownOn?: string) {
  const tp = (await api.ok(QUERY, { p: producerId, y: year, m: month, k: asKnownOn ?? null })).taxPeriod;
  expectSegmentsAddUp(tp);
  return tp;
}
/** docs/LAW.md: the period's dues are the sums of its segments' (parts add up to the total). */
function expectSegmentsAddUp(tp: any) {
  const pis = tp.segments.reduce((s: Decimal, g: any) => s.plus(g.pisDue), D(0));
  const cofins = tp.segments.reduce((s: Decimal, g: any) => s.plus(g.cofinsDue), D(0));
  expect(pis.toFixed()).toBe(D(tp.pisDue).toFixed());
  expect(cofins.toFixed()).toBe(D(tp.cofinsDue).toFixed());
  expect(D(tp.totalDue).toFixed()).toBe(pis.plus(cofins).toFixed());
}
/** An amount in reais as the API writes it: at least 2 decimals ("281.00"). */
const f = (d: Decimal) => d.toFixed(Math.max(2, d.decimalPlaces()));
const codes = (tp: any) => tp.warnings.map((w: any) => w.code);

test('a blend of FAMILY_FARMING and GENERAL weighted by acquisition cost (art. 6º II, §3º)', async () => {
  const { id } = await producer();
  await purchases(id, [
    { on: '2026-02-03', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER', farmer: world.farmerSouth, origin: PORTO_ALEGRE }, // art. 6º II: FAMILY_FARMING (Sul)
    { on: '2026-02-04', kg: '1000', cost: '1000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE }, //                           art. 5º §1º: GENERAL
    // Interpretation: other products (art. 3º §2 I b) are not raw material of biodiesel: not weighed.
    { on: '2026-02-05', kg: '500', cost: '9999', kind: 'FAMILY_FARMER', farmer: world.farmerSouth, origin: PORTO_ALEGRE, purpose: 'OTHER_PRODUCT' },
  ]);
  await sales(id, [{ on: '2026-02-10', m3: '60', revenue: '300000' }, { on: '2026-02-20', m3: '40', revenue: '200000' }]);
  const tp = await taxPeriod(id, 2026, 2);
  const b = blend([[D(3000), 'FAMILY_FARMING'], [D(1000), 'GENERAL']]); // 0,75 × 10,39 + 0,25 × 26,41 = 14,395
  expect(tp.regime).toBe('SPECIAL_PER_M3');
  expect(tp.status).toBe('OPEN');
  expect(tp.feedstockCost).toBe('4000.00');
  expect(tp.segments).toHaveLength(1);
  const [s] = tp.segments;
  expect([s.from, s.to, s.sealRegular]).toEqual(['2026-02-01', '2026-02-28', true]);
  expect(s.mix.map((m: any) => [m.category, m.cost, m.share, m.pisPerM3, m.cofinsPerM3])).toEqual([
    ['FAMILY_FARMING', '3000.00', b.share(D(3000)), '10.39', '47.85'],
    ['GENERAL', '1000.00', b.share(D(1000)), '26.41', '121.59'],
  ]);
  expect(s.blendedPisPerM3).toBe(six(b.pis));
  expect(s.blendedCofinsPerM3).toBe(six(b.cofins));
  expect(s.pisDue).toBe(f(cent(D(100).times(b.pis)))); //       100 m³ × 14,395 = 1.439,50
  expect(s.cofinsDue).toBe(f(cent(D(100).times(b.cofins)))); // 100 m³ × 66,285 = 6.628,50
  expect(tp.pisDue).toBe('1439.50');
  expect(tp.domesticVolumeM3).toBe('100.000');
  expect(s.domesticRevenue).toBe('500000.00');
  expect(codes(tp)).toEqual([]);
});

test('three categories at once: association castor, unhabilitated cooperative, habilitated cooperative in the priority region (art. 6º I–III, §2º; art. 4º VI)', async () => {
  const { id } = await producer();
  await purchases(id, [
    // Association: counts for the Selo, not for art. 6º II/III (Interpretation); castor from the Semiárido → art. 6º I.
    { on: '2026-03-02', feedstock: 'CASTOR_BEAN', kg: '800', cost: '2000', kind: 'ASSOCIATION', org: world.association, origin: FEIRA },
    // Cooperative with 50% family-farmer members (< 0,6, art. 4º VI): not family farming; soybean from the Sul → GENERAL.
    { on: '2026-03-03', kg: '2000', cost: '5000', kind: 'COOPERATIVE', org: world.coopUnhabilitated, origin: PORTO_ALEGRE },
    // Habilitated cooperative, produced in Recife (Nordeste) → art. 6º III.
    { on: '2026-03-04', kg: '1500', cost: '3000', kind: 'COOPERATIVE', org: world.coopHabilitated, origin: RECIFE },
  ]);
  await sales(id, [{ on: '2026-03-15', m3: '37.3' }]);
  const tp = await taxPeriod(id, 2026, 3);
  const b = blend([[D(3000), 'FAMILY_FARMING_PRIORITY_REGION'], [D(2000), 'CASTOR_PALM_PRIORITY_REGION'], [D(5000), 'GENERAL']]);
  const [s] = tp.segments;
  expect(s.mix.map((m: any) => [m.category, m.cost, m.share])).toEqual([
    ['FAMILY_FARMING_PRIORITY_REGION', '3000.00', '0.3'],
    ['CASTOR_PALM_PRIORITY_REGION', '2000.00', '0.2'],
    ['GENERAL', '5000.00', '0.5'],
  ]);
  // 0,3 × 0 + 0,2 × 22,48 + 0,5 × 26,41 = 17,701; × 37,3 m³ = 660,2473 → 660,25
  expect(s.blendedPisPerM3).toBe('17.701');
  expect(s.pisDue).toBe(f(cent(D('37.3').times(b.pis))));
  expect(s.pisDue).toBe('660.25');
  // 0,2 × 103,51 + 0,5 × 121,59 = 81,497; × 37,3 = 3.039,8381 → 3.039,84
  expect(s.cofinsDue).toBe(f(cent(D('37.3').times(b.cofins))));
  expect(s.cofinsDue).toBe('3039.84');
});

test('own production valued at the average third-party price per kg acquired in the month (art. 6º §4º)', async () => {
  const { id } = await producer();
  await purchases(id, [
    { on: '2026-08-05', kg: '2000', kind: 'OWN_PRODUCTION', origin: PORTO_ALEGRE }, //                                   own soybean: GENERAL
    { on: '2026-08-06', kg: '1000', cost: '1500', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE }, //                        GENERAL
    { on: '2026-08-07', kg: '3000', cost: '5100', kind: 'FAMILY_FARMER', farmer: world.farmerSouth, origin: PORTO_ALEGRE }, // FAMILY_FARMING
    // Acquired in August, used in September: enters August's average price (literal reading), not August's mix.
    { on: '2026-08-20', consumedOn: '2026-09-05', kg: '1000', cost: '1000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
  ]);
  await sales(id, [{ on: '2026-08-25', m3: '10' }]);
  const tp = await taxPeriod(id, 2026, 8);
  const price = D(1500 + 5100 + 1000).div(1000 + 3000 + 1000); // 7.600 / 5.000 kg = 1,52 per kg
  const own = D(2000).times(price); //                               3.040
  const b = blend([[D(1500).plus(own), 'GENERAL'], [D(5100), 'FAMILY_FARMING']]);
  expect(tp.ownProductionPricePerKg).toBe('1.52');
  expect(tp.feedstockCost).toBe(f(D(1500).plus(5100).plus(own))); // 9.640
  const [s] = tp.segments;
  expect(s.mix.map((m: any) => [m.category, m.cost, m.share])).toEqual([
    ['FAMILY_FARMING', '5100.00', b.share(D(5100))],
    ['GENERAL', '4540.00', b.share(D(4540))],
  ]);
  expect(s.blendedPisPerM3).toBe(six(b.pis));
  expect(s.pisDue).toBe(f(cent(D(10).times(b.pis))));
  expect(s.cofinsDue).toBe(f(cent(D(10).times(b.cofins))));
  expect(codes(tp)).toEqual([]);
});

test('own castor with lots bought the month before: kg when only own production is used; else the third-party lots used value it (art. 6º §4º; docs/LAW.md)', async () => {
  const { id } = await producer();
  // October: only own castor from the Semiárido → art. 6º I, share 1; only own production: by kg, exact.
  await purchases(id, [{ on: '2026-10-02', feedstock: 'CASTOR_BEAN', kg: '5000', kind: 'OWN_PRODUCTION', origin: FEIRA }]);
  await sales(id, [{ on: '2026-10-20', m3: '12.5' }]);
  const oct = await taxPeriod(id, 2026, 10);
  expect(oct.segments[0].mix.map((m: any) => [m.category, m.share])).toEqual([['CASTOR_PALM_PRIORITY_REGION', '1']]);
  expect(oct.pisDue).toBe(f(cent(D('12.5').times('22.48')))); //     281,00
  expect(oct.cofinsDue).toBe(f(cent(D('12.5').times('103.51')))); // 1.293,875 → 1.293,88 (half-even: 7 is odd → up)
  expect(oct.ownProductionPricePerKg).toBeNull();
  expect(oct.ownProductionValuation).toBe('QUANTITY');
  expect(codes(oct)).toEqual(['OWN_PRODUCTION_VALUED_BY_QUANTITY']);
  // November: own castor plus two lots bought in October and used in November — a family farmer's
  // 1.000 kg for R$ 3.000 (art. 6º II) and a trader's 2.000 kg for R$ 2.000 (GENERAL). No third-party
  // acquisition in November: own production at the average price per kg of the lots used,
  // 5.000 / 3.000 = 1,666667 R$/kg → 5.000 kg × 5/3 = 8.333,33.
  // Weights (× 3.000 kg): family farming 9.000.000, castor 25.000.000, general 6.000.000; total 40.000.000.
  // PIS    = (9 × 10,39 + 25 × 22,48 + 6 × 26,41) / 40 = 813,97 / 40 = 20,34925; × 30 m³ = 610,4775 → 610,48.
  // Cofins = (9 × 47,85 + 25 × 103,51 + 6 × 121,59) / 40 = 3.747,94 / 40 = 93,6985; × 30 = 2.810,955 → 2.810,96
  //          (an exact half-centavo: the 5 before it is odd, so up).
  // By kg (1.000 : 5.000 : 2.000) it would be 21,95125 × 30 = 658,54.
  await purchases(id, [
    { on: '2026-11-03', feedstock: 'CASTOR_BEAN', kg: '5000', kind: 'OWN_PRODUCTION', origin: FEIRA },
    { on: '2026-10-28', consumedOn: '2026-11-04', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER', farmer: world.farmerSouth, origin: PORTO_ALEGRE },
    { on: '2026-10-29', consumedOn: '2026-11-05', kg: '2000', cost: '2000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
  ]);
  await sales(id, [{ on: '2026-11-20', m3: '30' }]);
  const nov = await taxPeriod(id, 2026, 11);
  expect(nov.segments[0].mix.map((m: any) => [m.category, m.cost, m.share])).toEqual([
    ['FAMILY_FARMING', '3000.00', '0.225'], ['CASTOR_PALM_PRIORITY_REGION', '8333.33', '0.625'], ['GENERAL', '2000.00', '0.15'],
  ]);
  expect([nov.pisDue, nov.cofinsDue]).toEqual(['610.48', '2810.96']);
  expect(nov.ownProductionPricePerKg).toBe('1.666667');
  expect(nov.ownProductionValuation).toBe('THIRD_PARTY_LOTS_USED');
  expect(nov.feedstockCost).toBe('13333.33');
  expect(codes(nov)).toEqual(['OWN_PRODUCTION_VALUED_BY_LOTS_USED']);
});

test('the Selo suspended mid-month: two segments with different mixes (art. 6º §2º)', async () => {
  const { id, grantId } = await producer();
  await api.ok(`mutation($i: SealEventInput!) { recordSealEvent(input: $i) { id } }`, { i: { grantId, kind: 'SUSPENDED', effectiveOn: '2026-09-16', reason: 'Relatório anual não entregue' } });
  await purchases(id, [
    { on: '2026-09-01', feedstock: 'CASTOR_BEAN', kg: '2000', cost: '6000', kind: 'FAMILY_FARMER', farmer: world.farmerRecife, origin: RECIFE },
    { on: '2026-09-02', kg: '2000', cost: '4000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
  ]);
  await sales(id, [{ on: '2026-09-10', m3: '50' }, { on: '2026-09-20', m3: '30' }]);
  const tp = await taxPeriod(id, 2026, 9);
  expect(tp.segments.map((s: any) => [s.from, s.to, s.sealRegular])).toEqual([['2026-09-01', '2026-09-15', true], ['2026-09-16', '2026-09-30', false]]);
  // Regular: family-farming castor from Recife → art. 6º III; without the Selo it falls back to art. 6º I.
  const first = blend([[D(6000), 'FAMILY_FARMING_PRIORITY_REGION'], [D(4000), 'GENERAL']]);
  const second = blend([[D(6000), 'CASTOR_PALM_PRIORITY_REGION'], [D(4000), 'GENERAL']]);
  expect(tp.segments[0].mix.map((m: any) => m.category)).toEqual(['FAMILY_FARMING_PRIORITY_REGION', 'GENERAL']);
  expect(tp.segments[1].mix.map((m: any) => m.category)).toEqual(['CASTOR_PALM_PRIORITY_REGION', 'GENERAL']);
  expect(tp.segments[0].pisDue).toBe(f(cent(D(50).times(first.pis)))); //    50 × 10,564
  expect(tp.segments[0].cofinsDue).toBe(f(cent(D(50).times(first.cofins))));
  expect(tp.segments[1].pisDue).toBe(f(cent(D(30).times(second.pis)))); //   30 × 24,052
  expect(tp.segments[1].cofinsDue).toBe(f(cent(D(30).times(second.cofins))));
  expect(tp.segments[1].blendedPisPerM3).toBe('24.052');
  expect(codes(tp)).toContain('SEAL_NOT_REGULAR');
});

test('April 2026 is split at the 7th, when the zero window starts (art. 5º §§2º–4º)', async () => {
  const { id } = await producer();
  await purchases(id, [{ on: '2026-04-01', kg: '1000', cost: '2000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE }]);
  await sales(id, [{ on: '2026-04-03', m3: '10' }, { on: '2026-04-06', m3: '5' }, { on: '2026-04-07', m3: '20' }, { on: '2026-04-30', m3: '1' }]);
  const tp = await taxPeriod(id, 2026, 4);
  expect(tp.segments.map((s: any) => [s.from, s.to, s.ownProductionVolumeM3])).toEqual([['2026-04-01', '2026-04-06', '15.000'], ['2026-04-07', '2026-04-30', '21.000']]);
  expect(tp.segments[0].pisDue).toBe(f(cent(D(15).times('26.41')))); //  396,15
  expect(tp.segments[0].cofinsDue).toBe(f(cent(D(15).times('121.59')))); // 1.823,85
  expect([tp.segments[1].pisDue, tp.segments[1].cofinsDue]).toEqual(['0.00', '0.00']);
  expect(tp.segments[1].mix[0]).toMatchObject({ category: 'GENERAL', coefficient: '1', pisPerM3: '0.00', cofinsPerM3: '0.00' });
  expect(tp.segments[1].mix[0].legalBasis).toMatch(/art\. 5º §§2º–4º/);
  expect(tp.pisDue).toBe('396.15');
});

test('June 2026 as known on 2026-05-20 (general: the window then ended on 05-31) and as known today (zero) (docs/LAW.md)', async () => {
  const { id } = await producer();
  await purchases(id, [{ on: '2026-06-01', kg: '1000', cost: '2000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE }]);
  await sales(id, [{ on: '2026-06-15', m3: '10' }]);
  const then = await taxPeriod(id, 2026, 6, '2026-05-20');
  expect(then.asKnownOn).toBe('2026-05-20');
  expect(then.segments).toHaveLength(1);
  expect([then.pisDue, then.cofinsDue]).toEqual([f(cent(D(10).times('26.41'))), f(cent(D(10).times('121.59')))]);
  const now = await taxPeriod(id, 2026, 6);
  expect(now.asKnownOn).toBe(today());
  expect([now.pisDue, now.cofinsDue, now.totalDue]).toEqual(['0.00', '0.00', '0.00']);
});

test('imported biodiesel at GENERAL (art. 6º §5º) and exports untaxed, in one month', async () => {
  const { id } = await producer();
  await purchases(id, [{ on: '2026-10-01', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER', farmer: world.farmerSouth, origin: PORTO_ALEGRE }]);
  await sales(id, [
    { on: '2026-10-05', m3: '40', revenue: '200000' },
    { on: '2026-10-06', m3: '10', revenue: '52000', origin: 'IMPORTED' },
    { on: '2026-10-07', m3: '25', revenue: '130000', market: 'EXPORT' },
  ]);
  const tp = await taxPeriod(id, 2026, 10);
  expect([tp.domesticVolumeM3, tp.importedVolumeM3, tp.exportedVolumeM3]).toEqual(['40.000', '10.000', '25.000']);
  // 40 × 10,39 + 10 × 26,41 = 679,70; 40 × 47,85 + 10 × 121,59 = 3.129,90
  expect(tp.pisDue).toBe(f(cent(D(40).times('10.39').plus(D(10).times('26.41')))));
  expect(tp.cofinsDue).toBe(f(cent(D(40).times('47.85').plus(D(10).times('121.59')))));
  expect(tp.pisDue).toBe('679.70');
  expect(tp.segments[0].domesticRevenue).toBe('252000.00');
  expect(codes(tp)).toContain('IMPORTED_BIODIESEL');
});

test('ad valorem: 6,15% / 28,32% of domestic revenue, untouched by coefficients and by the zero window, May 2026 included (Lei 11.116/2005, art. 3º)', async () => {
  const none = await producer({ elect: null });
  const elected = await producer({ elect: 'AD_VALOREM' });
  for (const p of [none, elected]) {
    await purchases(p.id, [{ on: '2026-05-04', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER', farmer: world.farmerRecife, origin: RECIFE }]);
    await sales(p.id, [
      { on: '2026-05-10', m3: '20', revenue: '123456.78' },
      { on: '2026-05-11', m3: '2', revenue: '10000.05', origin: 'IMPORTED' },
      { on: '2026-05-12', m3: '9', revenue: '50000', market: 'EXPORT' },
      { on: '2026-02-12', m3: '3', revenue: '15000.01' },
    ]);
  }
  const base = D('123456.78').plus('10000.05'); // 133.456,83: own and imported, domestic
  for (const p of [none, elected]) {
    const may = await taxPeriod(p.id, 2026, 5);
    expect(may.regime).toBe('AD_VALOREM');
    expect(may.pisDue).toBe(f(cent(base.times(AD_VALOREM.pis)))); //       8.207,594... → 8.207,59
    expect(may.cofinsDue).toBe(f(cent(base.times(AD_VALOREM.cofins)))); // 37.794,974... → 37.794,97
    for (const s of may.segments) {
      expect(s.mix).toEqual([]);
      expect([s.blendedPisPerM3, s.blendedCofinsPerM3]).toEqual([null, null]);
    }
    const feb = await taxPeriod(p.id, 2026, 2);
    expect(feb.pisDue).toBe(f(cent(D('15000.01').times(AD_VALOREM.pis)))); // 922,500615 → 922,50
    expect(feb.cofinsDue).toBe(f(cent(D('15000.01').times(AD_VALOREM.cofins))));
  }
  expect(codes(await taxPeriod(none.id, 2026, 5))).toContain('NO_REGIME_ELECTION');
  expect(codes(await taxPeriod(elected.id, 2026, 5))).not.toContain('NO_REGIME_ELECTION');
});

test('a month with no feedstock: own production at GENERAL with NO_FEEDSTOCK_IN_PERIOD (art. 5º §1º)', async () => {
  const { id } = await producer();
  await sales(id, [{ on: '2026-11-10', m3: '7.77' }]);
  const tp = await taxPeriod(id, 2026, 11);
  expect(codes(tp)).toContain('NO_FEEDSTOCK_IN_PERIOD');
  expect(tp.feedstockCost).toBe('0.00');
  expect(tp.segments[0].blendedPisPerM3).toBe('26.41');
  expect(tp.pisDue).toBe(f(cent(D('7.77').times('26.41')))); //    205,2057 → 205,21
  expect(tp.cofinsDue).toBe(f(cent(D('7.77').times('121.59')))); // 944,7543 → 944,75
});

test('January 2027: PIS/Cofins are extinct (EC 132/2023, ADCT art. 126, II): no dues, no error, under either regime', async () => {
  const { id } = await producer();
  for (const p of [id, (await producer({ elect: null })).id]) {
    await sales(p, [{ on: '2027-01-10', m3: '2' }]);
    const tp = await taxPeriod(p, 2027, 1);
    expect([tp.pisDue, tp.cofinsDue, tp.totalDue, tp.domesticVolumeM3]).toEqual(['0.00', '0.00', '0.00', '2.000']);
    expect(codes(tp)).toEqual(['RATE_NOT_PUBLISHED']);
  }
});

test('bad input and access: month out of range, another producer NOT_FOUND, AUDITOR reads but cannot close', async () => {
  const { id } = await producer();
  const other = await producer();
  const bad = await api.gql(QUERY, { p: id, y: 2026, m: 13 });
  expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'month' });
  const foreign = await api.gql(QUERY, { p: other.id, y: 2026, m: 2 }, { role: 'PRODUCER', producerId: id });
  expect(foreign.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  // The month is computed while the producer is looked up; an unknown producer is still NOT_FOUND
  // first, whatever the month's own error (a bad month, or no rule in force in May 2012).
  for (const [y, m] of [[2026, 13], [2012, 5], [2026, 2]]) {
    const unknown = await api.gql(QUERY, { p: '999999999', y, m });
    expect(unknown.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    const foreignBad = await api.gql(QUERY, { p: other.id, y, m }, { role: 'PRODUCER', producerId: id });
    expect(foreignBad.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
  }
  // An id written with a leading zero names no producer, as an unknown id (docs/API.md "Calling it").
  const padded = await api.gql(QUERY, { p: `0${id}`, y: 2026, m: 2 });
  expect([padded.data, padded.errors?.map((e) => e.extensions?.code)]).toEqual([null, ['NOT_FOUND']]);
  const own = await api.gql(QUERY, { p: id, y: 2026, m: 2 }, { role: 'PRODUCER', producerId: id });
  expect(own.errors).toBeUndefined();
  const audit = await api.gql(QUERY, { p: id, y: 2026, m: 2 }, { role: 'AUDITOR' });
  expect(audit.errors).toBeUndefined();
  const close = await api.gql(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 2) { status } }`, { p: id }, { role: 'AUDITOR' });
  expect(close.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  const closeOther = await api.gql(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 2) { status } }`, { p: other.id }, { role: 'PRODUCER', producerId: id });
  expect(closeOther.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  expect(await api.count(`SELECT count(*) FROM tax_period WHERE producer_id IN ($1, $2)`, [id, other.id])).toBe(0);
  // Producer.taxPeriod: the same figures through the producer.
  const nested = await api.ok(`query($p: ID!) { producer(id: $p) { taxPeriod(year: 2026, month: 2) { pisDue year month producer { id } } } }`, { p: id });
  expect(nested.producer.taxPeriod).toEqual({ pisDue: '0.00', year: 2026, month: 2, producer: { id } });
});

test('closing: snapshot, new purchases and sales rejected with PERIOD_CLOSED, drift after a retroactive rule, reopening with a reason', async () => {
  // December 2026 (no other test uses it: a GENERAL rule is published for it below).
  const { id } = await producer();
  await purchases(id, [
    { on: '2026-12-01', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER', farmer: world.farmerSouth, origin: PORTO_ALEGRE },
    { on: '2026-12-02', kg: '1000', cost: '1000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
  ]);
  await sales(id, [{ on: '2026-12-02', m3: '100' }]);
  const b = blend([[D(3000), 'FAMILY_FARMING'], [D(1000), 'GENERAL']]);
  const CLOSE = `mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 12) { ...TP closedBy } } ${TP}`;
  const closed = (await api.ok(CLOSE, { p: id }, { role: 'PRODUCER', producerId: id })).closeTaxPeriod;
  expectSegmentsAddUp(closed);
  expect(closed.status).toBe('CLOSED');
  expect(closed.closedBy).toBe('test-producer');
  expect(closed.pisDue).toBe(f(cent(D(100).times(b.pis))));
  expect(closed.cofinsDue).toBe(f(cent(D(100).times(b.cofins))));
  expect(closed.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'closeTaxPeriod' AND producer_id = $1`, [id])).toBe(1);

  const again = await api.gql(CLOSE, { p: id });
  expect(again.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED' });

  // Recording into the closed month: CONFLICT PERIOD_CLOSED naming the field, nothing written.
  const purchasesBefore = await api.count(`SELECT count(*) FROM purchase WHERE producer_id = $1`, [id]);
  const salesBefore = await api.count(`SELECT count(*) FROM sale WHERE producer_id = $1`, [id]);
  const p = await api.gql(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    { producerId: id, purchasedOn: '2026-11-30', feedstock: 'SOYBEAN', quantityKg: '5', cost: '5', supplierKind: 'THIRD_PARTY', supplierName: 'X', originMunicipalityCode: PORTO_ALEGRE },
    { producerId: id, purchasedOn: '2026-11-30', consumedOn: '2026-12-10', feedstock: 'SOYBEAN', quantityKg: '5', cost: '5', supplierKind: 'THIRD_PARTY', supplierName: 'X', originMunicipalityCode: PORTO_ALEGRE },
  ] });
  expect(p.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[1].consumedOn' });
  const s = await api.gql(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId: id, soldOn: '2026-12-20', volumeM3: '1', revenue: '1' }] });
  expect(s.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[0].soldOn' });
  expect(await api.count(`SELECT count(*) FROM purchase WHERE producer_id = $1`, [id])).toBe(purchasesBefore);
  expect(await api.count(`SELECT count(*) FROM sale WHERE producer_id = $1`, [id])).toBe(salesBefore);
  // Another month stays open.
  await sales(id, [{ on: '2026-11-20', m3: '1' }]);

  // The snapshot is what a read returns; nothing changed yet.
  const read = await taxPeriod(id, 2026, 12);
  expect(read.status).toBe('CLOSED');
  expect([read.pisDue, read.cofinsDue, read.fingerprint]).toEqual([closed.pisDue, closed.cofinsDue, closed.fingerprint]);
  expect(read.recomputedDiffers).toBe(false);
  expect(read.differences).toEqual([]);
  // Compared with a recomputation as known before the decree was published: the snapshot stands,
  // and the comparison says that no rule was then in force.
  const early = await taxPeriod(id, 2026, 12, '2020-01-01');
  expect([early.status, early.pisDue, early.recomputedDiffers, early.differences[0].field]).toEqual(['CLOSED', closed.pisDue, true, 'computation']);
  expect(early.differences[0].recomputed).toMatch(/^No version of .* is in force on 2026-12-01 as known on 2020-01-01$/);

  // A retroactive act: new GENERAL amounts for December 2026, published today.
  await api.ok(`mutation($i: PublishCoefficientRuleInput!) { publishCoefficientRule(input: $i) { id } }`, { i: {
    category: 'GENERAL', coefficient: '0.8', pisPerM3: '24.03', cofinsPerM3: '110.64', validFrom: '2026-12-01', validUntil: '2026-12-31',
    publishedOn: today(), legalBasis: 'Decreto 10.527/2020, art. 5º §1º, as amended (test act)',
  } });
  const drift = await taxPeriod(id, 2026, 12);
  expect(drift.status).toBe('CLOSED');
  expect(drift.pisDue).toBe(closed.pisDue); // still the snapshot
  expect(drift.recomputedDiffers).toBe(true);
  const recomputedPis = cent(D(100).times(D(3000).times('10.39').plus(D(1000).times('24.03')).div(4000))); // 0,75 × 10,39 + 0,25 × 24,03
  expect(drift.differences).toEqual(expect.arrayContaining([
    // The differences are plain text, as the snapshot keeps them (no scale).
    { field: 'pisDue', closed: D(closed.pisDue).toFixed(), recomputed: recomputedPis.toFixed() },
    { field: 'segments[0].mix.GENERAL.pisPerM3', closed: '26.41', recomputed: '24.03' },
  ]));

  // Reopening: a reason is required (BAD_USER_INPUT), an AUDITOR may not, then OPEN and live.
  const REOPEN = `mutation($p: ID!, $r: String!) { reopenTaxPeriod(producerId: $p, year: 2026, month: 12, reason: $r) { ...TP reopenReason } } ${TP}`;
  const blank = await api.gql(REOPEN, { p: id, r: '  ' });
  expect(blank.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'reason' });
  const auditor = await api.gql(REOPEN, { p: id, r: 'x' }, { role: 'AUDITOR' });
  expect(auditor.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  expect(await api.count(`SELECT count(*) FROM tax_period WHERE producer_id = $1 AND status = 'CLOSED'`, [id])).toBe(1);
  const reopened = (await api.ok(REOPEN, { p: id, r: 'Decreto retroativo: novos valores para dezembro' })).reopenTaxPeriod;
  expectSegmentsAddUp(reopened);
  expect(reopened.status).toBe('OPEN');
  expect(reopened.reopenReason).toBe('Decreto retroativo: novos valores para dezembro');
  expect(reopened.pisDue).toBe(f(recomputedPis));
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'reopenTaxPeriod' AND producer_id = $1`, [id])).toBe(1);
  // Open again: recording into December works.
  await sales(id, [{ on: '2026-12-20', m3: '1' }]);
});

test('family-farming origin judged on each purchase date in SQL: a CAF that lapses and a new minimum member share mid-month (art. 2º IV; art. 4º VI; art. 6º §2º)', async () => {
  const { id } = await producer();
  const lapsing = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, { i: {
    cpf: newCpf(), name: 'Agricultor com CAF até 12/08', municipalityCode: PORTO_ALEGRE,
    registrations: [{ kind: 'CAF', number: 'CAF-L1', validFrom: '2024-01-01', validUntil: '2026-08-12' }],
  } })).createFamilyFarmer.id;
  const coop65 = (await api.ok(`mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }`, { i: {
    cnpj: newCnpj(), name: 'Cooperativa 65%', kind: 'COOPERATIVE', municipalityCode: RECIFE, members: 100, familyFarmerMembers: 65, registrations: CAF('CAF-J65'),
  } })).createOrganization.id;
  // A new minimum share of 0,7 from 2026-08-15 (art. 4º VI as a dated parameter): 65% no longer suffices.
  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'cooperative-min-family-farmer-share', values: [{ name: 'share', value: '0.7' }], validFrom: '2026-08-15',
    publishedOn: today(), legalBasis: 'Decreto 10.527/2020, art. 4º VI (test act)',
  } });
  await purchases(id, [
    { on: '2026-08-10', kg: '100', cost: '1000', kind: 'COOPERATIVE', org: coop65, origin: RECIFE }, //        0,65 ≥ 0,6: art. 6º III
    { on: '2026-08-20', kg: '100', cost: '1000', kind: 'COOPERATIVE', org: coop65, origin: RECIFE }, //        0,65 < 0,7: GENERAL (soybean)
    { on: '2026-08-11', kg: '100', cost: '1000', kind: 'FAMILY_FARMER', farmer: lapsing, origin: PORTO_ALEGRE }, // CAF valid: art. 6º II
    { on: '2026-08-13', kg: '100', cost: '1000', kind: 'FAMILY_FARMER', farmer: lapsing, origin: PORTO_ALEGRE }, // CAF lapsed: GENERAL
  ]);
  await sales(id, [{ on: '2026-08-31', m3: '10' }]);
  const tp = await taxPeriod(id, 2026, 8);
  expect(tp.segments[0].mix.map((m: any) => [m.category, m.cost, m.share])).toEqual([
    ['FAMILY_FARMING_PRIORITY_REGION', '1000.00', '0.25'], ['FAMILY_FARMING', '1000.00', '0.25'], ['GENERAL', '2000.00', '0.5'],
  ]);
  // PIS 10 × (0,25 × 10,39 + 0,5 × 26,41) = 158,025 → 158,02 (half-even: 2 is even)
  // Cofins 10 × (0,25 × 47,85 + 0,5 × 121,59) = 727,575 → 727,58 (7 is odd: up)
  expect([tp.pisDue, tp.cofinsDue]).toEqual(['158.02', '727.58']);
  const b = blend([[D(1000), 'FAMILY_FARMING_PRIORITY_REGION'], [D(1000), 'FAMILY_FARMING'], [D(2000), 'GENERAL']]);
  expect([tp.pisDue, tp.cofinsDue]).toEqual([f(cent(D(10).times(b.pis))), f(cent(D(10).times(b.cofins)))]);
});

test('the month is summed in SQL: the same few statements for 4 or 600 purchases and sales; a rejected close writes nothing', async () => {
  const count = async (n: number, month: number) => {
    const { id } = await producer();
    const lots: Lot[] = Array.from({ length: n }, (_, i) => ({ on: `2026-${String(month).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`, kg: '10', cost: '25', kind: i % 2 ? 'THIRD_PARTY' : 'FAMILY_FARMER', farmer: i % 2 ? undefined : world.farmerSouth, origin: PORTO_ALEGRE }));
    await purchases(id, lots);
    await sales(id, lots.map((l) => ({ on: l.on, m3: '0.5' })));
    await taxPeriod(id, 2026, month); // the law book is loaded once, then cached
    api.statements.reset();
    const tp = await taxPeriod(id, 2026, month);
    // n/2 lots of each: FAMILY_FARMING and GENERAL half each; n × 0,5 m³ × (10,39 + 26,41) / 2
    expect(tp.pisDue).toBe(f(cent(D(n).times('0.5').times(D('10.39').plus('26.41')).div(2))));
    return api.statements.count;
  };
  const few = await count(4, 10);
  const many = await count(600, 11);
  expect(many).toBe(few);
  expect(few).toBeLessThanOrEqual(8);

  // May 2012 under the special regime: no coefficient rule is in force before Decreto 7.768/2012 (2012-06-28).
  const { id } = await producer({ elect: null });
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2011-11-03' } });
  const res = await api.gql(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2012, month: 5) { status } }`, { p: id });
  expect(res.errors?.[0].extensions?.code).toBe('NO_RULE_IN_FORCE');
  expect(await api.count(`SELECT count(*) FROM tax_period WHERE producer_id = $1`, [id])).toBe(0);
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'closeTaxPeriod' AND producer_id = $1`, [id])).toBe(0);
  const unknown = await api.gql(`mutation { reopenTaxPeriod(producerId: "999999", year: 2026, month: 3, reason: "x") { status } }`);
  expect(unknown.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  const notClosed = await api.gql(`mutation($p: ID!) { reopenTaxPeriod(producerId: $p, year: 2026, month: 3, reason: "x") { status } }`, { p: id });
  expect(notClosed.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'month' });
});
