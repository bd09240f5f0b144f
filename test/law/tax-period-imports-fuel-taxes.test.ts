import { findingMessage } from '../../src/i18n/finding-message';
import { Decimal } from '../../src/law/decimal';
import { createLawBook, LawVersionRecord } from '../../src/law/law-book';
import { regimeForMonth } from '../../src/law/regime';
import { GrantFacts } from '../../src/law/seal-standing';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import {
  completeSnapshot, computeTaxPeriod, FeedstockGroup, figureDifferences, figuresFromJson, ImportFacts, importContributions, SaleGroup, saleGroups, SaleRowFacts, taxSegments,
  TaxPeriodInput,
} from '../../src/law/tax-period';
import { BiodieselOrigin, Feedstock, FuelTax, Market, Region, TaxRegime } from '../../src/law/types';

/**
 * Imports (Decreto 10.527/2020, art. 5º §1º and §3º; art. 6º §5º), the months before 2020-10-23
 * (Decreto 7.768/2012) and the single-phase taxes on fuels from 2027 (LC 214/2025, arts. 172–175),
 * worked out by hand from the published amounts: GENERAL R$ 26,41 / 121,59 per m³; R$ 0,00 in the
 * window 2026-04-07..07-31.
 */

const law = createLawBook(SHIPPED_LAW);
const TODAY = '2026-12-03';
const D = (v: string | number) => new Decimal(v);
const GRANT: GrantFacts = { id: '1', grantedOn: '2019-01-01', validUntil: '2029-12-31', events: [] };
const NONE = { cost: D(0), quantityKg: D(0) };
const special = (year: number) => regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2018-11-05', effectiveYear: 2019 }], year, 12);
const lot = (over: Partial<FeedstockGroup>): FeedstockGroup => ({
  feedstock: Feedstock.SOYBEAN, region: Region.SOUTH, semiarid: false, familyFarmingOrigin: false, ownProduction: false, cost: D(1000), quantityKg: D(1000), ...over,
});
const sale = (segment: number, volume: string, over: Partial<SaleGroup> = {}): SaleGroup => ({
  segment, origin: BiodieselOrigin.OWN_PRODUCTION, market: Market.DOMESTIC, volumeM3: D(volume), revenue: D(100000), ...over,
});
const imp = (id: string, clearedOn: string, volume: string): ImportFacts => ({ id, declarationNumber: `26/000000${id}-0`, clearedOn, volumeM3: D(volume) });
function run(year: number, month: number, over: Partial<TaxPeriodInput>, book = law, asKnownOn = TODAY) {
  const segments = taxSegments(book, [GRANT], year, month, asKnownOn);
  return computeTaxPeriod(book, { year, month, asKnownOn, regime: special(year), segments, feedstock: [], thirdParty: NONE, sales: [], ...over }).figures;
}

describe('imports: PIS/Pasep-Importação and Cofins-Importação per m³ (art. 5º §1º)', () => {
  test('outside the window: 33,333 m³ × 26,41 = 880,32453 → 880,32; × 121,59 = 4.052,95947 → 4.052,96', () => {
    const block = importContributions(law, [imp('1', '2026-09-10', '33.333')], TODAY);
    expect(block.imports.map((l) => [l.pisPerM3?.toFixed(), l.cofinsPerM3?.toFixed(), l.pisDue.toFixed(), l.cofinsDue.toFixed()])).toEqual([['26.41', '121.59', '880.32', '4052.96']]);
    expect([block.volumeM3.toFixed(), block.pisDue.toFixed(), block.cofinsDue.toFixed(), block.totalDue.toFixed()]).toEqual(['33.333', '880.32', '4052.96', '4933.28']);
    expect(block.imports[0].legalBasis).toBe('PIS/Pasep-Importação and Cofins-Importação per m³: Decreto 10.527/2020, art. 5º, caput and §1º; Decreto 10.527/2020, art. 6º §5º (imported biodiesel at the general amounts)');
  });

  test('in the 2026 window: R$ 0,00 (art. 5º §3º names PIS/Pasep-Importação and Cofins-Importação)', () => {
    const block = importContributions(law, [imp('1', '2026-05-15', '100')], TODAY);
    expect([block.pisDue.toFixed(), block.cofinsDue.toFixed()]).toEqual(['0', '0']);
    expect(block.imports[0].legalBasis).toContain('art. 5º §§2º–4º');
    // As known on 2026-05-20 the window ended on 05-31: a clearance on 06-10 paid 100 × 26,41 = 2.641,00.
    expect(importContributions(law, [imp('1', '2026-06-10', '100')], '2026-05-20').pisDue.toFixed()).toBe('2641');
    expect(importContributions(law, [imp('1', '2026-06-10', '100')], TODAY).pisDue.toFixed()).toBe('0');
  });

  test('each declaration is rounded on its own: two of 0,35 m³ → 9,2435 → 9,24 twice = 18,48 (not 0,7 × 26,41 = 18,487 → 18,49)', () => {
    // Cofins: 0,35 × 121,59 = 42,5565 → 42,56, twice 85,12 (not 0,7 × 121,59 = 85,113 → 85,11).
    const block = importContributions(law, [imp('2', '2026-09-20', '0.35'), imp('1', '2026-09-03', '0.35')], TODAY);
    expect(block.imports.map((l) => l.id)).toEqual(['1', '2']); // by clearance date
    expect([block.pisDue.toFixed(), block.cofinsDue.toFixed()]).toEqual(['18.48', '85.12']);
  });

  test('the month\'s import block is apart from the domestic sales, whatever the regime (Interpretation: per m³ for every importer)', () => {
    const adValorem = regimeForMonth([], 2026, 12);
    const segments = taxSegments(law, [GRANT], 2026, 9, TODAY);
    const f = computeTaxPeriod(law, {
      year: 2026, month: 9, asKnownOn: TODAY, regime: adValorem, segments, feedstock: [], thirdParty: NONE,
      sales: [sale(0, '1', { revenue: D('1000') })], imports: [imp('1', '2026-09-10', '33.333')],
    }).figures;
    // Sales ad valorem: 1.000 × 6,15% = 61,50; the imports' block on its own.
    expect([f.pisDue.toFixed(), f.cofinsDue.toFixed()]).toEqual(['61.5', '283.2']);
    expect([f.imports!.pisDue.toFixed(), f.imports!.cofinsDue.toFixed()]).toEqual(['880.32', '4052.96']);
    expect(f.fuelTaxes).toEqual([]);
  });

  test('before 2020-10-23 the general amounts of Decreto 7.768/2012; from 2027 the contributions are extinct', () => {
    const before = importContributions(law, [imp('1', '2019-03-01', '10')], TODAY).imports[0];
    expect([before.pisDue.toFixed(), before.cofinsDue.toFixed()]).toEqual(['264.1', '1215.9']);
    expect(before.legalBasis).toContain('Decreto 7.768/2012');
    expect(before.legalBasis).not.toContain('art. 6º §5º');
    const after = importContributions(law, [imp('1', '2027-01-15', '10')], TODAY).imports[0];
    expect([after.pisPerM3, after.cofinsPerM3, after.pisDue.toFixed(), after.cofinsDue.toFixed()]).toEqual([null, null, '0', '0']);
    expect(after.legalBasis).toContain('EC 132/2023, ADCT art. 126, II');
  });
});

describe('October 2020: Decreto 7.768/2012 until the 22nd, Decreto 10.527/2020 from the 23rd', () => {
  test('a sale on 2020-10-20 and one on 2020-10-26: the same amounts, each cited from its own decree', () => {
    // Half family farming (R$ 1.000, art. 6º II), half general (R$ 1.000): PIS (10,39 + 26,41) / 2 = 18,40;
    // Cofins (47,85 + 121,59) / 2 = 84,72. 10 m³ on the 20th: 184,00 / 847,20; 5 m³ on the 26th: 92,00 / 423,60.
    const f = run(2020, 10, {
      feedstock: [lot({ familyFarmingOrigin: true }), lot({})],
      thirdParty: { cost: D(2000), quantityKg: D(2000) },
      sales: [sale(0, '10'), sale(1, '5')],
    });
    expect(f.segments.map((s) => [s.from, s.to, s.pisDue.toFixed(), s.cofinsDue.toFixed()])).toEqual([
      ['2020-10-01', '2020-10-22', '184', '847.2'], ['2020-10-23', '2020-10-31', '92', '423.6'],
    ]);
    const [before, after] = f.segments.map((s) => s.legalBasis.split('; '));
    // Before the 23rd every provision but the statute's art. 4º names the revoked decree.
    expect(before[0]).toBe('Lei 11.116/2005, art. 4º');
    for (const part of before.slice(1)) expect(part).toContain('Decreto 7.768/2012');
    for (const part of f.segments[0].mix) expect(part.legalBasis).toContain('Decreto 7.768/2012 (revoked by Decreto 10.527/2020, art. 9º III)');
    for (const part of after) expect(part).not.toContain('7.768');
    expect(after).toContain('Decreto 10.527/2020, art. 6º §3º (average weighted by the acquisition cost of the raw material used)');
  });
});

describe('from 2027: the CBS on biodiesel (LC 214/2025, arts. 172–175), data and never an error', () => {
  // January 2027: 10 m³ of own production sold on the domestic market, 3 m³ of imported biodiesel sold
  // (taxed at its import, not again), 2 m³ exported (no tax), and 4 m³ imported (cleared) on 2027-01-15.
  const january = {
    feedstock: [lot({})], thirdParty: NONE,
    sales: [sale(0, '10'), sale(0, '3', { origin: BiodieselOrigin.IMPORTED }), sale(0, '2', { market: Market.EXPORT })],
    imports: [imp('7', '2027-01-15', '4')],
  };
  const CBS_RATE: LawVersionRecord = {
    parameter: 'fuel-tax-rate', scope: 'CBS', value: { perM3: '187.4567' }, validFrom: '2027-01-01', validUntil: null,
    publishedOn: '2026-12-20', legalBasis: 'Decreto hipotético nº 1/2026, art. 1º (CBS per m³ of biodiesel B100)',
  };

  test('no rate published: the volumes, the formula and RATE_NOT_PUBLISHED with its legal basis; no PIS/Cofins', () => {
    const f = run(2027, 1, january);
    expect(f.segments.map((s) => [s.from, s.to, s.pisCofinsInForce, s.pisDue.toFixed(), s.cofinsDue.toFixed()])).toEqual([['2027-01-01', '2027-01-31', false, '0', '0']]);
    expect(f.segments[0].legalBasis).toContain('EC 132/2023, ADCT art. 126, II');
    expect([f.pisDue.toFixed(), f.cofinsDue.toFixed(), f.totalDue.toFixed()]).toEqual(['0', '0', '0']);
    const [cbs] = f.fuelTaxes!;
    // Base: 10 (own, domestic) + 4 (cleared) = 14 m³.
    expect([cbs.tax, cbs.status, cbs.ownProductionVolumeM3.toFixed(), cbs.importedVolumeM3.toFixed(), cbs.volumeM3.toFixed(), cbs.ratePerM3, cbs.due])
      .toEqual(['CBS', 'RATE_NOT_PUBLISHED', '10', '4', '14', null, null]);
    expect(cbs.formula).toContain('art. 173 §2º');
    expect(cbs.legalBasis).toContain('Lei Complementar 214/2025, arts. 172–175');
    expect(cbs.legalBasis).toContain('art. 174 III b');
    expect(f.warnings.map((w) => w.code)).toEqual(['RATE_NOT_PUBLISHED']);
    expect(findingMessage(f.warnings[0])).toContain('2027-01-01 to 2027-01-31');
    expect(f.fuelTaxes!.map((t) => t.tax)).toEqual([FuelTax.CBS]); // the IBS only from 2029
    expect(f.regimeBasis).toContain('extinct from 2027-01-01');
    // The import's PIS/Cofins-Importação are extinct; its volume is in the CBS above.
    expect(f.imports!.imports.map((l) => [l.pisDue.toFixed(), l.cofinsDue.toFixed()])).toEqual([['0', '0']]);
  });

  test('an ADMIN publishes the rate: as known before the publication, still RATE_NOT_PUBLISHED; after, 14 × 187,4567 = 2.624,3938 → 2.624,39', () => {
    const book = createLawBook([...SHIPPED_LAW, CBS_RATE]);
    const before = run(2027, 1, january, book, '2026-12-19');
    expect(before.fuelTaxes![0].status).toBe('RATE_NOT_PUBLISHED');
    const after = run(2027, 1, january, book, '2026-12-20');
    const [cbs] = after.fuelTaxes!;
    expect([cbs.status, cbs.ratePerM3?.toFixed(), cbs.due?.toFixed()]).toEqual(['COMPUTED', '187.4567', '2624.39']);
    expect(cbs.legalBasis).toContain('rate: Decreto hipotético nº 1/2026');
    expect(after.warnings).toEqual([]);
  });

  test('a January 2027 closed before the rate\'s publication reads back as it was, and names what the publication changes', () => {
    const closed = run(2027, 1, january);
    const stored = completeSnapshot(figuresFromJson(JSON.parse(JSON.stringify(closed))));
    expect(figureDifferences(stored, closed)).toEqual([]);
    expect(stored.fuelTaxes![0].volumeM3.toFixed()).toBe('14');
    const after = run(2027, 1, january, createLawBook([...SHIPPED_LAW, CBS_RATE]), '2026-12-20');
    expect(figureDifferences(stored, after)).toEqual([
      { field: 'fuelTaxes.CBS.status', closed: 'RATE_NOT_PUBLISHED', recomputed: 'COMPUTED' },
      { field: 'fuelTaxes.CBS.ratePerM3', closed: null, recomputed: '187.4567' },
      { field: 'fuelTaxes.CBS.due', closed: null, recomputed: '2624.39' },
    ]);
  });

  test('a snapshot taken before imports and fuel taxes were kept reads back with them empty, PIS/Cofins in force', () => {
    const figures = run(2026, 9, { feedstock: [lot({})], sales: [sale(0, '1')] });
    const old = JSON.parse(JSON.stringify(figures));
    for (const k of ['imports', 'fuelTaxes', 'ownProductionValuation', 'blendPeriod']) delete old[k];
    for (const seg of old.segments) delete seg.pisCofinsInForce;
    const stored = completeSnapshot(figuresFromJson(old));
    expect([stored.imports!.imports, stored.fuelTaxes, stored.segments[0].pisCofinsInForce, stored.ownProductionValuation]).toEqual([[], [], true, null]);
    expect(figureDifferences(stored, figures)).toEqual([]);
  });

  test('a rate from 2027-03-15 cuts March; each run rounded half-even on its own and summed', () => {
    // 1,5 m³ on 03-10 (no rate) and 2 m³ on 03-20 at 0,125 per m³ = 0,25.
    const book = createLawBook([...SHIPPED_LAW, { ...CBS_RATE, value: { perM3: '0.125' }, validFrom: '2027-03-15' }]);
    const known = '2026-12-21';
    const segments = taxSegments(book, [GRANT], 2027, 3, known);
    expect(segments.map((s) => [s.from, s.to])).toEqual([['2027-03-01', '2027-03-14'], ['2027-03-15', '2027-03-31']]);
    const f = computeTaxPeriod(book, {
      year: 2027, month: 3, asKnownOn: known, regime: special(2027), segments, feedstock: [], thirdParty: NONE, sales: [sale(0, '1.5'), sale(1, '2')],
    }).figures;
    const [cbs] = f.fuelTaxes!;
    expect(cbs.segments.map((s) => [s.from, s.to, s.status, s.volumeM3.toFixed(), s.due?.toFixed() ?? null])).toEqual([
      ['2027-03-01', '2027-03-14', 'RATE_NOT_PUBLISHED', '1.5', null], ['2027-03-15', '2027-03-31', 'COMPUTED', '2', '0.25'],
    ]);
    expect([cbs.status, cbs.due, cbs.ratePerM3]).toEqual(['RATE_NOT_PUBLISHED', null, null]);
    expect(f.warnings.map((w) => findingMessage(w))).toEqual([expect.stringContaining('2027-03-01 to 2027-03-14')]);
  });

  test('January 2027 as known on 2024-06-01: PIS/Cofins extinct (EC 132/2023, DOU 2023-12-21), the CBS due but not determinable (no LC 214/2025 yet), never 0', () => {
    const f = run(2027, 1, january, law, '2024-06-01');
    expect([f.pisDue.toFixed(), f.cofinsDue.toFixed(), f.segments[0].pisCofinsInForce]).toEqual(['0', '0', false]);
    const [cbs] = f.fuelTaxes!;
    // The volumes are the month's facts (10 own + 4 cleared); the amount is null, not 0,00.
    expect([cbs.tax, cbs.status, cbs.volumeM3.toFixed(), cbs.ratePerM3, cbs.due]).toEqual(['CBS', 'RATE_NOT_PUBLISHED', '14', null, null]);
    expect(cbs.formula).toBe('CBS on biodiesel from 2027-01-01 (EC 132/2023, ADCT art. 126, I): its base and rate are set by complementary law, none published as known on 2024-06-01');
    expect(cbs.legalBasis).toContain('EC 132/2023, ADCT art. 126, I–II');
    expect(cbs.legalBasis).not.toContain('214/2025');
    expect(f.warnings.map((w) => [w.code, w.legalBasis])).toEqual([['CBS_NOT_REGULATED', 'EC 132/2023, ADCT art. 126, I–II']]);
    expect(findingMessage(f.warnings[0])).toBe('PIS/Pasep and Cofins are extinct for 2027-01-01 to 2027-01-31 and the CBS replaces them (EC 132/2023, ADCT art. 126, I–II), but as known on 2024-06-01 no law setting the CBS on biodiesel, its base and rate, is published: the CBS is due and cannot be determined (it is not zero); the amount follows that law and its rate.');
    // As known once LC 214/2025 is published (2025-01-16): its levy, its formula, RATE_NOT_PUBLISHED as before.
    const known = run(2027, 1, january, law, '2025-01-16');
    expect([known.fuelTaxes![0].formula, known.warnings.map((w) => w.code)]).toEqual([expect.stringContaining('art. 173 §2º'), ['RATE_NOT_PUBLISHED']]);
  });

  test('no rate published and nothing sold nor imported: 0 m³ × any rate = 0,00 (art. 173 §2º), COMPUTED, no finding; a base ≠ 0 stays null', () => {
    const f = run(2027, 2, {});
    const [cbs] = f.fuelTaxes!;
    expect([cbs.status, cbs.volumeM3.toFixed(), cbs.ratePerM3, cbs.due?.toFixed()]).toEqual(['COMPUTED', '0', null, '0']);
    expect(cbs.legalBasis).toContain('0 m³ × any rate = 0,00');
    expect(f.warnings).toEqual([]);
    // Exports only: still no base (they bear none).
    expect(run(2027, 2, { sales: [sale(0, '2', { market: Market.EXPORT })] }).fuelTaxes![0].due?.toFixed()).toBe('0');
    // Only a return of a sale of 2027 (−1 m³): a base that is not zero, so not determinable without a rate.
    const back = run(2027, 2, { sales: [sale(0, '-1')] });
    expect([back.fuelTaxes![0].status, back.fuelTaxes![0].due]).toEqual(['RATE_NOT_PUBLISHED', null]);
    // A rate from 2027-03-15 and nothing sold before it: 0,00 for 03-01..03-14, then 2 × 0,125 = 0,25; 0,25 in all.
    const book = createLawBook([...SHIPPED_LAW, { ...CBS_RATE, value: { perM3: '0.125' }, validFrom: '2027-03-15' }]);
    const segments = taxSegments(book, [GRANT], 2027, 3, '2026-12-21');
    const march = computeTaxPeriod(book, {
      year: 2027, month: 3, asKnownOn: '2026-12-21', regime: special(2027), segments, feedstock: [], thirdParty: NONE, sales: [sale(1, '2')],
    }).figures.fuelTaxes![0];
    expect(march.segments.map((p) => [p.status, p.due?.toFixed()])).toEqual([['COMPUTED', '0'], ['COMPUTED', '0.25']]);
    expect([march.status, march.due?.toFixed()]).toEqual(['COMPUTED', '0.25']);
  });

  test('the IBS in the same shape from 2029 (levy marked for confirmation), each with its own rate', () => {
    const book = createLawBook([...SHIPPED_LAW, { ...CBS_RATE, value: { perM3: '100' } }]);
    const f = run(2029, 2, { sales: [sale(0, '2')] }, book, '2026-12-21');
    expect(f.fuelTaxes!.map((t) => [t.tax, t.status, t.volumeM3.toFixed(), t.due?.toFixed() ?? null])).toEqual([
      ['CBS', 'COMPUTED', '2', '200'], ['IBS', 'RATE_NOT_PUBLISHED', '2', null],
    ]);
    expect(f.fuelTaxes![1].legalBasis).toContain('art. 174 III a');
  });
});

describe('returns across 2027: a sale that bore PIS/Cofins never cuts the CBS base (EC 132/2023, ADCT art. 126; LC 214/2025, arts. 172–173)', () => {
  const book = createLawBook([...SHIPPED_LAW, {
    parameter: 'fuel-tax-rate', scope: 'CBS', value: { perM3: '100' }, validFrom: '2027-01-01', validUntil: null,
    publishedOn: '2026-12-01', legalBasis: 'Decreto hipotético nº 2/2026, art. 1º (CBS per m³ of biodiesel B100)',
  }]);
  const row = (volume: string, saleOn: string | null, over: Partial<SaleRowFacts> = {}): SaleRowFacts => ({ ...sale(0, volume, { revenue: D(volume).times(6000) }), saleOn, ...over });
  function month(year: number, month: number, rows: SaleRowFacts[], imports: ImportFacts[] = []) {
    const segments = taxSegments(book, [GRANT], year, month, TODAY);
    const sales = saleGroups(book, segments, rows, TODAY);
    return { sales, f: computeTaxPeriod(book, { year, month, asKnownOn: TODAY, regime: special(year), segments, feedstock: [], thirdParty: NONE, sales, imports }).figures };
  }

  test('January 2027: 10 m³ sold, 4 m³ cleared, 4 m³ of a 2026-12-31 sale returned: base 10 + 4 = 14 m³ × R$ 100 = 1.400,00 (not 10 m³, 1.000,00)', () => {
    const { sales, f } = month(2027, 1, [row('10', null), row('-4', '2026-12-31'), row('-1', '2027-01-05')], [imp('9', '2027-01-20', '4')]);
    // The 2027 sale's return is merged with the month's sales (10 − 1 = 9); the 2026 one stays apart.
    expect(sales.map((s) => [s.volumeM3.toFixed(), s.returnOf ?? null])).toEqual([['9', null], ['-4', { year: 2026, month: 12 }]]);
    const [cbs] = f.fuelTaxes!;
    // A return of a 2027 sale (a CBS operation) does reduce it: 9 + 4 = 13 m³ × 100 = 1.300,00.
    expect([cbs.ownProductionVolumeM3.toFixed(), cbs.importedVolumeM3.toFixed(), cbs.volumeM3.toFixed(), cbs.due?.toFixed()]).toEqual(['9', '4', '13', '1300']);
    // The month's own volumes stay as recorded, net of every return dated in it (docs/LAW.md, "Returns").
    expect(f.domesticVolumeM3.toFixed()).toBe('5');
    expect(f.warnings.map((w) => [w.code, findingMessage(w)])).toEqual([['RETURN_OF_PIS_COFINS_SALE', expect.stringMatching(/^4 m³ of biodiesel sold on the domestic market in 2026-12, when PIS\/Pasep and Cofins were in force, came back/)]]);
    expect(f.warnings[0].legalBasis).toContain('ADCT art. 126');
    const [plain] = month(2027, 1, [row('10', null), row('-4', '2026-12-31')], [imp('9', '2027-01-20', '4')]).f.fuelTaxes!;
    expect([plain.volumeM3.toFixed(), plain.due?.toFixed()]).toEqual(['14', '1400']);
  });

  test('February 2027: 5 m³ of a 2026-12-30 sale returned whole, nothing else: CBS 0,00, never −500,00', () => {
    const { f } = month(2027, 2, [row('-5', '2026-12-30')]);
    const [cbs] = f.fuelTaxes!;
    expect([cbs.status, cbs.volumeM3.toFixed(), cbs.due?.toFixed()]).toEqual(['COMPUTED', '0', '0']);
    expect(f.warnings.map((w) => findingMessage(w))).toEqual([expect.stringContaining('5 m³ of biodiesel sold on the domestic market in 2026-12')]);
    // An exported sale bore neither: it is no finding.
    expect(month(2027, 2, [row('-5', '2026-12-30', { market: Market.EXPORT })]).f.warnings).toEqual([]);
  });

  test('a return within 2026 is a return of the month, as before: no group apart, no finding', () => {
    const { sales, f } = month(2026, 12, [row('10', null), row('-4', '2026-11-30')]);
    expect(sales.map((s) => [s.volumeM3.toFixed(), s.returnOf ?? null])).toEqual([['6', null]]);
    expect(f.warnings.map((w) => w.code)).not.toContain('RETURN_OF_PIS_COFINS_SALE');
  });
});
