import fc from 'fast-check';
import { checkProperty } from '../support/property';
import { Decimal } from '../../src/law/decimal';
import { allocate, consolidatedLines, contributionLines, item, rateLines, ZeroKind } from '../../src/law/efd-contribuicoes';
import { createLawBook } from '../../src/law/law-book';
import { regimeForMonth } from '../../src/law/regime';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { computeTaxPeriod, taxSegments } from '../../src/law/tax-period';
import { BiodieselOrigin, Feedstock, Market, RateCategory, Region, SealEventKind, TaxRegime } from '../../src/law/types';
import type { Sale } from '../../src/domain';
import { efdDraft } from '../../src/export/efd';
import { efdFile } from '../../src/export/efd-file';
import { sped, spedName } from '../../src/export/efd-text';
import type { TaxPeriodView } from '../../src/services/tax-period.service';
import { efdProblems } from '../support/efd-layout';

const d = (v: string | number) => new Decimal(v);
const texts = (values: Decimal[], places: number) => values.map((v) => v.toFixed(places));

describe('allocate: parts rounded to the field\'s decimals that add up to the rounded total', () => {
  it('gives the leftover unit to the largest remainder', () => {
    // 100,7 × 1/3 = 33,5666… and × 2/3 = 67,1333…: floors 33,566 + 67,133 = 100,699; the unit left goes to 0,000667.
    expect(texts(allocate(d('100.7'), [d(1000), d(2000)], 3), 3)).toEqual(['33.567', '67.133']);
  });
  it('breaks a tie toward the earlier part', () => {
    // 1 / 3 = 0,3333… three times: 0,999, one unit left, to the first.
    expect(texts(allocate(d(1), [d(1), d(1), d(1)], 3), 3)).toEqual(['0.334', '0.333', '0.333']);
  });
  it('rounds the total half-even first', () => {
    // 10,0005 → 10,000 (half-even); halves 5,00025 → floors 5,000 + 5,000.
    expect(texts(allocate(d('10.0005'), [d(1), d(1)], 3), 3)).toEqual(['5.000', '5.000']);
  });
});

describe('rateLines: one M210/M610 per distinct per-m³ rate (Decreto 10.527/2020, art. 6º §§3º, 5º)', () => {
  const general = { pisPerM3: d('26.41'), cofinsPerM3: d('121.59') };
  const segment = (from: string, to: string, own: string, imported: string, mix: Array<[RateCategory, string, string, string]>) => ({
    from, to, ownVolumeM3: d(own), ownRevenue: d(own).times(5000), importedVolumeM3: d(imported), importedRevenue: d(imported).times(5000), general,
    mix: mix.map(([category, weight, pis, cofins]) => ({ category, weight: d(weight), pisPerM3: d(pis), cofinsPerM3: d(cofins) })),
  });

  it('merges the parts at the same rate across categories and segments, imported biodiesel at GENERAL', () => {
    const lines = rateLines([
      segment('2026-03-01', '2026-03-15', '30', '2', [[RateCategory.GENERAL, '1', '26.41', '121.59'], [RateCategory.FAMILY_FARMING, '2', '10.39', '47.85']]),
      segment('2026-03-16', '2026-03-31', '9', '0', [[RateCategory.GENERAL, '3', '26.41', '121.59']]),
    ], 'pis');
    // GENERAL: 30 × 1/3 = 10 + 2 imported + 9 = 21 m³ × 26,41 = 554,61; FAMILY_FARMING: 20 m³ × 10,39 = 207,80.
    expect(lines.map((l) => [l.rate.toFixed(2), l.quantityM3.toFixed(3), l.contribution.toFixed(2), l.categories.join('+'), l.segments.length])).toEqual([
      ['26.41', '21.000', '554.61', 'GENERAL', 2],
      ['10.39', '20.000', '207.80', 'FAMILY_FARMING', 1],
    ]);
    // Revenue split as the volume: 150.000 × 1/3 + 10.000 + 45.000 and 150.000 × 2/3.
    expect(lines.map((l) => l.revenue.toFixed(2))).toEqual(['105000.00', '100000.00']);
  });

  it('takes the Cofins amounts for M610, and the same rate of two categories makes one line (the zero window)', () => {
    const lines = rateLines([segment('2026-04-07', '2026-04-30', '50', '0', [[RateCategory.GENERAL, '2', '0', '0'], [RateCategory.CASTOR_PALM_PRIORITY_REGION, '1', '0', '0']])], 'cofins');
    expect(lines.map((l) => [l.rate.toFixed(4), l.quantityM3.toFixed(3), l.contribution.toFixed(2), l.categories])).toEqual([
      ['0.0000', '50.000', '0.00', [RateCategory.GENERAL, RateCategory.CASTOR_PALM_PRIORITY_REGION]],
    ]);
  });
});

describe('consolidatedLines: C181/C185 by CST, CFOP and rate (Ajuste SINIEF 07/2001, CFOP table)', () => {
  it('own production sold in Brazil 5101, imported biodiesel resold 5102, each exported 7101 and 7102 with CST 08', () => {
    const general = { pisPerM3: d('26.41'), cofinsPerM3: d('121.59') };
    const segment = { from: '2026-03-01', to: '2026-03-31', ownVolumeM3: d(2), ownRevenue: d(10000), importedVolumeM3: d(1), importedRevenue: d(5000),
      mix: [{ category: RateCategory.GENERAL, weight: d(1), ...general }], general };
    const sale = (origin: 'OWN_PRODUCTION' | 'IMPORTED', market: 'DOMESTIC' | 'EXPORT', revenue: number) => ({ establishment: '11222333000181', segment: 0, origin, market, volumeM3: d(1), revenue: d(revenue) });
    const lines = consolidatedLines([segment], [sale('OWN_PRODUCTION', 'DOMESTIC', 5000), sale('IMPORTED', 'DOMESTIC', 5000), sale('OWN_PRODUCTION', 'EXPORT', 7000), sale('IMPORTED', 'EXPORT', 8000)], 'pis');
    expect(lines.map((l) => [l.cst, l.cfop, l.revenue.toFixed(2)])).toEqual([['03', '5101', '5000.00'], ['03', '5102', '5000.00'], ['08', '7101', '7000.00'], ['08', '7102', '8000.00']]);
  });
});

describe('contributionLines: M210/M610 from the C-level lines, the rounding as one adjustment, M400/M410 by revenue nature', () => {
  const line = (segment: number, cst: string, rate: string | null, q: string | null, revenue: string, zero: ZeroKind | null = null) => ({
    establishment: '11222333000181', segment, cst, cfop: cst === '08' ? '7101' : '5101', rate: rate === null ? null : d(rate), quantityM3: q === null ? null : d(q), revenue: d(revenue), contribution: d(0), zero,
  });
  const lines = [line(0, '03', '26.41', '6', '30000'), line(1, '03', '26.41', '4', '20000'), line(0, '03', '22.48', '5', '25000'),
    line(0, '06', '0', '2', '10000', 'ART_6_III'), line(1, '06', '0', '3', '15000', 'ZERO_WINDOW'), line(1, '08', null, null, '9000', 'EXPORT')];

  it('sums the quantities of one rate across segments and puts a reduction on the line of the largest quantity', () => {
    // 10 × 26,41 = 264,10 and 5 × 22,48 = 112,40: 376,50 against a due of 376,48 → a reduction of 0,02 on the 10 m³ line.
    const { perUnit } = contributionLines(lines, d('376.48'));
    expect(perUnit.map((l) => [l.rate.toFixed(2), l.quantityM3.toFixed(3), l.revenue.toFixed(2), l.contribution.toFixed(2), l.adjustment.toFixed(2)])).toEqual([
      ['26.41', '10.000', '50000.00', '264.10', '-0.02'],
      ['22.48', '5.000', '25000.00', '112.40', '0.00'],
    ]);
  });

  it('groups the revenue without contribution by CST and revenue nature: 206 for art. 6º III, open (null) for the window and exports', () => {
    const { zero } = contributionLines(lines, d('376.50'));
    expect(zero.map((z) => [z.cst, z.natureCode, z.revenue.toFixed(2)])).toEqual([['06', '206', '10000.00'], ['06', null, '15000.00'], ['08', null, '9000.00']]);
  });
});

describe('item: a sale\'s C170 quantity fields', () => {
  it('rounds the rate to 4 decimals before multiplying', () => {
    // 115,563333… → 115,5633; 80,5 × 115,5633 = 9.302,84565 → 9.302,85 (half-even).
    const i = item(d('80.5'), d('346690').div(3000));
    expect([i.quantityM3.toFixed(3), i.rate.toFixed(4), i.contribution.toFixed(2)]).toEqual(['80.500', '115.5633', '9302.85']);
  });
});

describe('the whole file, pure: a small month written by hand, and names that cannot forge records', () => {
  const general = { pisPerM3: d('26.41'), cofinsPerM3: d('121.59') };
  // March 2025, one segment, GENERAL only: 10 m³ sold for R$ 50.000 on 10/03 → PIS 264,10, Cofins 1.215,90.
  const month = (legalName: string) => ({
    year: 2025, month: 3, pisDue: d('264.10'), cofinsDue: d('1215.90'),
    producer: { cnpj: '11222333000181', legalName, plantMunicipalityCode: '4314902', establishments: [] },
    segments: [{ from: '2025-03-01', to: '2025-03-31', ownProductionVolumeM3: d(10), importedVolumeM3: d(0),
      mix: [{ category: RateCategory.GENERAL, cost: d(1000), share: d(1), pisPerM3: d('26.41'), cofinsPerM3: d('121.59') }] }],
  });
  const sale = { id: '1', soldOn: '2025-03-10', volumeM3: d(10), revenue: d(50000), origin: 'OWN_PRODUCTION', market: 'DOMESTIC', invoiceKey: null };
  const write = (legalName: string) => efdFile({ view: month(legalName) as unknown as TaxPeriodView, sales: [sale as unknown as Sale], general: [general], incidence: 'NON_CUMULATIVE' });

  it('writes the file as worked by hand, and the layout check passes it', () => {
    const text = write('Usina São João Ltda.').text;
    expect(efdProblems(Buffer.from(text, 'latin1'))).toEqual([]);
    expect(text.split('\r\n').slice(0, 8)).toEqual([
      '|0000|006|0|||01032025|31032025|Usina Sao Joao Ltda.|11222333000181|RS|4314902||00|0|',
      '|0001|0|',
      '|0100|A PREENCHER - NOME DO CONTABILISTA|00000000000|A PREENCHER|||||||||||',
      '|0110|1|1|2||',
      '|0140|11222333000181|Usina Sao Joao Ltda.|11222333000181|RS||4314902|||',
      '|0190|M3|Metro cubico|',
      '|0200|BIODIESEL-B100|Biodiesel B100|||M3|04|38260000||38|||',
      '|0990|8|',
    ]);
    expect(text).toContain('|C010|11222333000181|1|\r\n|C180|55|10032025|10032025|BIODIESEL-B100|38260000||50000,00|\r\n'
      + '|C181|03|5101|50000,00|0,00|||10,000|26,4100|264,10||\r\n|C185|03|5101|50000,00|0,00|||10,000|121,5900|1215,90||\r\n|C990|6|\r\n');
    expect(text).toContain('|M001|0|\r\n|M200|264,10|0,00|0,00|264,10|0,00|0,00|264,10|0,00|0,00|0,00|0,00|264,10|\r\n|M205|08|691201|264,10|\r\n'
      + '|M210|03|50000,00|0,00|0,00|0,00|0,00||10,000|26,4100|264,10|0,00|0,00|0,00|0,00|264,10|\r\n');
    expect(text.endsWith(`|9990|${text.split('\r\n').filter((l) => l.startsWith('|9')).length}|\r\n|9999|${text.split('\r\n').length - 1}|\r\n`)).toBe(true);
  });

  it('the layout check itself refuses a broken hierarchy, wrong counts, an M210 that is not its C-level sum, a bare LF', () => {
    const good = write('Usina Boa').text;
    const check = (text: string) => efdProblems(Buffer.from(text, 'latin1'));
    expect(check(good.replace(/\|C010\|[^\r]*\r\n/, ''))).toEqual(expect.arrayContaining([expect.stringMatching(/\(C180\): not under C010/)]));
    expect(check(good.replace(/\r\n\|9999\|(\d+)\|/, (_m, n) => `\r\n|9999|${Number(n) + 1}|`))).toEqual([expect.stringMatching(/^9999 says/)]);
    expect(check(good.replace('|M210|03|50000,00|0,00|0,00|0,00|0,00||10,000|', '|M210|03|50000,00|0,00|0,00|0,00|0,00||10,001|')))
      .toEqual(expect.arrayContaining([expect.stringMatching(/\(M210\): quantity 10,001, the C181 records of CST 03 at 26,4100 sum 10.000/)]));
    expect(check(good.replace('|0001|0|\r\n', '|0001|0|\n'))).toEqual(expect.arrayContaining(['a line break other than CRLF']));
    expect(check(good.replace('|M210|03|', '|M210|53|'))).toEqual(expect.arrayContaining([expect.stringMatching(/COD_CONT 53, the 0110 regime asks 03/)]));
    expect(check(good.replace('|C181|03|5101|50000,00|', '|C181|03|5101|50000.00|'))).toEqual(expect.arrayContaining([expect.stringMatching(/field 04 VL_ITEM "50000.00" is no number/)]));
  });

  it('keeps a name with CR, LF, pipes, C1 controls and bidi overrides inside its field (no forged M200)', () => {
    const text = write('Planalto\r\n|M200|9,99|\u0085\u202eX').text;
    expect(efdProblems(Buffer.from(text, 'latin1'))).toEqual([]);
    expect(text.split('\r\n').filter((l) => l.startsWith('|M200|'))).toHaveLength(1);
    expect(text.split('\r\n')[0]).toBe('|0000|006|0|||01032025|31032025|Planalto M200 9,99 X|11222333000181|RS|4314902||00|0|');
    expect(sped('a|b\r\nc\u0000d\u2028e\u202ef')).toBe('a b c d e f');
    expect(sped('ação — 3 m³')).toBe('ação ? 3 m³'); // ISO-8859-1 keeps ç, ã, ³; the dash is outside it
    expect(spedName('Cooperativa Agroindustrial "Vale" Ltda — RS')).toBe('Cooperativa Agroindustrial Vale Ltda RS');
  });

  it('keeps the same name inside the draft\'s note line: no record and no note begins in it', () => {
    const view = { ...month('Planalto\r\n|M200|9,99|\r\n# nota'), closedAt: new Date('2025-04-01T00:00:00Z'), fingerprint: 'f', asKnownOn: '2025-04-01',
      segments: [{ ...month('').segments[0], blendedPisPerM3: d('26.41'), blendedCofinsPerM3: d('121.59') }] } as unknown as TaxPeriodView;
    const lines = efdDraft({ view, sales: [sale as unknown as Sale], general: [general] }).text.split('\r\n');
    expect(lines.filter((l) => l.startsWith('|M200|'))).toHaveLength(1);
    expect(lines.find((l) => l.includes('Planalto'))).toMatch(/^# Produtor: Planalto M200 9,99 # nota, CNPJ 11222333000181\./);
    expect(lines.filter((l) => l.startsWith('# nota'))).toEqual([]);
  });
});

describe('the whole file from the month the law computes: one rate in the month, one rounding, no adjustment (Lei 11.116/2005, art. 4º)', () => {
  it('September 2026, GENERAL soy, the Selo suspended on 09-15: 0,5 m³ either side → M210 1,000 × 26,41 = 26,41 = M200, M610 121,59 = M600, no M220/M620', () => {
    const law = createLawBook(SHIPPED_LAW);
    const grants = [{ id: '1', grantedOn: '2025-01-01', validUntil: '2027-12-31', events: [{ kind: SealEventKind.SUSPENDED, effectiveOn: '2026-09-15', validUntil: null, reason: 'Auditoria' }] }];
    const segments = taxSegments(law, grants, 2026, 9, '2026-12-03');
    expect(segments).toHaveLength(2);
    const sales = [{ id: '1', soldOn: '2026-09-10', volumeM3: d('0.5'), revenue: d(3000), origin: 'OWN_PRODUCTION', market: 'DOMESTIC', invoiceKey: null },
      { id: '2', soldOn: '2026-09-20', volumeM3: d('0.5'), revenue: d(3000), origin: 'OWN_PRODUCTION', market: 'DOMESTIC', invoiceKey: null }];
    const { figures } = computeTaxPeriod(law, {
      year: 2026, month: 9, asKnownOn: '2026-12-03', segments,
      regime: regimeForMonth([{ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2025-11-03', effectiveYear: 2026 }], 2026, 9),
      feedstock: [{ feedstock: Feedstock.SOYBEAN, region: Region.SOUTH, semiarid: false, familyFarmingOrigin: false, ownProduction: false, cost: d(5000), quantityKg: d(1000) }],
      thirdParty: { cost: d(5000), quantityKg: d(1000) },
      sales: sales.map((s, i) => ({ segment: i, origin: BiodieselOrigin.OWN_PRODUCTION, market: Market.DOMESTIC, volumeM3: s.volumeM3, revenue: s.revenue })),
    });
    const view = { ...figures, producer: { cnpj: '11222333000181', legalName: 'Usina Setembro', plantMunicipalityCode: '4314902', establishments: [] } } as unknown as TaxPeriodView;
    const general = { pisPerM3: d('26.41'), cofinsPerM3: d('121.59') };
    const file = efdFile({ view, sales: sales as unknown as Sale[], general: [general, general], incidence: 'NON_CUMULATIVE' });
    expect(efdProblems(Buffer.from(file.text, 'latin1'))).toEqual([]);
    const lines = file.text.split('\r\n');
    expect(lines.filter((l) => l.startsWith('|M210|') || l.startsWith('|M610|'))).toEqual([
      '|M210|03|6000,00|0,00|0,00|0,00|0,00||1,000|26,4100|26,41|0,00|0,00|0,00|0,00|26,41|',
      '|M610|03|6000,00|0,00|0,00|0,00|0,00||1,000|121,5900|121,59|0,00|0,00|0,00|0,00|121,59|',
    ]);
    expect(lines.filter((l) => l.startsWith('|M220|') || l.startsWith('|M620|'))).toEqual([]);
    expect(lines.find((l) => l.startsWith('|M200|'))!.split('|')[13]).toBe('26,41');
    expect(lines.find((l) => l.startsWith('|M600|'))!.split('|')[13]).toBe('121,59');
  });
});

describe('the whole file, property: any names, blends, establishments and sales pass the layout check with M200/M600 = the dues', () => {
  const general = { pisPerM3: d('26.41'), cofinsPerM3: d('121.59') };
  const RATES: Array<[RateCategory, string, string]> = [
    [RateCategory.GENERAL, '26.41', '121.59'], [RateCategory.CASTOR_PALM_PRIORITY_REGION, '22.48', '103.51'],
    [RateCategory.FAMILY_FARMING, '10.39', '47.85'], [RateCategory.FAMILY_FARMING_PRIORITY_REGION, '0', '0'],
  ];
  const HEAD = '11222333000181';
  const BRANCH = '11222333000262';
  const key = (cnpj: string) => `4325${'03'}${cnpj}55001000000001100000001${'0'}`;

  test('fixed seed', () => {
    checkProperty(fc.property(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
      fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 4, maxLength: 4 }),
      fc.array(fc.record({ day: fc.integer({ min: 1, max: 31 }), litres: fc.integer({ min: 1, max: 90_000_000 }), centavos: fc.integer({ min: 1, max: 90_000_000 }),
        imported: fc.boolean(), exported: fc.integer({ min: 0, max: 9 }), branch: fc.boolean() }), { minLength: 1, maxLength: 8 }),
      fc.boolean(), fc.boolean(),
      (legalName, weights, sales, window, cumulative) => {
        const w = weights.every((x) => x === 0) ? [1, 0, 0, 0] : weights;
        const segs = window ? [['2026-03-01', '2026-03-15'], ['2026-03-16', '2026-03-31']] : [['2026-03-01', '2026-03-31']];
        const zero = (i: number) => window && i === 1;
        const mixOf = (i: number) => RATES.map(([category, p, c], k) => ({ category, cost: d(w[k]), share: d(w[k]).div(w.reduce((a, b) => a + b, 0)), pisPerM3: zero(i) ? d(0) : d(p), cofinsPerM3: zero(i) ? d(0) : d(c) }));
        const recorded = sales.map((s, i) => ({
          id: String(i + 1), soldOn: `2026-03-${String(s.day).padStart(2, '0')}`, volumeM3: d(s.litres).div(1000), revenue: d(s.centavos).div(100),
          origin: s.imported ? 'IMPORTED' : 'OWN_PRODUCTION', market: s.exported === 0 ? 'EXPORT' : 'DOMESTIC', invoiceKey: key(s.branch ? BRANCH : HEAD),
        })).sort((a, b) => a.soldOn.localeCompare(b.soldOn));
        let pisDue = d(0);
        let cofinsDue = d(0);
        const segments = segs.map(([from, to], i) => {
          const mine = recorded.filter((s) => s.market === 'DOMESTIC' && from <= s.soldOn && s.soldOn <= to);
          const own = mine.filter((s) => s.origin === 'OWN_PRODUCTION').reduce((a, s) => a.plus(s.volumeM3), d(0));
          const imp = mine.filter((s) => s.origin === 'IMPORTED').reduce((a, s) => a.plus(s.volumeM3), d(0));
          const mix = mixOf(i);
          const blend = (k: 'pisPerM3' | 'cofinsPerM3') => mix.reduce((a, m) => a.plus(m.cost.times(m[k])), d(0)).div(mix.reduce((a, m) => a.plus(m.cost), d(0)));
          // The closed month's dues as the law computes them: each segment's volume × the blend plus imports at GENERAL, summed exactly.
          pisDue = pisDue.plus(own.times(blend('pisPerM3')).plus(imp.times(zero(i) ? 0 : general.pisPerM3)));
          cofinsDue = cofinsDue.plus(own.times(blend('cofinsPerM3')).plus(imp.times(zero(i) ? 0 : general.cofinsPerM3)));
          return { from, to, ownProductionVolumeM3: own, importedVolumeM3: imp, mix };
        });
        // One rounding per tax on the month, half-even to the centavo (docs/LAW.md, "Rounding").
        pisDue = pisDue.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
        cofinsDue = cofinsDue.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
        const view = { year: 2026, month: 3, pisDue, cofinsDue, segments,
          producer: { cnpj: HEAD, legalName, plantMunicipalityCode: '2910800', establishments: [BRANCH] } } as unknown as TaxPeriodView;
        const file = efdFile({ view, sales: recorded as unknown as Sale[], general: segs.map((_, i) => (zero(i) ? { pisPerM3: d(0), cofinsPerM3: d(0) } : general)), incidence: cumulative ? 'CUMULATIVE' : 'NON_CUMULATIVE' });
        expect(efdProblems(Buffer.from(file.text, 'latin1'))).toEqual([]);
        const lines = file.text.split('\r\n');
        expect(lines.filter((l) => l.startsWith('|0000|') || l.startsWith('|M200|'))).toHaveLength(2);
        expect(lines.find((l) => l.startsWith('|M200|'))!.split('|')[13]).toBe(pisDue.toFixed(2).replace('.', ','));
        expect(lines.find((l) => l.startsWith('|M600|'))!.split('|')[13]).toBe(cofinsDue.toFixed(2).replace('.', ','));
      },
    ), { seed: 20261204, numRuns: 300 });
  });
});
