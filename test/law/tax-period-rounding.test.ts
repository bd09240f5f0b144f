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

describe('the month is the sum of its segments\' rounded dues (docs/LAW.md, "Rounding of the month\'s dues")', () => {
  const AD_VALOREM = regimeForMonth([], 2026, 12);
  const SEPTEMBER = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2025-11-03', effectiveYear: 2026 }], 2026, 9);
  const SUSPENDED: GrantFacts = { ...GRANT, events: [{ kind: SealEventKind.SUSPENDED, effectiveOn: '2026-09-15', validUntil: null, reason: 'Auditoria' }] };
  const GRANT_2020: GrantFacts = { id: '1', grantedOn: '2019-01-01', validUntil: '2029-12-31', events: [] };
  /** The month's segments with one sale group on each of the given days. */
  function month(year: number, month: number, regime: typeof SPECIAL, grants: GrantFacts[], sold: { on: string; volume: string; revenue: string; origin?: BiodieselOrigin }[], feedstock: FeedstockGroup[] = []) {
    const segments = taxSegments(law, grants, year, month, TODAY);
    const sales = sold.map((s) => sale(s.volume, { revenue: D(s.revenue), origin: s.origin ?? BiodieselOrigin.OWN_PRODUCTION, segment: segments.findIndex((g) => g.from <= s.on && s.on <= g.to) }));
    const thirdParty = { cost: feedstock.reduce((a, l) => a.plus(l.cost), D(0)), quantityKg: feedstock.reduce((a, l) => a.plus(l.quantityKg), D(0)) };
    return computeTaxPeriod(law, { year, month, asKnownOn: TODAY, regime, segments, feedstock, thirdParty, sales }).figures;
  }
  const shown = (f: ReturnType<typeof month>) => [f.pisDue.toFixed(2), f.cofinsDue.toFixed(2), f.totalDue.toFixed(2)];
  const perSegment = (f: ReturnType<typeof month>) => f.segments.map((s) => [s.pisDue.toFixed(2), s.cofinsDue.toFixed(2)]);

  test('family farming, the Selo suspended on 09-15 (art. 6º §2º): 0,1 m³ at 10,39 / 47,85 (09-10), 0,6 m³ at 26,41 / 121,59 (09-20) → 16,89 / 77,73', () => {
    // From 09-15 the family-farming lot falls back to GENERAL. PIS 0,1 × 10,39 = 1,039 → 1,04; 0,6 × 26,41 = 15,846 → 15,85; the month 16,89
    // (rounding the exact 16,885 once would give 16,88). Cofins 0,1 × 47,85 = 4,785 → 4,78 (8 even); 0,6 × 121,59 = 72,954 → 72,95; the month
    // 77,73 (once: 77,739 → 77,74).
    const f = month(2026, 9, SEPTEMBER, [SUSPENDED], [{ on: '2026-09-10', volume: '0.1', revenue: '600' }, { on: '2026-09-20', volume: '0.6', revenue: '3600' }],
      [lot({ familyFarmingOrigin: true, cost: D(5000) })]);
    expect(f.segments.map((s) => [s.from, s.sealRegular, s.blendedPisPerM3?.toFixed(), s.blendedCofinsPerM3?.toFixed()])).toEqual([
      ['2026-09-01', true, '10.39', '47.85'], ['2026-09-15', false, '26.41', '121.59'],
    ]);
    expect(perSegment(f)).toEqual([['1.04', '4.78'], ['15.85', '72.95']]);
    expect(shown(f)).toEqual(['16.89', '77.73', '94.62']);
  });

  test('ad valorem, April 2026: R$ 30,00 on 04-06 and R$ 30,00 on 04-07 (the zero window cuts the month, art. 5º §2º) → 3,68 / 17,00', () => {
    // Lei 11.116/2005, art. 3º, 6,15% and 28,32% on either side (the window reaches only the per-m³ amounts):
    // 30 × 6,15% = 1,845 → 1,84 (4 even) twice, PIS 3,68 (once: 60 × 6,15% = 3,69);
    // 30 × 28,32% = 8,496 → 8,50 twice, Cofins 17,00 (once: 16,992 → 16,99).
    const f = month(2026, 4, AD_VALOREM, [GRANT], [{ on: '2026-04-06', volume: '0.01', revenue: '30' }, { on: '2026-04-07', volume: '0.01', revenue: '30' }]);
    expect(f.segments.map((s) => [s.from, s.to, s.domesticRevenue.toFixed(2)])).toEqual([['2026-04-01', '2026-04-06', '30.00'], ['2026-04-07', '2026-04-30', '30.00']]);
    expect(perSegment(f)).toEqual([['1.84', '8.50'], ['1.84', '8.50']]);
    expect(shown(f)).toEqual(['3.68', '17.00', '20.68']);
  });

  test('ad valorem, October 2020: R$ 30,00 on 10-22 (Decreto 7.768/2012) and on 10-23 (Decreto 10.527/2020) → 1,84 + 1,84 and 8,50 + 8,50', () => {
    const f = month(2020, 10, AD_VALOREM, [GRANT_2020], [{ on: '2020-10-22', volume: '0.01', revenue: '30' }, { on: '2020-10-23', volume: '0.01', revenue: '30' }]);
    expect(f.segments.length).toBe(2);
    expect(shown(f)).toEqual(['3.68', '17.00', '20.68']);
  });

  test('ad valorem, September 2026, the Selo suspended on 09-15: R$ 30,00 either side → 3,68 / 17,00 (the cut is kept under both regimes)', () => {
    const f = month(2026, 9, AD_VALOREM, [SUSPENDED], [{ on: '2026-09-10', volume: '0.01', revenue: '30' }, { on: '2026-09-20', volume: '0.01', revenue: '30' }]);
    expect(f.segments.map((s) => s.sealRegular)).toEqual([true, false]);
    expect(shown(f)).toEqual(['3.68', '17.00', '20.68']);
  });

  test('special regime, GENERAL soy only, the Selo suspended on 09-15: 0,5 m³ on 09-10 and on 09-20 → 13,20 + 13,20 and 60,80 + 60,80', () => {
    // 0,5 × 26,41 = 13,205 → 13,20 (0 even); 0,5 × 121,59 = 60,795 → 60,80 (9 odd: up). The month 26,40 / 121,60.
    const f = month(2026, 9, SEPTEMBER, [SUSPENDED], [{ on: '2026-09-10', volume: '0.5', revenue: '3000' }, { on: '2026-09-20', volume: '0.5', revenue: '3000' }],
      [lot({ cost: D(5000) })]);
    expect(f.segments.map((s) => s.sealRegular)).toEqual([true, false]);
    expect(perSegment(f)).toEqual([['13.20', '60.80'], ['13.20', '60.80']]);
    expect(shown(f)).toEqual(['26.40', '121.60', '148.00']);
  });

  test('special regime, October 2020: 0,5 m³ on 10-22 and on 10-23, the same amounts under both decrees → 26,40 / 121,60', () => {
    const october = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2019-11-04', effectiveYear: 2020 }], 2020, 10);
    const f = month(2020, 10, october, [GRANT_2020], [{ on: '2020-10-22', volume: '0.5', revenue: '3000' }, { on: '2020-10-23', volume: '0.5', revenue: '3000' }],
      [lot({ cost: D(5000) })]);
    expect(perSegment(f)).toEqual([['13.20', '60.80'], ['13.20', '60.80']]);
    expect(shown(f)).toEqual(['26.40', '121.60', '148.00']);
  });

  describe('property: random months of several segments, each segment the exact value half-even, the month their sum', () => {
    // September 2026, the Selo suspended and reinstated on random days (one cut per event, nothing
    // else cuts the month). Lots of kinds whose category depends only on the Selo's standing (art. 6º
    // §2º): family farming of the Sul (II, else GENERAL), family farming of the Nordeste (III, else
    // GENERAL: soybean), castor of the Nordeste (I either way), GENERAL. In integers: costs and amounts in
    // centavos, volumes in litres, revenue in centavos, rates in basis points of a percent (6,15% = 615 / 10.000).
    const AMOUNTS = { FF: [1039n, 4785n], FF_PRIORITY: [0n, 0n], CASTOR: [2248n, 10351n], GENERAL: [2641n, 12159n] } as const;
    const LOTS = {
      FF_SUL: { facts: { familyFarmingOrigin: true, region: Region.SOUTH }, regular: 'FF', lost: 'GENERAL' },
      FF_NORDESTE: { facts: { familyFarmingOrigin: true, region: Region.NORTHEAST }, regular: 'FF_PRIORITY', lost: 'GENERAL' },
      CASTOR_NORDESTE: { facts: { feedstock: Feedstock.CASTOR_BEAN, region: Region.NORTHEAST }, regular: 'CASTOR', lost: 'CASTOR' },
      GENERAL: { facts: { region: Region.SOUTH }, regular: 'GENERAL', lost: 'GENERAL' },
    } as const;
    type LotKind = keyof typeof LOTS;
    const RATES = [615n, 2832n];
    const halfEven = (n: bigint, d: bigint) => {
      const q = n / d;
      const r2 = (n % d) * 2n;
      return r2 > d || (r2 === d && q % 2n === 1n) ? q + 1n : q;
    };
    const centavos = (c: bigint) => new Decimal(c.toString()).div(100).toFixed(2);
    const day = (d: number) => `2026-09-${String(d).padStart(2, '0')}`;

    test('special regime and ad valorem, own and imported sales', () => {
      checkProperty(fc.property(
        fc.boolean(),
        fc.uniqueArray(fc.integer({ min: 2, max: 30 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.record({ kind: fc.constantFrom<LotKind>('FF_SUL', 'FF_NORDESTE', 'CASTOR_NORDESTE', 'GENERAL'), centavos: fc.integer({ min: 1, max: 5_000_000 }) }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.record({ day: fc.integer({ min: 1, max: 30 }), litres: fc.integer({ min: 1, max: 2_000_000 }), revenue: fc.integer({ min: 1, max: 1_000_000_000 }), imported: fc.boolean() }), { minLength: 2, maxLength: 8 }),
        (special, eventDays, lots, sold) => {
          // Suspended, reinstated, suspended, …: the standing changes on each event's day.
          const events = [...eventDays].sort((a, b) => a - b).map((d, i) => ({ kind: i % 2 === 0 ? SealEventKind.SUSPENDED : SealEventKind.REINSTATED, effectiveOn: day(d), validUntil: null, reason: null }));
          const feedstock = lots.map((l) => lot({ ...LOTS[l.kind].facts, cost: D(l.centavos).div(100) }));
          const f = month(2026, 9, special ? SEPTEMBER : AD_VALOREM, [{ ...GRANT, events }], sold.map((s) => ({
            on: day(s.day), volume: D(s.litres).div(1000).toFixed(), revenue: D(s.revenue).div(100).toFixed(), origin: s.imported ? BiodieselOrigin.IMPORTED : BiodieselOrigin.OWN_PRODUCTION,
          })), feedstock);
          expect(f.segments).toHaveLength(eventDays.length + 1);
          const expected = [0, 1].map((t) => f.segments.map((seg) => {
            const here = sold.filter((s) => seg.from <= day(s.day) && day(s.day) <= seg.to);
            if (!special) return halfEven(here.reduce((a, s) => a + BigInt(s.revenue), 0n) * RATES[t], 10_000n);
            const own = here.filter((s) => !s.imported).reduce((a, s) => a + BigInt(s.litres), 0n);
            const imp = here.filter((s) => s.imported).reduce((a, s) => a + BigInt(s.litres), 0n);
            const total = lots.reduce((a, l) => a + BigInt(l.centavos), 0n);
            const weighed = lots.reduce((a, l) => a + BigInt(l.centavos) * AMOUNTS[LOTS[l.kind][seg.sealRegular ? 'regular' : 'lost']][t], 0n);
            return halfEven(own * weighed + imp * AMOUNTS.GENERAL[t] * total, 1000n * total);
          }));
          expect(f.segments.map((s) => [s.pisDue.toFixed(2), s.cofinsDue.toFixed(2)])).toEqual(f.segments.map((_, i) => [centavos(expected[0][i]), centavos(expected[1][i])]));
          // The month: the sum of the segments' rounded dues, as shown.
          const [pis, cofins] = expected.map((e) => e.reduce((a, c) => a + c, 0n));
          expect(shown(f)).toEqual([centavos(pis), centavos(cofins), centavos(pis + cofins)]);
          expect(f.pisDue.eq(f.segments.reduce((a, s) => a.plus(s.pisDue), D(0)))).toBe(true);
          expect(f.cofinsDue.eq(f.segments.reduce((a, s) => a.plus(s.cofinsDue), D(0)))).toBe(true);
        },
      ), { numRuns: 300 });
    });
  });
});
