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

describe('the whole file from the month the law computes: one rate line over two segments, their rounding its one adjustment (Lei 11.116/2005, art. 4º; docs/LAW.md)', () => {
  it('September 2026, GENERAL soy, the Selo suspended on 09-15: 0,5 m³ either side → M210 1,000 × 26,41 = 26,41, M220 −0,01, M200 26,40; M610 121,59, M620 +0,01, M600 121,60', () => {
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
    // Each half: 0,5 × 26,41 = 13,205 → 13,20 and 0,5 × 121,59 = 60,795 → 60,80; the month their sums, 26,40 and 121,60.
    expect([figures.pisDue.toFixed(2), figures.cofinsDue.toFixed(2)]).toEqual(['26.40', '121.60']);
    const view = { ...figures, producer: { cnpj: '11222333000181', legalName: 'Usina Setembro', plantMunicipalityCode: '4314902', establishments: [] } } as unknown as TaxPeriodView;
    const general = { pisPerM3: d('26.41'), cofinsPerM3: d('121.59') };
    const file = efdFile({ view, sales: sales as unknown as Sale[], general: [general, general], incidence: 'NON_CUMULATIVE' });
    expect(efdProblems(Buffer.from(file.text, 'latin1'))).toEqual([]);
    const lines = file.text.split('\r\n');
    expect(lines.filter((l) => l.startsWith('|M210|') || l.startsWith('|M610|'))).toEqual([
      '|M210|03|6000,00|0,00|0,00|0,00|0,00||1,000|26,4100|26,41|0,00|0,01|0,00|0,00|26,40|',
      '|M610|03|6000,00|0,00|0,00|0,00|0,00||1,000|121,5900|121,59|0,01|0,00|0,00|0,00|121,60|',
    ]);
    // The line is quantity × rate to the centavo (Guia, M210 field 08); the month's due is the segments' sum: the
    // difference is the M220 reduction (0) and the M620 increase (1), so M200/M600 equal the dues.
    expect(lines.filter((l) => l.startsWith('|M220|') || l.startsWith('|M620|')).map((l) => l.split('|').slice(1, 4).join('|'))).toEqual(['M220|0|0,01', 'M620|1|0,01']);
    expect(lines.find((l) => l.startsWith('|M200|'))!.split('|')[13]).toBe('26,40');
    expect(lines.find((l) => l.startsWith('|M600|'))!.split('|')[13]).toBe('121,60');
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
          // The closed month's dues as the law computes them: each segment's volume × the blend plus imports at GENERAL,
          // half-even to the centavo, the month their sum (docs/LAW.md, "Rounding of the month's dues").
          pisDue = pisDue.plus(own.times(blend('pisPerM3')).plus(imp.times(zero(i) ? 0 : general.pisPerM3)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN));
          cofinsDue = cofinsDue.plus(own.times(blend('cofinsPerM3')).plus(imp.times(zero(i) ? 0 : general.cofinsPerM3)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN));
          return { from, to, ownProductionVolumeM3: own, importedVolumeM3: imp, mix };
        });
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

/**
 * An ad valorem month (Lei 11.116/2005, art. 3º: 6,15% PIS/Pasep and 28,32% Cofins on the gross revenue of the domestic
 * sales) as the law computes it and as the file writes it: CST 02 in C181/C185 with the value base and the rate in percent,
 * M210/M610 of COD_CONT 02 (52 cumulative) with VL_BC_CONT and ALIQ, the contribution base × rate / 100, M200/M600 = the dues
 * (Guia Prático v1.35; table 4.3.5; docs/LAW.md, "EFD-Contribuições").
 */
describe('the whole file of an ad valorem month (Lei 11.116/2005, art. 3º): CST 02, COD_CONT 02/52, base × 6,15% / 28,32%', () => {
  const law = createLawBook(SHIPPED_LAW);
  const grants = [{ id: '1', grantedOn: '2025-01-01', validUntil: '2027-12-31', events: [] }];
  type Recorded = { id: string; soldOn: string; volumeM3: Decimal; revenue: Decimal; origin: string; market: string; invoiceKey: null };
  const recorded = (id: string, soldOn: string, volume: string, revenue: string, market = 'DOMESTIC', origin = 'OWN_PRODUCTION'): Recorded =>
    ({ id, soldOn, volumeM3: d(volume), revenue: d(revenue), origin, market, invoiceKey: null });
  /** The month computed by the law (no election: ad valorem) and written, with the month's returns of `returns`. */
  const month = (year: number, m: number, sales: Recorded[], returns: Array<{ returnedOn: string; volume: string; value: string; sale: Recorded }> = [], cumulative = false) => {
    const asKnownOn = '2026-12-03';
    const segments = taxSegments(law, grants, year, m, asKnownOn);
    const seg = (date: string) => segments.findIndex((s) => s.from <= date && date <= s.to);
    const groups = [
      ...sales.map((s) => ({ segment: seg(s.soldOn), origin: s.origin as BiodieselOrigin, market: s.market as Market, volumeM3: s.volumeM3, revenue: s.revenue })),
      // A return reduces the revenue of the month of the return, in the segment of its day (docs/LAW.md, "Returns").
      ...returns.map((r) => ({ segment: seg(r.returnedOn), origin: r.sale.origin as BiodieselOrigin, market: r.sale.market as Market, volumeM3: d(r.volume).negated(), revenue: d(r.value).negated() })),
    ];
    const { figures } = computeTaxPeriod(law, { year, month: m, asKnownOn, segments, regime: regimeForMonth([], year, m), feedstock: [], thirdParty: { cost: d(0), quantityKg: d(0) }, sales: groups });
    expect(figures.regime).toBe(TaxRegime.AD_VALOREM);
    const view = { ...figures, producer: { cnpj: '11222333000181', legalName: 'Usina Ad Valorem', plantMunicipalityCode: '4314902', establishments: [] } } as unknown as TaxPeriodView;
    const file = efdFile({
      view, sales: sales as unknown as Sale[], general: [], incidence: cumulative ? 'CUMULATIVE' : 'NON_CUMULATIVE',
      adValorem: figures.segments.map((s) => ({ pis: s.pisRate!, cofins: s.cofinsRate! })),
      returns: returns.map((r) => ({ returnedOn: r.returnedOn, volumeM3: d(r.volume), revenue: d(r.value), sale: r.sale as unknown as Sale })),
    });
    expect(efdProblems(Buffer.from(file.text, 'latin1'))).toEqual([]);
    const lines = file.text.split('\r\n');
    const only = (...regs: string[]) => lines.filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
    // M200/M600 field 13 (VL_TOT_CONT_REC) is the month's due as the law computed it.
    expect(only('M200')[0].split('|')[13]).toBe(figures.pisDue.toFixed(2).replace('.', ','));
    expect(only('M600')[0].split('|')[13]).toBe(figures.cofinsDue.toFixed(2).replace('.', ','));
    return { figures, text: file.text, only };
  };

  it('R$ 100.000,00 sold in Brazil in September 2025: 100.000 × 6,15% = 6.150,00 and × 28,32% = 28.320,00', () => {
    const { figures, only } = month(2025, 9, [recorded('1', '2025-09-10', '20', '100000')]);
    expect([figures.pisDue.toFixed(2), figures.cofinsDue.toFixed(2)]).toEqual(['6150.00', '28320.00']);
    // 0110 COD_TIPO_CONT 2: contribution at specific rates (differentiated percentages).
    expect(only('0110', 'C180', 'C181', 'C185')).toEqual([
      '|0110|1|1|2||',
      '|C180|55|10092025|10092025|BIODIESEL-B100|38260000||100000,00|',
      '|C181|02|5101|100000,00|0,00|100000,00|6,1500|||6150,00||',
      '|C185|02|5101|100000,00|0,00|100000,00|28,3200|||28320,00||',
    ]);
    expect(only('M200', 'M205', 'M210', 'M220', 'M400', 'M600', 'M605', 'M610', 'M620', 'M800')).toEqual([
      '|M200|6150,00|0,00|0,00|6150,00|0,00|0,00|6150,00|0,00|0,00|0,00|0,00|6150,00|',
      '|M205|08|691201|6150,00|',
      '|M210|02|100000,00|100000,00|0,00|0,00|100000,00|6,1500|||6150,00|0,00|0,00|0,00|0,00|6150,00|',
      '|M600|28320,00|0,00|0,00|28320,00|0,00|0,00|28320,00|0,00|0,00|0,00|0,00|28320,00|',
      '|M605|08|585601|28320,00|',
      '|M610|02|100000,00|100000,00|0,00|0,00|100000,00|28,3200|||28320,00|0,00|0,00|0,00|0,00|28320,00|',
    ]);
  });

  it('with a return of R$ 10.000,00 in the month: base 90.000,00 → 5.535,00 and 25.488,00, netted at C level (no adjustment)', () => {
    const sale = recorded('1', '2025-09-10', '20', '100000');
    const { figures, only } = month(2025, 9, [sale], [{ returnedOn: '2025-09-20', volume: '2', value: '10000', sale }]);
    expect([figures.pisDue.toFixed(2), figures.cofinsDue.toFixed(2)]).toEqual(['5535.00', '25488.00']);
    expect(only('C181', 'C185', 'M210', 'M610', 'M220', 'M620')).toEqual([
      '|C181|02|5101|90000,00|0,00|90000,00|6,1500|||5535,00||',
      '|C185|02|5101|90000,00|0,00|90000,00|28,3200|||25488,00||',
      '|M210|02|90000,00|90000,00|0,00|0,00|90000,00|6,1500|||5535,00|0,00|0,00|0,00|0,00|5535,00|',
      '|M610|02|90000,00|90000,00|0,00|0,00|90000,00|28,3200|||25488,00|0,00|0,00|0,00|0,00|25488,00|',
    ]);
  });

  it('a return of an earlier month no sale of the month covers: the M220/M620 reduction makes M200/M600 the dues', () => {
    // August's imported sale of R$ 10.000,00 returned in September, no imported sale in September: 100.000 − 10.000 = 90.000 of base in
    // the dues (5.535,00 / 25.488,00); C181 keeps the own sales' 100.000 (6.150,00 / 28.320,00): reductions of 615,00 and 2.832,00.
    const august = recorded('0', '2025-08-20', '2', '10000', 'DOMESTIC', 'IMPORTED');
    const { only } = month(2025, 9, [recorded('1', '2025-09-10', '20', '100000')], [{ returnedOn: '2025-09-20', volume: '2', value: '10000', sale: august }]);
    expect(only('M210', 'M610').map((l) => l.split('|').slice(11, 17))).toEqual([
      ['6150,00', '0,00', '615,00', '0,00', '0,00', '5535,00'],
      ['28320,00', '0,00', '2832,00', '0,00', '0,00', '25488,00'],
    ]);
    expect(only('M220', 'M620').map((l) => l.split('|').slice(2, 5))).toEqual([['0', '615,00', '03'], ['0', '2832,00', '03']]);
    expect(only('M220', 'M620').map((l) => l.split('|')[6])).toEqual([expect.stringMatching(/^Devolucao de venda nao coberta/), expect.stringMatching(/^Devolucao de venda nao coberta/)]);
  });

  it('with an export: the export CST 08 in M400/M410 and M800/M810, out of the base; R$ 100.000,00 in Brazil still 6.150,00 / 28.320,00', () => {
    const { figures, only } = month(2025, 9, [recorded('1', '2025-09-10', '20', '100000'), recorded('2', '2025-09-15', '5', '30000', 'EXPORT')]);
    expect([figures.pisDue.toFixed(2), figures.cofinsDue.toFixed(2)]).toEqual(['6150.00', '28320.00']);
    expect(only('C181', 'M210', 'M400', 'M410', 'M800', 'M810')).toEqual([
      '|C181|02|5101|100000,00|0,00|100000,00|6,1500|||6150,00||',
      '|C181|08|7101|30000,00|0,00|||||0,00||',
      '|M210|02|100000,00|100000,00|0,00|0,00|100000,00|6,1500|||6150,00|0,00|0,00|0,00|0,00|6150,00|',
      '|M400|08|30000,00|||',
      expect.stringMatching(/^\|M410\|\|30000,00\|\|NAT_REC EM ABERTO: .*exportacao/),
      '|M800|08|30000,00|||',
      expect.stringMatching(/^\|M810\|\|30000,00\|\|NAT_REC EM ABERTO: .*exportacao/),
    ]);
  });

  it('April 2026, cut by the zero window on 04-07: the window reaches only the per-m³ amounts, both segments at 6,15% / 28,32%', () => {
    // R$ 40.000,00 on 04-02 and R$ 60.000,00 on 04-20 (in the window): 100.000 × 6,15% = 6.150,00; × 28,32% = 28.320,00.
    const { figures, only } = month(2026, 4, [recorded('1', '2026-04-02', '8', '40000'), recorded('2', '2026-04-20', '12', '60000')]);
    expect(figures.segments.map((s) => s.from)).toEqual(['2026-04-01', '2026-04-07']);
    expect([figures.pisDue.toFixed(2), figures.cofinsDue.toFixed(2)]).toEqual(['6150.00', '28320.00']);
    expect(only('C180', 'C181', 'M210', 'M400')).toEqual([
      '|C180|55|02042026|02042026|BIODIESEL-B100|38260000||40000,00|',
      '|C181|02|5101|40000,00|0,00|40000,00|6,1500|||2460,00||',
      '|C180|55|20042026|20042026|BIODIESEL-B100|38260000||60000,00|',
      '|C181|02|5101|60000,00|0,00|60000,00|6,1500|||3690,00||', // not CST 06: the window is no ad valorem rate
      '|M210|02|100000,00|100000,00|0,00|0,00|100000,00|6,1500|||6150,00|0,00|0,00|0,00|0,00|6150,00|',
    ]);
  });

  // Each M220/M620 says its cause (docs/LAW.md, "Rounding, once"): the segments' rounding is "Arredondamento", a return the
  // month's sales do not cover "Devolucao de venda nao coberta", one record each when both are there.
  const adjustments = (only: (...regs: string[]) => string[]) => only('M210', 'M220', 'M610', 'M620').map((l) => {
    const f = l.split('|');
    return f[1] === 'M210' || f[1] === 'M610' ? `${f[1]} ${f[12]} ${f[13]} ${f[16]}` : `${f[1]} ${f[2]} ${f[3]} ${f[6].split(':')[0].split(' (')[0]}`;
  });

  it('April 2026, R$ 30,00 on 04-06 and on 04-07 (either side of the window\'s cut): the rounding is "Arredondamento", no return', () => {
    // Each segment 30 × 6,15% = 1,845 → 1,84 and 30 × 28,32% = 8,496 → 8,50: dues 3,68 / 17,00; M210 60 × 6,15% = 3,69,
    // M610 60 × 28,32% = 16,99 → a reduction of 0,01 (M220) and an increase of 0,01 (M620).
    const { figures, only } = month(2026, 4, [recorded('1', '2026-04-06', '1', '30'), recorded('2', '2026-04-07', '1', '30')]);
    expect([figures.pisDue.toFixed(2), figures.cofinsDue.toFixed(2)]).toEqual(['3.68', '17.00']);
    expect(adjustments(only)).toEqual(['M210 0,00 0,01 3,68', 'M220 0 0,01 Arredondamento', 'M610 0,01 0,00 17,00', 'M620 1 0,01 Arredondamento']);
  });

  it('April 2026 with a return of R$ 5,00 of March not covered: the return and the rounding each their own M220/M620', () => {
    // 04-06: 30 → 1,84 / 8,50; 04-07 on: 30 − 5 = 25 → 25 × 6,15% = 1,5375 → 1,54 and 25 × 28,32% = 7,08: dues 3,38 / 15,58. M210
    // 3,69 and M610 16,99 (the return is no C-level sale). The return: 5 × 6,15% = 0,3075 → 0,31 and 5 × 28,32% = 1,416 → 1,42,
    // reductions; 3,69 − 0,31 = 3,38 leaves no rounding, 16,99 − 1,42 = 15,57 leaves an increase of 0,01.
    const march = recorded('0', '2026-03-20', '1', '5', 'DOMESTIC', 'IMPORTED');
    const { figures, only } = month(2026, 4, [recorded('1', '2026-04-06', '1', '30'), recorded('2', '2026-04-07', '1', '30')],
      [{ returnedOn: '2026-04-20', volume: '0.1', value: '5', sale: march }]);
    expect([figures.pisDue.toFixed(2), figures.cofinsDue.toFixed(2)]).toEqual(['3.38', '15.58']);
    expect(adjustments(only)).toEqual([
      'M210 0,00 0,31 3,38', 'M220 0 0,31 Devolucao de venda nao coberta pelas vendas do mes',
      'M610 0,01 1,42 15,58', 'M620 1 0,01 Arredondamento', 'M620 0 1,42 Devolucao de venda nao coberta pelas vendas do mes',
    ]);
  });

  it('cumulative incidence: COD_CONT 52, the dues in M200/M600 fields 09–12', () => {
    const { only } = month(2025, 9, [recorded('1', '2025-09-10', '20', '100000')], [], true);
    expect(only('0110', 'M200', 'M210', 'M610')).toEqual([
      '|0110|2||2|9|',
      '|M200|0,00|0,00|0,00|0,00|0,00|0,00|0,00|6150,00|0,00|0,00|6150,00|6150,00|',
      '|M210|52|100000,00|100000,00|0,00|0,00|100000,00|6,1500|||6150,00|0,00|0,00|0,00|0,00|6150,00|',
      '|M610|52|100000,00|100000,00|0,00|0,00|100000,00|28,3200|||28320,00|0,00|0,00|0,00|0,00|28320,00|',
    ]);
  });

  it('the layout check refuses a wrong rate, a wrong CST or COD_CONT, and a contribution that is not base × rate', () => {
    const { text } = month(2025, 9, [recorded('1', '2025-09-10', '20', '100000')]);
    const check = (t: string) => efdProblems(Buffer.from(t, 'latin1'));
    expect(check(text.replace('|M210|02|100000,00|100000,00|0,00|0,00|100000,00|6,1500|||6150,00|', '|M210|02|100000,00|100000,00|0,00|0,00|100000,00|6,1500|||6150,01|')))
      .toEqual(expect.arrayContaining([expect.stringMatching(/\(M210\): VL_CONT_APUR is not VL_BC_CONT_AJUS × ALIQ \/ 100/)]));
    expect(check(text.replace('|C181|02|5101|100000,00|0,00|100000,00|6,1500|||6150,00||', '|C181|02|5101|100000,00|0,00|100000,00|6,1600|||6150,00||')))
      .toEqual(expect.arrayContaining([expect.stringMatching(/\(C181\): VL_PIS is not VL_BC × ALIQ \/ 100/), expect.stringMatching(/M210: no record for the C181 rate 6.1600 %/)]));
    expect(check(text.replace('|M210|02|', '|M210|03|'))).toEqual(expect.arrayContaining([expect.stringMatching(/COD_CONT 03 with a percentage rate, the 0110 regime asks 02/)]));
    expect(check(text.replace('|C185|02|', '|C185|01|'))).toEqual(expect.arrayContaining([expect.stringMatching(/CST 01 is not one of this file's/)]));
    expect(check(text.replace('|M210|02|100000,00|100000,00|', '|M210|02|100000,00|90000,00|')))
      .toEqual(expect.arrayContaining([expect.stringMatching(/\(M210\): VL_BC_CONT 90000,00, the C181 records of CST 02 at 6,1500 sum 100000.00/)]));
  });
});
