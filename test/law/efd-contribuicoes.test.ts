import { Decimal } from '../../src/law/decimal';
import { allocate, item, rateLines } from '../../src/law/efd-contribuicoes';
import { RateCategory } from '../../src/law/types';

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

describe('item: a sale\'s C170 quantity fields', () => {
  it('rounds the rate to 4 decimals before multiplying', () => {
    // 115,563333… → 115,5633; 80,5 × 115,5633 = 9.302,84565 → 9.302,85 (half-even).
    const i = item(d('80.5'), d('346690').div(3000));
    expect([i.quantityM3.toFixed(3), i.rate.toFixed(4), i.contribution.toFixed(2)]).toEqual(['80.500', '115.5633', '9302.85']);
  });
});
