import { IsoDate, addDays, dayOfWeek, isoDate, yearOf } from './dates';
import { Finding, finding } from './findings';
import { TaxRegime } from './types';

/**
 * The last business day of November of `year`: the deadline for electing the special regime
 * (Lei 11.116/2005, art. 4º §1º). Business days are Monday to Friday; no national holiday falls
 * on the last days of November (DESIGN §1.1), so only weekends move the day back.
 */
export function lastBusinessDayOfNovember(year: number): IsoDate {
  let day = isoDate(year, 11, 30);
  while (dayOfWeek(day) === 0 || dayOfWeek(day) === 6) day = addDays(day, -1);
  return day;
}

/** The calendar year from which an election applies, and what was noticed on the way. */
export interface ElectionOutcome {
  effectiveYear: number;
  findings: Finding[];
}

/**
 * The first calendar year an election made on `electedOn` governs.
 * - On or before the last business day of November: the whole next calendar year
 *   (Lei 11.116/2005, art. 4º §1º).
 * - A company starting its activity elects for the current year (art. 4º §4º).
 *   Interpretation: the election of a company starting activity applies to the calendar year of
 *   `electedOn`, whatever the month; the law allows it in the first month of activity, and the
 *   record of when that activity started is the producer's own declaration.
 * - After the deadline: too late for the next year, so it applies from the year after the next
 *   one, with the finding ELECTION_AFTER_DEADLINE.
 *   Interpretation: a late election is not void; it is read as the election for the next year
 *   whose deadline it still meets.
 */
export function electionEffectiveYear(electedOn: IsoDate, startingActivity: boolean): ElectionOutcome {
  const year = yearOf(electedOn);
  if (startingActivity) return { effectiveYear: year, findings: [] };
  if (electedOn <= lastBusinessDayOfNovember(year)) return { effectiveYear: year + 1, findings: [] };
  return { effectiveYear: year + 2, findings: [finding('ELECTION_AFTER_DEADLINE')] };
}

/** One election as the law needs it. */
export interface ElectionFacts {
  regime: TaxRegime;
  electedOn: IsoDate;
  effectiveYear: number;
}

/** The regime that governs a calendar year, the election it comes from, and findings. */
export interface RegimeInForce {
  regime: TaxRegime;
  election: ElectionFacts | null;
  findings: Finding[];
}

/**
 * The regime in force in `year`: the election with the greatest effectiveYear on or before
 * `year` governs, since an election renews automatically until changed (Lei 11.116/2005,
 * art. 4º §5º). With no election on record the default ad valorem regime applies (art. 3º),
 * with the finding NO_REGIME_ELECTION.
 */
export function regimeForYear(elections: ElectionFacts[], year: number): RegimeInForce {
  let governing: ElectionFacts | null = null;
  for (const e of elections) {
    if (e.effectiveYear > year) continue;
    if (governing === null || e.effectiveYear > governing.effectiveYear) governing = e;
  }
  if (governing === null) return { regime: TaxRegime.AD_VALOREM, election: null, findings: [finding('NO_REGIME_ELECTION')] };
  return { regime: governing.regime, election: governing, findings: [] };
}
