import { inForce, Version } from '../../src/law/dated';
import { Decimal } from '../../src/law/decimal';
import { NoRuleInForceError } from '../../src/law/errors';
import { createLawBook, LawVersionRecord } from '../../src/law/law-book';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { RateCategory } from '../../src/law/types';

/**
 * docs/LAW.md — the value in force on D as known on K: among the versions with publishedOn ≤ K
 * and validFrom ≤ D ≤ validUntil (inclusive), the one published last; a correction is a new
 * version. And docs/LAW.md — the 2026 zero window (Decreto 10.527/2020, art. 5º §§2º–4º): from
 * 2026-04-07 coefficient 1 and R$ 0,00 for EVERY category (§4º extends §§2º–3º to the art. 6º
 * coefficients), first published by Decreto 12.923 on 2026-04-07 ending 2026-05-31, then extended
 * to 2026-07-31 (seeded as published on 2026-05-31).
 */

const v = (value: string, validFrom: string, validUntil: string | null, publishedOn: string, seq?: number): Version<string> => ({
  value, validFrom, validUntil, publishedOn, legalBasis: `act of ${publishedOn}`, seq,
});

describe('inForce (docs/LAW.md)', () => {
  const original = v('original', '2025-01-01', null, '2024-12-20');
  const correction = v('correction', '2025-03-01', '2025-03-31', '2025-02-15');
  const versions = [original, correction];

  test('publishedOn ≤ K: known on its publication day itself, not the day before', () => {
    expect(inForce(versions, '2025-03-10', '2025-02-15')?.value).toBe('correction');
    expect(inForce(versions, '2025-03-10', '2025-02-14')?.value).toBe('original');
  });

  test('validFrom and validUntil are both inclusive', () => {
    expect(inForce(versions, '2025-03-01', '2025-12-31')?.value).toBe('correction');
    expect(inForce(versions, '2025-03-31', '2025-12-31')?.value).toBe('correction');
    expect(inForce(versions, '2025-02-28', '2025-12-31')?.value).toBe('original');
    expect(inForce(versions, '2025-04-01', '2025-12-31')?.value).toBe('original');
  });

  test('the one published last wins, whatever the order in which the versions are listed', () => {
    expect(inForce([correction, original], '2025-03-10', '2025-12-31')?.value).toBe('correction');
    // An act published later but listed first, and one published earlier listed last.
    const late = v('late', '2025-01-01', null, '2025-06-01', 1);
    const early = v('early', '2025-01-01', null, '2025-05-01', 2);
    expect(inForce([late, early], '2025-07-01', '2025-12-31')?.value).toBe('late');
    expect(inForce([late, early], '2025-07-01', '2025-05-31')?.value).toBe('early');
  });

  test('two versions published the same day: the later recorded (greater seq) wins, whatever the listing order', () => {
    const first = v('first recorded', '2025-01-01', null, '2025-05-01', 10);
    const second = v('second recorded', '2025-01-01', null, '2025-05-01', 11);
    expect(inForce([first, second], '2025-05-02', '2025-05-01')?.value).toBe('second recorded');
    expect(inForce([second, first], '2025-05-02', '2025-05-01')?.value).toBe('second recorded');
    // Without a seq, the list order is the recording order.
    const a = v('a', '2025-01-01', null, '2025-05-01');
    const b = v('b', '2025-01-01', null, '2025-05-01');
    expect(inForce([a, b], '2025-05-02', '2025-12-31')?.value).toBe('b');
  });

  test('nothing known, or nothing covering the date: undefined', () => {
    expect(inForce(versions, '2025-03-10', '2024-12-19')).toBeUndefined();
    expect(inForce(versions, '2024-12-31', '2025-12-31')).toBeUndefined();
  });

  test('a LawBook orders same-day publications by seq too (the database id): a same-day correction wins', () => {
    const record = (pisPerM3: string, seq: number): LawVersionRecord => ({
      parameter: 'coefficient-rule', scope: RateCategory.GENERAL, value: { coefficient: '0.8', pisPerM3, cofinsPerM3: '110.64' },
      validFrom: '2025-09-01', validUntil: '2025-09-30', publishedOn: '2025-08-20', legalBasis: 'hypothetical act, art. 1º', seq,
    });
    // Recorded as 1001 then 1000 (listed out of order): 1001 is the later recording.
    const book = createLawBook([...SHIPPED_LAW, record('24.04', 1001), record('24.03', 1000)]);
    expect(book.coefficientRules('2025-09-15', '2025-08-20').GENERAL.value.pisPerM3.toFixed()).toBe('24.04');
    expect(book.coefficientRules('2025-09-15', '2025-08-19').GENERAL.value.pisPerM3.toFixed()).toBe('26.41');
  });
});

describe('the 2026 zero window for all four categories, both versions (Decreto 10.527/2020, art. 5º §§2º–4º)', () => {
  const law = createLawBook(SHIPPED_LAW);
  /** The published amounts outside the window (art. 5º §1º; art. 6º §1º I–III). */
  const USUAL: Record<RateCategory, [string, string, string]> = {
    [RateCategory.GENERAL]: ['0.7802', '26.41', '121.59'],
    [RateCategory.CASTOR_PALM_PRIORITY_REGION]: ['0.8129', '22.48', '103.51'],
    [RateCategory.FAMILY_FARMING]: ['0.9135', '10.39', '47.85'],
    [RateCategory.FAMILY_FARMING_PRIORITY_REGION]: ['1', '0', '0'],
  };
  const ZERO: [string, string, string] = ['1', '0', '0'];
  const WINDOW_BASIS = /art\. 5º §§2º–4º/;
  const figures = (on: string, asKnownOn: string) => {
    const rules = law.coefficientRules(on, asKnownOn);
    return Object.values(RateCategory).map((c) => {
      const r = rules[c];
      return [c, [r.value.coefficient, r.value.pisPerM3, r.value.cofinsPerM3].map((d: Decimal) => d.toFixed()), r.legalBasis] as const;
    });
  };
  const expectAll = (on: string, asKnownOn: string, inWindow: boolean) => {
    for (const [category, values, basis] of figures(on, asKnownOn)) {
      expect([category, values]).toEqual([category, inWindow ? ZERO : USUAL[category]]);
      if (inWindow) expect(basis).toMatch(WINDOW_BASIS);
      else expect(basis).not.toMatch(WINDOW_BASIS);
    }
  };

  // [sale date, as known on, in the window?]
  test.each([
    ['2026-04-06', '2026-12-03', false, 'the day before the window, as known today'],
    ['2026-04-07', '2026-04-06', false, 'the first day, as known the day before Decreto 12.923/2026 was published'],
    ['2026-04-07', '2026-04-07', true, 'the first day, as known on the day of publication (publishedOn ≤ K)'],
    ['2026-05-31', '2026-04-07', true, 'the last day of the first version, as known then'],
    ['2026-06-01', '2026-04-07', false, 'the day after the first version, as known before the extension'],
    ['2026-06-15', '2026-05-20', false, 'June as known on 2026-05-20 (docs/LAW.md example): general'],
    ['2026-07-31', '2026-05-30', false, 'the last day of the extension, as known the day before it was published'],
    ['2026-06-01', '2026-05-31', true, 'the day after the first end, as known on the extension\'s publication day'],
    ['2026-07-31', '2026-05-31', true, 'the last day of the extension'],
    ['2026-08-01', '2026-12-03', false, 'the day after the extension, as known today'],
    ['2026-04-07', '2026-12-03', true, 'the first day, as known today (the extension wins: published last)'],
  ])('%s as known on %s: zero %s (%s)', (on, asKnownOn, inWindow) => {
    expectAll(on, asKnownOn, inWindow);
  });

  test('as known after the extension, every day of the window is under the extending version (the one published last)', () => {
    for (const on of ['2026-04-07', '2026-05-31', '2026-07-31']) {
      for (const r of Object.values(law.coefficientRules(on, '2026-12-03'))) {
        expect([r.validFrom, r.validUntil, r.publishedOn]).toEqual(['2026-04-07', '2026-07-31', '2026-05-31']);
      }
    }
    for (const r of Object.values(law.coefficientRules('2026-05-31', '2026-05-30'))) {
      expect([r.validFrom, r.validUntil, r.publishedOn]).toEqual(['2026-04-07', '2026-05-31', '2026-04-07']);
    }
  });

  test('the window does not reach ad valorem (Lei 11.116/2005, art. 3º): 6,15% / 28,32% inside it', () => {
    const r = law.adValoremRates('2026-05-15', '2026-12-03').value;
    expect([r.pis.toFixed(), r.cofins.toFixed()]).toEqual(['0.0615', '0.2832']);
  });

  test('2027-01-01: no rule at all, naming EC 132/2023 (ADCT art. 126, II)', () => {
    expect(() => law.coefficientRules('2027-01-01', '2027-01-01')).toThrow(NoRuleInForceError);
    expect(() => law.coefficientRules('2027-01-01', '2027-01-01')).toThrow(/EC 132\/2023/);
  });
});
