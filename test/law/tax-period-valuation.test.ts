import { findingMessage } from '../../src/i18n/finding-message';
import { Decimal } from '../../src/law/decimal';
import { createLawBook } from '../../src/law/law-book';
import { regimeForMonth } from '../../src/law/regime';
import { GrantFacts } from '../../src/law/seal-standing';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { computeTaxPeriod, EarlierFeedstock, FeedstockGroup, needsEarlierFeedstock, SaleGroup, taxSegments, TaxPeriodInput } from '../../src/law/tax-period';
import { BiodieselOrigin, Feedstock, Market, Region, TaxRegime } from '../../src/law/types';

/**
 * Own production and stock sold (Decreto 10.527/2020, art. 6º §§3º–4º; docs/LAW.md): bought lots
 * always weigh by their own cost; own production is valued at the average price per kg of the
 * third-party raw material acquired in the month, else of the third-party lots used in it, else
 * (only own production) by kg; a month that used no raw material takes the blend of the latest
 * earlier month with raw material used. Amounts (art. 5º §1º; art. 6º §1º): GENERAL 26,41 / 121,59;
 * CASTOR_PALM_PRIORITY_REGION 22,48 / 103,51; FAMILY_FARMING 10,39 / 47,85.
 */

const law = createLawBook(SHIPPED_LAW);
const TODAY = '2026-12-03';
const D = (v: string | number) => new Decimal(v);
const SPECIAL = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2025-11-03', effectiveYear: 2026 }], 2026, 12);
const GRANT: GrantFacts = { id: '1', grantedOn: '2025-01-01', validUntil: '2027-12-31', events: [] };
const NONE = { cost: D(0), quantityKg: D(0) };

const lot = (over: Partial<FeedstockGroup>): FeedstockGroup => ({
  feedstock: Feedstock.SOYBEAN, region: Region.SOUTH, semiarid: false, familyFarmingOrigin: false, ownProduction: false, cost: D(0), quantityKg: D(1000), ...over,
});
const sale = (volume: string, over: Partial<SaleGroup> = {}): SaleGroup => ({
  segment: 0, origin: BiodieselOrigin.OWN_PRODUCTION, market: Market.DOMESTIC, volumeM3: D(volume), revenue: D(100000), ...over,
});
function run(month: number, over: Partial<TaxPeriodInput>, grants: GrantFacts[] = [GRANT]) {
  const segments = taxSegments(law, grants, 2026, month, TODAY);
  return computeTaxPeriod(law, { year: 2026, month, asKnownOn: TODAY, regime: SPECIAL, segments, feedstock: [], thirdParty: NONE, sales: [], ...over }).figures;
}

// September 2026: 2.000 kg of own castor from the Nordeste (art. 6º I: CASTOR_PALM_PRIORITY_REGION),
// with two lots bought in August and used (consumedOn) in September: a family farmer's soybean from
// the Sul, 1.000 kg for R$ 3.000 (art. 6º II: FAMILY_FARMING) and a trader's soybean, 2.000 kg for
// R$ 4.000 (GENERAL). Nothing acquired from third parties in September itself.
const OWN_CASTOR = lot({ ownProduction: true, feedstock: Feedstock.CASTOR_BEAN, region: Region.NORTHEAST, quantityKg: D(2000) });
const FARMER = lot({ familyFarmingOrigin: true, cost: D(3000), quantityKg: D(1000) });
const TRADER = lot({ cost: D(4000), quantityKg: D(2000) });
const SEPTEMBER = [OWN_CASTOR, FARMER, TRADER];

describe('own castor with lots bought the month before (art. 6º §4º; docs/LAW.md)', () => {
  test('no acquisition in the month: own production at the average price per kg of the third-party lots used', () => {
    // Lots used: R$ 7.000 for 3.000 kg = 2,333… R$/kg; own castor 2.000 kg × 7.000/3.000 = 4.666,67.
    // Weights: castor 4.666,67, family farming 3.000, general 4.000; total 11.666,67.
    // Shares: 0,4; 3.000/11.666,67 = 0,257143; 4.000/11.666,67 = 0,342857.
    // PIS per m³ = (14.000/3 × 22,48 + 3.000 × 10,39 + 4.000 × 26,41) / (35.000/3)
    //            = (314,72 + 93,51 + 316,92) / 35 = 725,15 / 35 = 20,718571…; × 10 m³ = 207,19.
    // Cofins     = (14 × 103,51 + 9 × 47,85 + 12 × 121,59) / 35 = 3.338,87 / 35 = 95,396285…; × 10 = 953,96.
    const f = run(9, { feedstock: SEPTEMBER, sales: [sale('10')] });
    expect(f.ownProductionValuation).toBe('THIRD_PARTY_LOTS_USED');
    expect(f.ownProductionPricePerKg?.toFixed()).toBe('2.333333');
    expect(f.segments[0].mix.map((m) => [m.category, m.cost.toFixed(), m.share.toFixed()])).toEqual([
      ['FAMILY_FARMING', '3000', '0.257143'], ['CASTOR_PALM_PRIORITY_REGION', '4666.67', '0.4'], ['GENERAL', '4000', '0.342857'],
    ]);
    expect(f.feedstockCost.toFixed()).toBe('11666.67');
    expect([f.pisDue.toFixed(), f.cofinsDue.toFixed()]).toEqual(['207.19', '953.96']);
    expect(f.warnings.map((w) => w.code)).toEqual(['OWN_PRODUCTION_VALUED_BY_LOTS_USED']);
    expect(f.warnings[0].legalBasis).toBe('Decreto 10.527/2020, art. 6º §4º (own production valued at the average third-party price per kg)');
    expect(f.segments[0].legalBasis).toContain('at the average price per kg of the third-party lots used (Interpretation');
    // Not by kg (2.000 castor : 1.000 : 2.000 would give 22,48 × 0,4 + 10,39 × 0,2 + 26,41 × 0,4 = 21,63 per m³).
    expect(f.pisDue.toFixed()).not.toBe('216.30');
  });

  test('with an acquisition in the month, its average price values own production (the literal §4º)', () => {
    // 500 kg bought in September for R$ 1.500 (used in October): 3 R$/kg; own castor 2.000 kg = 6.000.
    // Weights scaled by 500 kg: castor 2.000 × 1.500 = 3.000.000; family farming 3.000 × 500 = 1.500.000;
    // general 4.000 × 500 = 2.000.000; total 6.500.000 (= 13.000 × 500).
    // PIS = (6.000 × 22,48 + 3.000 × 10,39 + 4.000 × 26,41) / 13.000 = (134,88 + 31,17 + 105,64) / 13 = 271,69 / 13
    //     = 20,899230…; × 10 = 208,99. Cofins = (6 × 103,51 + 3 × 47,85 + 4 × 121,59) / 13 = 1.250,97 / 13 = 96,228461…; × 10 = 962,28.
    const f = run(9, { feedstock: SEPTEMBER, thirdParty: { cost: D(1500), quantityKg: D(500) }, sales: [sale('10')] });
    expect(f.ownProductionValuation).toBe('THIRD_PARTY_ACQUISITIONS');
    expect(f.ownProductionPricePerKg?.toFixed()).toBe('3');
    expect(f.feedstockCost.toFixed()).toBe('13000');
    expect([f.pisDue.toFixed(), f.cofinsDue.toFixed()]).toEqual(['208.99', '962.28']);
    expect(f.warnings).toEqual([]);
  });

  test('bought lots weigh by their own cost whatever the valuation of own production', () => {
    // Without own production the same lots: 3.000 FAMILY_FARMING, 4.000 GENERAL → (3 × 10,39 + 4 × 26,41) / 7
    // = (31,17 + 105,64) / 7 = 19,544285…; × 7 m³ = 136,81.
    const f = run(9, { feedstock: [FARMER, TRADER], sales: [sale('7')] });
    expect(f.ownProductionValuation).toBeNull();
    expect(f.pisDue.toFixed()).toBe('136.81');
  });
});

describe('a stock-only month (docs/LAW.md: the blend of the latest earlier month with raw material used)', () => {
  const earlier: EarlierFeedstock = { year: 2026, month: 9, feedstock: SEPTEMBER, thirdParty: NONE };

  test('October sells from stock: September\'s blend with October\'s amounts and Selo standing', () => {
    // September's weights (above): PIS 20,718571… × 5 m³ = 103,59; Cofins 95,396285… × 5 = 476,98.
    const f = run(10, { earlier, sales: [sale('5')] });
    expect(f.blendPeriod).toEqual({ year: 2026, month: 9 });
    expect([f.pisDue.toFixed(), f.cofinsDue.toFixed()]).toEqual(['103.59', '476.98']);
    expect(f.feedstockCost.toFixed()).toBe('0'); // nothing used in October itself
    expect(f.warnings.map((w) => w.code)).toEqual(['BLEND_OF_EARLIER_PERIOD', 'OWN_PRODUCTION_VALUED_BY_LOTS_USED']);
    expect(findingMessage(f.warnings[0])).toContain('2026-09');
    expect(findingMessage(f.warnings[1])).toContain('In 2026-09');
    expect(f.segments[0].legalBasis).toContain('with the raw material of 2026-09, the latest earlier month with raw material used');
  });

  test('the Selo lapsed in October: the family-farming lot of September falls to GENERAL (art. 6º §2º, judged on the sale date)', () => {
    // castor 14/35, GENERAL (9 + 12)/35: PIS = (14 × 22,48 + 21 × 26,41) / 35 = (314,72 + 554,61) / 35 = 24,838; × 5 = 124,19.
    // Cofins = (14 × 103,51 + 21 × 121,59) / 35 = (1.449,14 + 2.553,39) / 35 = 114,358; × 5 = 571,79.
    const lapsed: GrantFacts = { ...GRANT, validUntil: '2026-09-30' };
    const f = run(10, { earlier, sales: [sale('5')] }, [lapsed]);
    expect([f.pisDue.toFixed(), f.cofinsDue.toFixed()]).toEqual(['124.19', '571.79']);
    expect(f.warnings.map((w) => w.code)).toContain('SEAL_NOT_REGULAR');
  });

  test('with no earlier month either: GENERAL and NO_FEEDSTOCK_IN_PERIOD (5 × 26,41 = 132,05)', () => {
    const f = run(10, { earlier: null, sales: [sale('5')] });
    expect(f.blendPeriod).toBeNull();
    expect(f.pisDue.toFixed()).toBe('132.05');
    expect(f.warnings.map((w) => w.code)).toEqual(['NO_FEEDSTOCK_IN_PERIOD']);
    // The mix shown: GENERAL alone, the whole of it, with no raw material behind it.
    expect(f.segments.map((s) => s.mix.map((m) => [m.category, m.share.toFixed(), m.cost.toFixed(), m.quantityKg.toFixed()]))).toEqual([[['GENERAL', '1', '0', '0']]]);
  });

  test('imported biodiesel sold in both segments of a month (April 2026, cut on the 7th): each finding of the month once', () => {
    const imported = { origin: BiodieselOrigin.IMPORTED };
    const f = run(4, { earlier: null, sales: [sale('2', imported), sale('3', { ...imported, segment: 1 })] });
    expect(f.segments).toHaveLength(2);
    expect(f.warnings.map((w) => w.code)).toEqual(['NO_FEEDSTOCK_IN_PERIOD', 'IMPORTED_BIODIESEL']);
  });

  test('the earlier month is looked for only when the special regime computes a month with no raw material used', () => {
    const october = taxSegments(law, [GRANT], 2026, 10, TODAY);
    expect(needsEarlierFeedstock(SPECIAL, october, [])).toBe(true);
    expect(needsEarlierFeedstock(SPECIAL, october, [FARMER])).toBe(false);
    expect(needsEarlierFeedstock(regimeForMonth([], 2026, 12), october, [])).toBe(false);
    expect(needsEarlierFeedstock(SPECIAL, taxSegments(law, [GRANT], 2027, 1, TODAY), [])).toBe(false);
    // A month with raw material of its own ignores any earlier one.
    const own = run(10, { earlier, feedstock: [TRADER], sales: [sale('1')] });
    expect(own.blendPeriod).toBeNull();
    expect(own.pisDue.toFixed()).toBe('26.41');
  });
});
