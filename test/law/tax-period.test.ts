import fc from 'fast-check';
import { Decimal } from '../../src/law/decimal';
import { NoRuleInForceError } from '../../src/law/errors';
import { createLawBook } from '../../src/law/law-book';
import { regimeForMonth } from '../../src/law/regime';
import { GrantFacts } from '../../src/law/seal-standing';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import {
  computeTaxPeriod, FeedstockGroup, figureDifferences, figuresFromJson, SaleGroup, taxSegments, TaxPeriodInput,
} from '../../src/law/tax-period';
import { BiodieselOrigin, Feedstock, Market, Region, SealEventKind, TaxRegime } from '../../src/law/types';
import { checkProperty } from '../support/property';

/**
 * The monthly computation as pure law (docs/LAW.md), over the shipped law. Expected figures
 * are worked out here from the published amounts (Decreto 10.527/2020, art. 5º §1º; art. 6º §1º):
 * GENERAL 26,41/121,59; CASTOR_PALM_PRIORITY_REGION 22,48/103,51; FAMILY_FARMING 10,39/47,85;
 * FAMILY_FARMING_PRIORITY_REGION 0/0; the zero window 2026-04-07..07-31 (art. 5º §§2º–4º).
 */

const law = createLawBook(SHIPPED_LAW);
const TODAY = '2026-12-03';
const D = (v: string | number) => new Decimal(v);
const SPECIAL = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2025-11-03', effectiveYear: 2026 }], 2026, 12);
const AD_VALOREM = regimeForMonth([], 2026, 12);
const GRANT: GrantFacts = { id: '1', grantedOn: '2025-01-01', validUntil: '2027-12-31', events: [] };
const NONE = { cost: D(0), quantityKg: D(0) };

const lot = (over: Partial<FeedstockGroup>): FeedstockGroup => ({
  feedstock: Feedstock.SOYBEAN, region: Region.SOUTH, semiarid: false, familyFarmingOrigin: false, ownProduction: false, cost: D(0), quantityKg: D(1000), ...over,
});
const sale = (segment: number, volume: string, over: Partial<SaleGroup> = {}): SaleGroup => ({
  segment, origin: BiodieselOrigin.OWN_PRODUCTION, market: Market.DOMESTIC, volumeM3: D(volume), revenue: D(100000), ...over,
});

function run(month: number, over: Partial<TaxPeriodInput>, grants: GrantFacts[] = [GRANT], asKnownOn = TODAY) {
  const segments = taxSegments(law, grants, 2026, month, asKnownOn);
  return computeTaxPeriod(law, { year: 2026, month, asKnownOn, regime: SPECIAL, segments, feedstock: [], thirdParty: NONE, sales: [], ...over }).figures;
}

describe('segments (docs/LAW.md)', () => {
  test('April 2026 as known today: 1–6 and 7–30 (art. 5º §§2º–4º)', () => {
    expect(taxSegments(law, [GRANT], 2026, 4, TODAY).map((s) => [s.from, s.to])).toEqual([['2026-04-01', '2026-04-06'], ['2026-04-07', '2026-04-30']]);
  });
  test('June 2026: one segment whether known on 2026-05-20 or today; August not cut at all', () => {
    expect(taxSegments(law, [GRANT], 2026, 6, '2026-05-20')).toHaveLength(1);
    expect(taxSegments(law, [GRANT], 2026, 8, TODAY).map((s) => [s.from, s.to])).toEqual([['2026-08-01', '2026-08-31']]);
  });
  test('a suspension and a reinstatement cut the month where the standing changes (art. 6º §2º)', () => {
    const grant: GrantFacts = { ...GRANT, events: [
      { kind: SealEventKind.SUSPENDED, effectiveOn: '2026-09-10', validUntil: null, reason: null },
      { kind: SealEventKind.REINSTATED, effectiveOn: '2026-09-21', validUntil: null, reason: null },
    ] };
    expect(taxSegments(law, [grant], 2026, 9, TODAY).map((s) => [s.from, s.to, s.sealRegular])).toEqual([
      ['2026-09-01', '2026-09-09', true], ['2026-09-10', '2026-09-20', false], ['2026-09-21', '2026-09-30', true],
    ]);
  });
  test('from 2027 PIS/Cofins are not in force (EC 132/2023, ADCT art. 126, II): one segment without them', () => {
    expect(taxSegments(law, [GRANT], 2027, 1, TODAY).map((s) => [s.from, s.to, s.pisCofins])).toEqual([['2027-01-01', '2027-01-31', false]]);
    expect(taxSegments(law, [GRANT], 2026, 12, TODAY).map((s) => s.pisCofins)).toEqual([true]);
  });
  test('before Decreto 7.768/2012 no coefficient rule is in force: a special-regime month fails with NO_RULE_IN_FORCE', () => {
    const segments = taxSegments(law, [GRANT], 2012, 5, TODAY);
    const regime = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2011-11-03', effectiveYear: 2012 }], 2012, 12);
    expect(() => computeTaxPeriod(law, { year: 2012, month: 5, asKnownOn: TODAY, regime, segments, feedstock: [], thirdParty: NONE, sales: [sale(0, '1')] })).toThrow(NoRuleInForceError);
  });
});

describe('blending (art. 6º §§3º–4º)', () => {
  test('weighted by acquisition cost; each segment rounded half-even to the centavo', () => {
    // 1/3 FAMILY_FARMING, 2/3 GENERAL: PIS (10,39 + 2 × 26,41) / 3 = 21,07; × 1 m³ = 21,07.
    // Cofins (47,85 + 2 × 121,59) / 3 = 97,01.
    const f = run(2, {
      feedstock: [lot({ familyFarmingOrigin: true, cost: D(100) }), lot({ cost: D(200) })],
      thirdParty: { cost: D(300), quantityKg: D(2000) },
      sales: [sale(0, '1')],
    });
    expect(f.segments[0].mix.map((m) => [m.category, m.share.toFixed()])).toEqual([['FAMILY_FARMING', '0.333333'], ['GENERAL', '0.666667']]);
    expect(f.pisDue.toFixed()).toBe('21.07');
    expect(f.cofinsDue.toFixed()).toBe('97.01');
  });

  test('the rounded share is only shown: the dues use the unrounded blend', () => {
    // 1/3 FAMILY_FARMING_PRIORITY_REGION (R$ 0), 2/3 GENERAL, 3.000 m³: PIS 3.000 × 2/3 × 26,41 =
    // 52.820,00 exactly; with the shown share 0,666667 it would be 52.820,026… → 52.820,03.
    const f = run(2, {
      feedstock: [lot({ familyFarmingOrigin: true, region: Region.NORTHEAST, cost: D(1) }), lot({ cost: D(2) })],
      sales: [sale(0, '3000')],
    });
    expect(f.pisDue.toFixed()).toBe('52820');
  });

  test('ties at half a centavo go to the even centavo (ABNT NBR 5891)', () => {
    // GENERAL only, 0,05 m³ × 26,41 = 1,3205 → 1,32; × 121,59 = 6,0795 → 6,08.
    const f = run(2, { feedstock: [lot({ cost: D(10) })], sales: [sale(0, '0.05')] });
    expect([f.pisDue.toFixed(), f.cofinsDue.toFixed()]).toEqual(['1.32', '6.08']);
    // 0,25 m³ × 22,48 (castor, Nordeste) = 5,62; × 103,51 = 25,8775 → 25,88 (7 is odd: up).
    const g = run(2, { feedstock: [lot({ feedstock: Feedstock.CASTOR_BEAN, region: Region.NORTHEAST, cost: D(10) })], sales: [sale(0, '0.25')] });
    expect([g.pisDue.toFixed(), g.cofinsDue.toFixed()]).toEqual(['5.62', '25.88']);
  });

  test('own production valued at the average third-party price acquired in the month (art. 6º §4º)', () => {
    const own = lot({ ownProduction: true, quantityKg: D(3000) });
    const farmer = lot({ familyFarmingOrigin: true, cost: D(2000), quantityKg: D(1000) });
    // 2 R$/kg: own worth 6.000 (GENERAL), family farming 2.000 → 3/4 GENERAL.
    const valued = run(2, { feedstock: [own, farmer], thirdParty: { cost: D(2000), quantityKg: D(1000) }, sales: [sale(0, '4')] });
    expect(valued.ownProductionPricePerKg?.toFixed()).toBe('2');
    expect(valued.ownProductionValuation).toBe('THIRD_PARTY_ACQUISITIONS');
    expect(valued.feedstockCost.toFixed()).toBe('8000');
    expect(valued.pisDue.toFixed()).toBe(D(4).times(D('26.41').times(3).plus('10.39')).div(4).toDecimalPlaces(2).toFixed()); // 4 × 22,405 = 89,62
    expect(valued.warnings).toEqual([]);
  });

  test('only own production used: kilograms, whose proportions are exact (OWN_PRODUCTION_VALUED_BY_QUANTITY)', () => {
    // 3.000 kg of own soybean (GENERAL) and 1.000 kg of own castor from the Nordeste (art. 6º I):
    // 3/4 × 26,41 + 1/4 × 22,48 = 19,8075 + 5,62 = 25,4275 per m³; × 4 m³ = 101,71.
    const f = run(2, {
      feedstock: [lot({ ownProduction: true, quantityKg: D(3000) }), lot({ ownProduction: true, feedstock: Feedstock.CASTOR_BEAN, region: Region.NORTHEAST, quantityKg: D(1000) })],
      sales: [sale(0, '4')],
    });
    expect(f.warnings.map((w) => w.code)).toEqual(['OWN_PRODUCTION_VALUED_BY_QUANTITY']);
    expect(f.ownProductionValuation).toBe('QUANTITY');
    expect(f.ownProductionPricePerKg).toBeNull();
    expect(f.feedstockCost.toFixed()).toBe('0');
    expect(f.segments[0].mix.map((m) => [m.category, m.share.toFixed()])).toEqual([['CASTOR_PALM_PRIORITY_REGION', '0.25'], ['GENERAL', '0.75']]);
    expect(f.pisDue.toFixed()).toBe('101.71');
  });

  test('no raw material used, nor earlier: GENERAL with NO_FEEDSTOCK_IN_PERIOD; imports at GENERAL; exports untaxed', () => {
    const f = run(2, { sales: [sale(0, '2'), sale(0, '1', { origin: BiodieselOrigin.IMPORTED }), sale(0, '5', { market: Market.EXPORT })] });
    expect(f.warnings.map((w) => w.code)).toEqual(['NO_FEEDSTOCK_IN_PERIOD', 'IMPORTED_BIODIESEL']);
    expect(f.pisDue.toFixed()).toBe(D('26.41').times(3).toFixed());
    expect(f.exportedVolumeM3.toFixed()).toBe('5');
  });

  test('ad valorem ignores coefficients and the zero window (Lei 11.116/2005, art. 3º)', () => {
    const segments = taxSegments(law, [GRANT], 2026, 5, TODAY);
    const f = computeTaxPeriod(law, {
      year: 2026, month: 5, asKnownOn: TODAY, regime: AD_VALOREM, segments, feedstock: [lot({ cost: D(1) })], thirdParty: NONE,
      sales: [sale(0, '1', { revenue: D('1000.10') }), sale(0, '1', { revenue: D('10'), market: Market.EXPORT })],
    }).figures;
    // 1.000,10 × 6,15% = 61,50615 → 61,51; × 28,32% = 283,22832 → 283,23
    expect([f.pisDue.toFixed(), f.cofinsDue.toFixed()]).toEqual(['61.51', '283.23']);
    expect(f.segments[0].mix).toEqual([]);
    expect(f.warnings.map((w) => w.code)).toEqual(['NO_REGIME_ELECTION']);
  });
});

describe('closed snapshots', () => {
  test('a snapshot read back equals the figures; a retroactive change is named field by field', () => {
    const input = { feedstock: [lot({ cost: D(10) })], sales: [sale(0, '10')] };
    const closed = run(2, input);
    const stored = figuresFromJson(JSON.parse(JSON.stringify(closed)));
    expect(figureDifferences(stored, closed)).toEqual([]);
    const later = run(2, { ...input, sales: [sale(0, '11')] });
    const fields = figureDifferences(stored, later).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['pisDue', 'cofinsDue', 'totalDue', 'domesticVolumeM3', 'segments[0].pisDue', 'segments[0].ownProductionVolumeM3']));
  });
});

test('property: the period dues are the sums of the segments\', and every blend lies between the category amounts', () => {
  const money = fc.integer({ min: 1, max: 10_000_000 }).map((c) => D(c).div(100));
  const group = fc.record({
    feedstock: fc.constantFrom(Feedstock.SOYBEAN, Feedstock.CASTOR_BEAN, Feedstock.PALM),
    region: fc.constantFrom(...Object.values(Region)),
    semiarid: fc.boolean(), familyFarmingOrigin: fc.boolean(), ownProduction: fc.boolean(), cost: money, quantityKg: money,
  }).map((g) => ({ ...g, cost: g.ownProduction ? D(0) : g.cost }));
  checkProperty(fc.property(
    fc.array(group, { maxLength: 6 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), money, fc.boolean()), { maxLength: 6 }), fc.boolean(),
    (feedstock, saleList, thirdParty) => {
      const f = run(4, {
        feedstock, thirdParty: thirdParty ? { cost: D(500), quantityKg: D(250) } : NONE,
        sales: saleList.map(([seg, v, imported]) => sale(seg, v.toFixed(), { origin: imported ? BiodieselOrigin.IMPORTED : BiodieselOrigin.OWN_PRODUCTION })),
      });
      const pis = f.segments.reduce((s, x) => s.plus(x.pisDue), D(0));
      expect(pis.eq(f.pisDue)).toBe(true);
      expect(f.totalDue.eq(f.pisDue.plus(f.cofinsDue))).toBe(true);
      const first = f.segments[0];
      expect(first.blendedPisPerM3!.gte(0) && first.blendedPisPerM3!.lte('26.41')).toBe(true);
      expect(f.segments[1].pisDue.isZero() && f.segments[1].cofinsDue.isZero()).toBe(true); // the zero window
    },
  ), { numRuns: 200 });
});
