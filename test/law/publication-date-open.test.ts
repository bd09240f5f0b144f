import { findingMessage } from '../../src/i18n/finding-message';
import { Decimal } from '../../src/law/decimal';
import { Finding } from '../../src/law/findings';
import { createLawBook } from '../../src/law/law-book';
import { regimeForMonth } from '../../src/law/regime';
import { GrantFacts } from '../../src/law/seal-standing';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { computeTaxPeriod, FeedstockGroup, ImportFacts, importContributions, SaleGroup, taxSegments, TaxPeriodInput } from '../../src/law/tax-period';
import { BiodieselOrigin, Feedstock, Market, Region, TaxRegime } from '../../src/law/types';

/**
 * docs/LAW.md, PUBLICATION_DATE_OPEN. The extension of the 2026 zero window to 31/07/2026
 * (Decreto 10.527/2020, art. 5º §§2º–4º as extended by a later 2026 act) is in the consolidated
 * text, but neither the act nor its publication date is in our sources: 2026-05-31 is used. So
 * 1 m³ of own production from GENERAL soy sold on 2026-06-10 owes 1 × 26,41 = 26,41 PIS/Pasep and
 * 1 × 121,59 = 121,59 Cofins (art. 5º caput, §1º) as known on 2026-05-30, and 1 × 0,00 = 0,00 (§2º)
 * as known from 2026-05-31: both answers must say that they rest on that date.
 */

const law = createLawBook(SHIPPED_LAW);
const TODAY = '2026-12-03';
const D = (v: string | number) => new Decimal(v);
const GRANT: GrantFacts = { id: '1', grantedOn: '2019-01-01', validUntil: '2029-12-31', events: [] };
const NONE = { cost: D(0), quantityKg: D(0) };
const special = regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2018-11-05', effectiveYear: 2019 }], 2026, 12);
const soy: FeedstockGroup = { feedstock: Feedstock.SOYBEAN, region: Region.SOUTH, semiarid: false, familyFarmingOrigin: false, ownProduction: false, cost: D(1000), quantityKg: D(1000) };
const imp = (clearedOn: string): ImportFacts => ({ id: '1', declarationNumber: '26/0000001-0', clearedOn, volumeM3: D(1) });
const EXTENSION = 'Decreto 10.527/2020, art. 5º §§2º–4º, as extended to 31/07/2026 by a later 2026 act';

function month(m: number, asKnownOn: string, over: Partial<TaxPeriodInput> = {}) {
  const segments = taxSegments(law, [GRANT], 2026, m, asKnownOn);
  const day = `2026-${String(m).padStart(2, '0')}-10`;
  const sales: SaleGroup[] = [{ segment: segments.findIndex((s) => s.from <= day && day <= s.to), origin: BiodieselOrigin.OWN_PRODUCTION, market: Market.DOMESTIC, volumeM3: D(1), revenue: D(5000) }];
  return computeTaxPeriod(law, { year: 2026, month: m, asKnownOn, regime: special, segments, feedstock: [soy], thirdParty: NONE, sales, ...over }).figures;
}
const open = (warnings: readonly Finding[]) => warnings.filter((w) => w.code === 'PUBLICATION_DATE_OPEN');
const texts = (warnings: readonly Finding[], locale: 'en' | 'pt-BR' = 'en') => open(warnings).map((w) => findingMessage(w, locale));

describe('PUBLICATION_DATE_OPEN: the extension of the 2026 window, publication date not in our sources', () => {
  test('June 2026 as known on 2026-05-30: 1 m³ × 26,41 = 26,41 and × 121,59 = 121,59, saying the extension (2026-05-31 used) would make it 0,00 were it published earlier', () => {
    const f = month(6, '2026-05-30');
    expect([f.pisDue.toFixed(2), f.cofinsDue.toFixed(2)]).toEqual(['26.41', '121.59']);
    expect(open(f.warnings).map((w) => w.legalBasis)).toEqual([EXTENSION]);
    expect(texts(f.warnings)).toEqual([
      `For 2026-06-01 to 2026-06-30 the answer does not apply ${EXTENSION}, in force on those days: its publication date is not in our sources, and the date used, 2026-05-31, is after 2026-05-30. Had it been published by 2026-05-30, the answer would differ.`,
    ]);
    expect(texts(f.warnings, 'pt-BR')[0]).toContain('Para 2026-06-01 a 2026-06-30 a resposta não aplica');
  });

  test.each(['2026-05-31', TODAY])('June 2026 as known on %s: 1 m³ × 0,00 = 0,00, saying it rests on the extension\'s date used, 2026-05-31', (asKnownOn) => {
    const f = month(6, asKnownOn);
    expect([f.pisDue.toFixed(2), f.cofinsDue.toFixed(2)]).toEqual(['0.00', '0.00']);
    expect(texts(f.warnings)).toEqual([
      `For 2026-06-01 to 2026-06-30 the answer applies ${EXTENSION}, whose publication date is not in our sources: 2026-05-31 is used as that date. As known before its real publication the answer would differ.`,
    ]);
  });

  test('July 2026 as known today: the whole month rests on it (the extension ends on 07-31)', () => {
    expect(texts(month(7, TODAY).warnings)[0]).toMatch(/^For 2026-07-01 to 2026-07-31 the answer applies/);
  });

  test.each(['2026-05-30', TODAY])('August 2026 as known on %s: 1 m³ × 26,41, no warning (the extension governs none of its days)', (asKnownOn) => {
    const f = month(8, asKnownOn);
    expect(f.pisDue.toFixed(2)).toBe('26.41');
    expect(open(f.warnings)).toEqual([]);
  });

  test('May 2026 as known today: the extension governs its days with the same R$ 0,00 as Decreto 12.923/2026 (whose date is the act\'s), so its date changes no figure: no warning', () => {
    const f = month(5, TODAY);
    expect(f.pisDue.toFixed(2)).toBe('0.00');
    expect(open(f.warnings)).toEqual([]);
  });

  test('an ad valorem June reads no coefficient rule: 6,15% of 5.000 = 307,50, no warning', () => {
    const f = month(6, TODAY, { regime: regimeForMonth([], 2026, 6) });
    expect(f.pisDue.toFixed(2)).toBe('307.50');
    expect(open(f.warnings)).toEqual([]);
  });

  test('an import cleared on 2026-06-10: 1 m³ × 26,41 as known on 2026-05-30, × 0,00 from 2026-05-31, its figures saying so; the month too', () => {
    const before = importContributions(law, [imp('2026-06-10')], '2026-05-30').imports[0];
    expect([before.pisDue.toFixed(2), before.cofinsDue.toFixed(2)]).toEqual(['26.41', '121.59']);
    expect(texts(before.warnings)).toEqual([
      `For 2026-06-10 to 2026-06-10 the answer does not apply ${EXTENSION}, in force on those days: its publication date is not in our sources, and the date used, 2026-05-31, is after 2026-05-30. Had it been published by 2026-05-30, the answer would differ.`,
    ]);
    for (const asKnownOn of ['2026-05-31', TODAY]) {
      const after = importContributions(law, [imp('2026-06-10')], asKnownOn).imports[0];
      expect(after.pisDue.toFixed(2)).toBe('0.00');
      expect(texts(after.warnings)).toEqual([
        `For 2026-06-10 to 2026-06-10 the answer applies ${EXTENSION}, whose publication date is not in our sources: 2026-05-31 is used as that date. As known before its real publication the answer would differ.`,
      ]);
    }
    // Ad valorem, nothing sold: the month's warning comes from the import alone.
    const adValorem = month(6, TODAY, { regime: regimeForMonth([], 2026, 6), sales: [], imports: [imp('2026-06-10')] });
    expect(texts(adValorem.warnings)).toEqual([texts(importContributions(law, [imp('2026-06-10')], TODAY).imports[0].warnings)[0]]);
    // An import on 2026-08-10 rests on no such version.
    expect(importContributions(law, [imp('2026-08-10')], TODAY).imports[0].warnings).toEqual([]);
  });

  test('a version whose publication date is confirmed is never said, whatever its days: the same data marked in sources', () => {
    const confirmed = createLawBook(SHIPPED_LAW.map((v) => ({ ...v, publicationDateOpen: false })));
    const segments = taxSegments(confirmed, [GRANT], 2026, 6, TODAY);
    const f = computeTaxPeriod(confirmed, {
      year: 2026, month: 6, asKnownOn: TODAY, regime: special, segments, feedstock: [soy], thirdParty: NONE,
      sales: [{ segment: 0, origin: BiodieselOrigin.OWN_PRODUCTION, market: Market.DOMESTIC, volumeM3: D(1), revenue: D(5000) }],
    }).figures;
    expect(f.pisDue.toFixed(2)).toBe('0.00');
    expect(open(f.warnings)).toEqual([]);
  });
});
