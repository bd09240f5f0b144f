import fc from 'fast-check';
import { Decimal } from '../../src/law/decimal';
import { createLawBook } from '../../src/law/law-book';
import { regimeForMonth } from '../../src/law/regime';
import { GrantFacts } from '../../src/law/seal-standing';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { computeTaxPeriod, FeedstockGroup, SaleGroup, taxSegments, TaxPeriodInput } from '../../src/law/tax-period';
import { BiodieselOrigin, Feedstock, Market, Region, SealEventKind, TaxRegime } from '../../src/law/types';
import { checkProperty } from '../support/property';

/**
 * docs/LAW.md: each segment's PIS and Cofins due is rounded to the centavo by ABNT NBR 5891
 * (half-even) from the UNROUNDED computation: shares, blended amounts and the §4º price per kg are
 * only shown rounded. A half-centavo tie of the exact dues must therefore go to the even centavo
 * even where the blend itself has no finite decimal expansion (a weight of 1/7 or a price of R$ 1/3
 * per kg): dividing first and multiplying the 34-digit quotient by the volume lands a hair off the
 * tie and rounds it the wrong way.
 * Amounts: GENERAL 26,41 / 121,59 (Decreto 10.527/2020, art. 5º §1º); CASTOR_PALM_PRIORITY_REGION
 * 22,48 / 103,51 (art. 6º §1º I); FAMILY_FARMING 10,39 / 47,85 (art. 6º §1º II).
 */

const law = createLawBook(SHIPPED_LAW);
const TODAY = '2026-12-03';
const D = (v: string | number) => new Decimal(v);
const SPECIAL = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2025-11-03', effectiveYear: 2026 }], 2026, 12);
const GRANT: GrantFacts = { id: '1', grantedOn: '2025-01-01', validUntil: '2027-12-31', events: [] };

const lot = (over: Partial<FeedstockGroup>): FeedstockGroup => ({
  feedstock: Feedstock.SOYBEAN, region: Region.SOUTH, semiarid: false, familyFarmingOrigin: false, ownProduction: false, cost: D(0), quantityKg: D(1000), ...over,
});
const sale = (volume: string, over: Partial<SaleGroup> = {}): SaleGroup => ({
  segment: 0, origin: BiodieselOrigin.OWN_PRODUCTION, market: Market.DOMESTIC, volumeM3: D(volume), revenue: D(100000), ...over,
});
/** February 2026: one segment, the Selo regular, the shipped amounts. */
function february(over: Partial<TaxPeriodInput>) {
  const segments = taxSegments(law, [GRANT], 2026, 2, TODAY);
  return computeTaxPeriod(law, {
    year: 2026, month: 2, asKnownOn: TODAY, regime: SPECIAL, segments, feedstock: [], thirdParty: { cost: D(0), quantityKg: D(0) }, sales: [], ...over,
  }).figures;
}
const dues = (f: ReturnType<typeof february>) => [f.pisDue.toFixed(), f.cofinsDue.toFixed()];

test('a tie after a blend in sevenths goes to the even centavo (art. 6º §3º; ABNT NBR 5891)', () => {
  // R$ 1.000 FAMILY_FARMING and R$ 6.000 GENERAL (weights 1/7 and 6/7), 35,7 m³:
  // PIS 35,7 × (1.000 × 10,39 + 6.000 × 26,41) / 7.000 = 35,7 × 168.850 / 7.000 = 5,1 × 168,85 = 861,135 → 861,14 (3 is odd: up);
  // Cofins 35,7 × (1.000 × 47,85 + 6.000 × 121,59) / 7.000 = 5,1 × 777,39 = 3.964,689 → 3.964,69.
  const f = february({ feedstock: [lot({ familyFarmingOrigin: true, cost: D(1000) }), lot({ cost: D(6000) })], sales: [sale('35.7')] });
  expect(D('5.1').times('168.85').toFixed()).toBe('861.135');
  expect(dues(f)).toEqual(['861.14', '3964.69']);
  // The blend is shown to 6 decimals: 168,85 / 7 = 24,121428571… → 24.121429.
  expect(f.segments[0].blendedPisPerM3?.toFixed()).toBe('24.121429');
});

test('a tie after a blend in ninths goes to the even centavo, down where the centavo is even', () => {
  // R$ 1.000 FAMILY_FARMING and R$ 8.000 GENERAL, 4,5 m³ (4,5 / 9 = 0,5):
  // PIS 0,5 × (10,39 + 8 × 26,41) = 0,5 × 221,67 = 110,835 → 110,84 (3 odd: up);
  // Cofins 0,5 × (47,85 + 8 × 121,59) = 0,5 × 1.020,57 = 510,285 → 510,28 (8 even: stays).
  const f = february({ feedstock: [lot({ familyFarmingOrigin: true, cost: D(1000) }), lot({ cost: D(8000) })], sales: [sale('4.5')] });
  expect(dues(f)).toEqual(['110.84', '510.28']);
});

test('own production valued at R$ 1/3 per kg (art. 6º §4º) weighs exactly: a tie at the blend of halves goes to the even centavo', () => {
  // Third-party acquisitions of the month: R$ 1.000 for 3.000 kg, R$ 0,333… per kg (shown 0.333333).
  // Used: 3.000 kg of own castor from the Semiárido (art. 6º I), valued 3.000 × 1.000 / 3.000 = R$ 1.000 exactly,
  // and the third-party soybean lot, R$ 1.000 (GENERAL). Weights 1/2 and 1/2, 1 m³:
  // PIS (22,48 + 26,41) / 2 = 24,445 → 24,44 (4 even: stays); Cofins (103,51 + 121,59) / 2 = 112,55.
  const f = february({
    feedstock: [
      lot({ ownProduction: true, feedstock: Feedstock.CASTOR_BEAN, region: Region.NORTHEAST, semiarid: true, quantityKg: D(3000) }),
      lot({ cost: D(1000), quantityKg: D(3000) }),
    ],
    thirdParty: { cost: D(1000), quantityKg: D(3000) },
    sales: [sale('1')],
  });
  expect(f.ownProductionPricePerKg?.toFixed()).toBe('0.333333');
  expect(f.segments[0].mix.map((m) => [m.category, m.cost.toFixed(), m.share.toFixed()])).toEqual([
    ['CASTOR_PALM_PRIORITY_REGION', '1000', '0.5'], ['GENERAL', '1000', '0.5'],
  ]);
  expect(f.feedstockCost.toFixed()).toBe('2000');
  expect(dues(f)).toEqual(['24.44', '112.55']);
});

test('own production valued at R$ 2/3 per kg (art. 6º §4º): the tie of the exact dues, not of the 34-digit valuation, decides', () => {
  // Third-party acquisitions of the month: R$ 2.000 for 3.000 kg (R$ 0,666… per kg), the GENERAL lot used.
  // Own castor from the Semiárido, 500 kg, valued 500 × 2.000 / 3.000 = R$ 333,333… (art. 6º I).
  // Weights 333,33… : 2.000 = 1 : 6. 0,7 m³:
  // PIS 0,7 × (22,48 + 6 × 26,41) / 7 = 0,1 × 180,94 = 18,094 → 18,09;
  // Cofins 0,7 × (103,51 + 6 × 121,59) / 7 = 0,1 × 833,05 = 83,305 → 83,30 (0 even: stays).
  const f = february({
    feedstock: [
      lot({ ownProduction: true, feedstock: Feedstock.CASTOR_BEAN, region: Region.NORTHEAST, semiarid: true, quantityKg: D(500) }),
      lot({ cost: D(2000), quantityKg: D(3000) }),
    ],
    thirdParty: { cost: D(2000), quantityKg: D(3000) },
    sales: [sale('0.7')],
  });
  expect(f.ownProductionPricePerKg?.toFixed()).toBe('0.666667');
  expect(f.segments[0].mix.map((m) => [m.category, m.cost.toFixed(), m.share.toFixed()])).toEqual([
    ['CASTOR_PALM_PRIORITY_REGION', '333.33', '0.142857'], ['GENERAL', '2000', '0.857143'],
  ]);
  expect(f.feedstockCost.toFixed()).toBe('2333.33');
  expect(dues(f)).toEqual(['18.09', '83.3']);
});

describe('property: every segment due equals the exact rational value rounded half-even (docs/LAW.md)', () => {
  // The reference works in integers (BigInt): costs and amounts in centavos, volumes in litres
  // (m³ / 1.000), kilograms whole. With weights w (centavos, own production as kg × the month's
  // third-party cost over its kg, all scaled by that kg) the due in centavos is exactly
  //   (litres_own × Σ w × amount + litres_imported × GENERAL amount × Σ w) / (1.000 × Σ w).
  const AMOUNTS = { // centavos per m³ [PIS, Cofins] (art. 5º §1º; art. 6º §1º I–III)
    FAMILY_FARMING_PRIORITY_REGION: [0n, 0n], FAMILY_FARMING: [1039n, 4785n], CASTOR_PALM_PRIORITY_REGION: [2248n, 10351n], GENERAL: [2641n, 12159n],
  } as const;
  type Kind = keyof typeof AMOUNTS;
  /** Lots whose category is fixed by their facts: the Selo is regular throughout February 2026. */
  const FACTS: Record<Kind, Partial<FeedstockGroup>> = {
    FAMILY_FARMING_PRIORITY_REGION: { familyFarmingOrigin: true, region: Region.NORTHEAST },
    FAMILY_FARMING: { familyFarmingOrigin: true, region: Region.SOUTH },
    CASTOR_PALM_PRIORITY_REGION: { feedstock: Feedstock.CASTOR_BEAN, region: Region.NORTHEAST },
    GENERAL: { region: Region.SOUTH },
  };
  /** Half-even division of non-negative BigInts. */
  const halfEven = (n: bigint, d: bigint) => {
    const q = n / d;
    const r2 = (n % d) * 2n;
    return r2 > d || (r2 === d && q % 2n === 1n) ? q + 1n : q;
  };
  const centavos = (c: bigint) => new Decimal(c.toString()).div(100).toFixed();

  test('random blends, own production, imports', () => {
    const kind = fc.constantFrom<Kind>('FAMILY_FARMING_PRIORITY_REGION', 'FAMILY_FARMING', 'CASTOR_PALM_PRIORITY_REGION', 'GENERAL');
    const lotArb = fc.record({ kind, centavos: fc.integer({ min: 1, max: 5_000_000 }), kg: fc.integer({ min: 1, max: 100_000 }), own: fc.boolean() });
    checkProperty(fc.property(
      fc.array(lotArb, { minLength: 1, maxLength: 6 }),
      fc.record({ centavos: fc.integer({ min: 1, max: 9_000_000 }), kg: fc.integer({ min: 1, max: 300_000 }) }),
      fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 1, max: 50_000 }),
      (lots, third, ownLitres, importedLitres) => {
        const groups = lots.map((l) => lot({
          ...FACTS[l.kind], ownProduction: l.own, quantityKg: D(l.kg), cost: l.own ? D(0) : D(l.centavos).div(100),
          ...(l.own ? { familyFarmingOrigin: false } : {}),
        }));
        // Own production is never family farming: its category is I or GENERAL by its facts.
        const kindOf = (l: typeof lots[number]): Kind => (!l.own || l.kind === 'CASTOR_PALM_PRIORITY_REGION' ? l.kind : 'GENERAL');
        const K = BigInt(third.kg);
        const C = BigInt(third.centavos);
        const w = (l: typeof lots[number]) => (l.own ? BigInt(l.kg) * C : BigInt(l.centavos) * K);
        const total = lots.reduce((s, l) => s + w(l), 0n);
        const f = february({
          feedstock: groups,
          thirdParty: { cost: D(third.centavos).div(100), quantityKg: D(third.kg) },
          sales: [sale(D(ownLitres).div(1000).toFixed()), sale(D(importedLitres).div(1000).toFixed(), { origin: BiodieselOrigin.IMPORTED })],
        });
        const imp = BigInt(importedLitres);
        [0, 1].forEach((t) => {
          const num = BigInt(ownLitres) * lots.reduce((s, l) => s + w(l) * AMOUNTS[kindOf(l)][t], 0n) + imp * AMOUNTS.GENERAL[t] * total;
          const expected = centavos(halfEven(num, 1000n * total));
          expect((t === 0 ? f.pisDue : f.cofinsDue).toFixed()).toBe(expected);
        });
      },
    ), { numRuns: 400 });
  });
});

describe('one figure per month (Lei 11.116/2005, arts. 3º and 4º): a cut that changes no amount changes no centavo', () => {
  const AD_VALOREM = regimeForMonth([], 2026, 12);
  const SUSPENDED: GrantFacts = { ...GRANT, events: [{ kind: SealEventKind.SUSPENDED, effectiveOn: '2026-09-15', validUntil: null, reason: 'Auditoria' }] };
  const GRANT_2020: GrantFacts = { id: '1', grantedOn: '2019-01-01', validUntil: '2029-12-31', events: [] };
  /** The month's segments with one sale group on each of the given days. */
  function month(year: number, month: number, regime: typeof SPECIAL, grants: GrantFacts[], sold: { on: string; volume: string; revenue: string }[], feedstock: FeedstockGroup[] = []) {
    const segments = taxSegments(law, grants, year, month, TODAY);
    const sales = sold.map((s) => sale(s.volume, { revenue: D(s.revenue), segment: segments.findIndex((g) => g.from <= s.on && s.on <= g.to) }));
    return computeTaxPeriod(law, { year, month, asKnownOn: TODAY, regime, segments, feedstock, thirdParty: { cost: D(0), quantityKg: D(0) }, sales }).figures;
  }
  const shown = (f: ReturnType<typeof month>) => [f.pisDue.toFixed(2), f.cofinsDue.toFixed(2), f.totalDue.toFixed(2)];

  test('ad valorem, April 2026: R$ 30,00 on 04-06 and on 04-07 (the zero window starts, art. 5º §2º) → 60 × 6,15% = 3,69; 60 × 28,32% = 16,992 → 16,99', () => {
    const f = month(2026, 4, AD_VALOREM, [GRANT], [{ on: '2026-04-06', volume: '0.01', revenue: '30' }, { on: '2026-04-07', volume: '0.01', revenue: '30' }]);
    expect(f.segments.length).toBeGreaterThan(1);
    // Each segment alone: 30 × 6,15% = 1,845 → 1,84; 30 × 28,32% = 8,496 → 8,50 — shown, not summed.
    expect(f.segments.filter((s) => s.domesticRevenue.gt(0)).map((s) => [s.pisDue.toFixed(2), s.cofinsDue.toFixed(2)])).toEqual([['1.84', '8.50'], ['1.84', '8.50']]);
    expect(shown(f)).toEqual(['3.69', '16.99', '20.68']);
  });

  test('ad valorem, October 2020: R$ 30,00 on 10-22 (Decreto 7.768/2012) and on 10-23 (Decreto 10.527/2020) → 3,69 and 16,99', () => {
    const f = month(2020, 10, AD_VALOREM, [GRANT_2020], [{ on: '2020-10-22', volume: '0.01', revenue: '30' }, { on: '2020-10-23', volume: '0.01', revenue: '30' }]);
    expect(f.segments.length).toBeGreaterThan(1);
    expect(shown(f)).toEqual(['3.69', '16.99', '20.68']);
  });

  test('ad valorem, September 2026, the Selo suspended on 09-15: R$ 30,00 either side → 3,69 and 16,99 (the Selo reaches no ad valorem rate)', () => {
    const f = month(2026, 9, AD_VALOREM, [SUSPENDED], [{ on: '2026-09-10', volume: '0.01', revenue: '30' }, { on: '2026-09-20', volume: '0.01', revenue: '30' }]);
    expect(f.segments.map((s) => s.sealRegular)).toEqual([true, false]);
    expect(shown(f)).toEqual(['3.69', '16.99', '20.68']);
  });

  test('special regime, GENERAL soy only, the Selo suspended on 09-15: 0,5 m³ on 09-10 and on 09-20 → 1 × 26,41 = 26,41; 1 × 121,59 = 121,59', () => {
    const september = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2025-11-03', effectiveYear: 2026 }], 2026, 9);
    const f = month(2026, 9, september, [SUSPENDED], [{ on: '2026-09-10', volume: '0.5', revenue: '3000' }, { on: '2026-09-20', volume: '0.5', revenue: '3000' }],
      [lot({ cost: D(5000) })]);
    expect(f.segments.map((s) => s.sealRegular)).toEqual([true, false]);
    // Each half alone: 0,5 × 26,41 = 13,205 → 13,20; 0,5 × 121,59 = 60,795 → 60,80 (summed: 26,40 / 121,60).
    expect(f.segments.map((s) => [s.pisDue.toFixed(2), s.cofinsDue.toFixed(2)])).toEqual([['13.20', '60.80'], ['13.20', '60.80']]);
    expect(shown(f)).toEqual(['26.41', '121.59', '148.00']);
  });

  test('special regime, October 2020: 0,5 m³ on 10-22 and on 10-23, the same amounts under both decrees → 26,41 and 121,59', () => {
    const october = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2019-11-04', effectiveYear: 2020 }], 2020, 10);
    const f = month(2020, 10, october, [GRANT_2020], [{ on: '2020-10-22', volume: '0.5', revenue: '3000' }, { on: '2020-10-23', volume: '0.5', revenue: '3000' }],
      [lot({ cost: D(5000) })]);
    expect(f.segments.length).toBe(2);
    expect(shown(f)).toEqual(['26.41', '121.59', '148.00']);
  });

  test('a real change of amount is rounded once on the month too: family farming, the Selo suspended on 09-15; 0,1 m³ at 10,39 (09-10), 0,6 m³ at 26,41 (09-20)', () => {
    // art. 6º §2º: from 09-15 the family-farming lot falls back to GENERAL. Exact PIS 0,1 × 10,39 + 0,6 × 26,41 = 1,039 + 15,846
    // = 16,885 → 16,88 (8 even; per segment 1,04 + 15,85 = 16,89); Cofins 0,1 × 47,85 + 0,6 × 121,59 = 4,785 + 72,954 = 77,739 → 77,74
    // (per segment 4,78 + 72,95 = 77,73). The EFD's M210/M610 lines, one per rate, carry the centavo as one M220/M620 (docs/LAW.md).
    const september = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2025-11-03', effectiveYear: 2026 }], 2026, 9);
    const f = month(2026, 9, september, [SUSPENDED], [{ on: '2026-09-10', volume: '0.1', revenue: '600' }, { on: '2026-09-20', volume: '0.6', revenue: '3600' }],
      [lot({ familyFarmingOrigin: true, cost: D(5000) })]);
    expect(f.segments.map((s) => [s.blendedPisPerM3?.toFixed(), s.pisDue.toFixed(2), s.cofinsDue.toFixed(2)])).toEqual([['10.39', '1.04', '4.78'], ['26.41', '15.85', '72.95']]);
    expect(shown(f)).toEqual(['16.88', '77.74', '94.62']);
  });
});
