import { electionEffectiveYear, electionStart, lastBusinessDayOfNovember, regimeForMonth, ElectionFacts } from '../../src/law/regime';
import { TaxRegime } from '../../src/law/types';

/**
 * Lei 11.116/2005, art. 4º §1º: the election is made by the last business day of November
 * (Monday to Friday; docs/LAW.md). 2024-11-30 is a Saturday, so Friday the 29th; 2025-11-30 is a
 * Sunday, so Friday the 28th; 2026-11-30 is a Monday, itself; 2023-11-30 is a Thursday.
 */
test.each([
  [2023, '2023-11-30'],
  [2024, '2024-11-29'],
  [2025, '2025-11-28'],
  [2026, '2026-11-30'],
  [2030, '2030-11-29'], // 2030-11-30 is a Saturday
])('last business day of November %i is %s', (year, expected) => {
  expect(lastBusinessDayOfNovember(year)).toBe(expected);
});

describe('election effective year (Lei 11.116/2005, art. 4º §§1º and 4º)', () => {
  test.each([
    ['2025-01-02', 2026, 'early in the year: the next calendar year (§1º)'],
    ['2025-11-28', 2026, 'on the deadline, Friday 2025-11-28: the next calendar year (§1º)'],
    ['2024-11-29', 2025, 'on the deadline, Friday 2024-11-29 (the 30th is a Saturday)'],
    ['2026-11-30', 2027, 'on the deadline, Monday 2026-11-30'],
  ])('elected on %s applies to %i (%s)', (electedOn, year) => {
    const outcome = electionEffectiveYear(electedOn, false);
    expect(outcome.effectiveYear).toBe(year);
    expect(outcome.findings).toEqual([]);
  });

  test.each([
    ['2025-11-29', 2027, 'the Saturday after the 2025 deadline'],
    ['2025-11-30', 2027, 'Sunday the 30th is not a business day'],
    ['2024-11-30', 2026, 'Saturday 2024-11-30, the day after the deadline'],
    ['2025-12-31', 2027, 'the last day of the year'],
    ['2026-12-01', 2028, 'the day after the 2026 deadline'],
  ])('elected on %s, after the deadline, applies from %i (%s)', (electedOn, year) => {
    const outcome = electionEffectiveYear(electedOn, false);
    expect(outcome.effectiveYear).toBe(year);
    expect(outcome.findings.map((f) => f.code)).toEqual(['ELECTION_AFTER_DEADLINE']);
    expect(outcome.findings[0].legalBasis).toBe('Lei 11.116/2005, art. 4º §1º');
  });

  test('a company starting activity elects for the current year (§4º)', () => {
    expect(electionEffectiveYear('2025-06-15', true)).toEqual({ effectiveYear: 2025, findings: [] });
    expect(electionEffectiveYear('2025-12-10', true)).toEqual({ effectiveYear: 2025, findings: [] });
  });
});

describe('regime in force in a year (Lei 11.116/2005, art. 3º; art. 4º §5º)', () => {
  const special2025: ElectionFacts = { regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2024-11-29', effectiveYear: 2025 };
  const backToAdValorem2028: ElectionFacts = { regime: TaxRegime.AD_VALOREM, electedOn: '2027-11-30', effectiveYear: 2028 };

  test('no election: ad valorem (art. 3º) with NO_REGIME_ELECTION', () => {
    const r = regimeForMonth([], 2026, 12);
    expect(r.regime).toBe(TaxRegime.AD_VALOREM);
    expect(r.election).toBeNull();
    expect(r.findings.map((f) => f.code)).toEqual(['NO_REGIME_ELECTION']);
  });

  test('before the first effective year the default applies', () => {
    const r = regimeForMonth([special2025], 2024, 12);
    expect(r.regime).toBe(TaxRegime.AD_VALOREM);
    expect(r.findings.map((f) => f.code)).toEqual(['NO_REGIME_ELECTION']);
  });

  test('the election renews automatically in later years (§5º)', () => {
    for (const year of [2025, 2026, 2027]) {
      const r = regimeForMonth([special2025], year, 12);
      expect(r.regime).toBe(TaxRegime.SPECIAL_PER_M3);
      expect(r.election).toBe(special2025);
      expect(r.findings).toEqual([]);
    }
  });

  test('a later election switches back to ad valorem from its year on, whatever the order given', () => {
    const elections = [backToAdValorem2028, special2025];
    expect(regimeForMonth(elections, 2027, 12).regime).toBe(TaxRegime.SPECIAL_PER_M3);
    const r2028 = regimeForMonth(elections, 2028, 12);
    expect(r2028.regime).toBe(TaxRegime.AD_VALOREM);
    expect(r2028.election).toBe(backToAdValorem2028);
    expect(r2028.findings).toEqual([]);
    expect(regimeForMonth(elections, 2031, 12).regime).toBe(TaxRegime.AD_VALOREM);
  });
});

describe('a company starting activity (Lei 11.116/2005, art. 4º §4º): from the month of its election to the year\'s end', () => {
  // Elected on 2026-06-10 by a company starting activity: effective 2026, governing June to December.
  const june: ElectionFacts = { regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2026-06-10', effectiveYear: 2026, startingActivity: true };

  test('the first day it governs is the first of its month; an ordinary election, 1 January of its effective year', () => {
    expect(electionStart(june)).toBe('2026-06-01');
    expect(electionStart({ ...june, electedOn: '2026-10-20' })).toBe('2026-10-01');
    expect(electionStart({ regime: TaxRegime.SPECIAL_PER_M3, electedOn: '2025-11-28', effectiveYear: 2026 })).toBe('2026-01-01');
  });

  test('January to May: no election governs (ad valorem, NO_REGIME_ELECTION); June to December: the special regime', () => {
    for (const month of [1, 5]) {
      const r = regimeForMonth([june], 2026, month);
      expect([r.regime, r.election, r.findings.map((f) => f.code)]).toEqual([TaxRegime.AD_VALOREM, null, ['NO_REGIME_ELECTION']]);
    }
    for (const month of [6, 12]) expect(regimeForMonth([june], 2026, month)).toEqual({ regime: TaxRegime.SPECIAL_PER_M3, election: june, findings: [] });
    // It renews for the next years (§5º), and the year as a whole is that of its last month.
    expect(regimeForMonth([june], 2027, 1).regime).toBe(TaxRegime.SPECIAL_PER_M3);
    expect(regimeForMonth([june], 2026, 12).regime).toBe(TaxRegime.SPECIAL_PER_M3);
  });

  test('an earlier year\'s election governs the months before it', () => {
    const old: ElectionFacts = { regime: TaxRegime.AD_VALOREM, electedOn: '2023-11-30', effectiveYear: 2024 };
    expect(regimeForMonth([june, old], 2026, 5).election).toBe(old);
    expect(regimeForMonth([june, old], 2026, 6).election).toBe(june);
  });
});
