import { IsoDate, addDays, dayOfWeek, firstDayOfMonth, isoDate, yearOf } from './dates';
import { Finding, finding } from './findings';
import { TaxRegime } from './types';

/**
 * The last business day of November of `year`: the deadline for electing the special regime
 * (Lei 11.116/2005, art. 4º §1º). Business days are Monday to Friday; no national holiday falls
 * on the last days of November (docs/LAW.md), so only weekends move the day back.
 */
export function lastBusinessDayOfNovember(year: number): IsoDate {
  let day = isoDate(year, 11, 30);
  while (dayOfWeek(day) === 0 || dayOfWeek(day) === 6) day = addDays(day, -1);
  return day;
}

/** The date of Lei 11.116/2005, whose art. 4º creates the election: none is made before it. */
export const FIRST_ELECTION_DAY: IsoDate = '2005-05-18';

/**
 * Dates an election may bear: from Lei 11.116/2005 to 31 December of next year (art. 4º §1º).
 * Interpretation: up to next year's end so a prepared election can be recorded; later is a typo.
 */
export function electionDateBounds(today: IsoDate): { from: IsoDate; to: IsoDate } {
  return { from: FIRST_ELECTION_DAY, to: isoDate(yearOf(today) + 1, 12, 31) };
}

/** The calendar year from which an election applies, and what was noticed on the way. */
export interface ElectionOutcome {
  effectiveYear: number;
  findings: Finding[];
}

/**
 * The first year an election governs: by November's last business day → next year (art. 4º §1º);
 * starting activity → this year from its month (§4º); late → the year after next with
 * ELECTION_AFTER_DEADLINE. Interpretations in docs/LAW.md.
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
  /** Made by a company starting activity (Lei 11.116/2005, art. 4º §4º); absent = false. */
  startingActivity?: boolean;
}

/**
 * The first day an election governs: 1 January of its effectiveYear (Lei 11.116/2005, art. 4º
 * §1º); for a company starting activity, the first day of the month of its election (art. 4º §4º:
 * from its month to the year's end, never earlier months).
 */
export function electionStart(e: ElectionFacts): IsoDate {
  if (e.startingActivity && yearOf(e.electedOn) === e.effectiveYear) return firstDayOfMonth(e.effectiveYear, Number(e.electedOn.slice(5, 7)));
  return firstDayOfMonth(e.effectiveYear, 1);
}

/** The regime that governs a calendar year, the election it comes from, and findings. */
export interface RegimeInForce {
  regime: TaxRegime;
  election: ElectionFacts | null;
  findings: Finding[];
}

/**
 * The election started last by the month's first day governs (renewed, art. 4º §5º; from its month
 * when starting activity, §4º); none → ad valorem (art. 3º), NO_REGIME_ELECTION.
 */
export function regimeForMonth(elections: readonly ElectionFacts[], year: number, month: number): RegimeInForce {
  const day = firstDayOfMonth(year, month);
  let governing: ElectionFacts | null = null;
  for (const e of elections) {
    const start = electionStart(e);
    if (start > day) continue;
    if (governing === null || start > electionStart(governing)) governing = e;
  }
  if (governing === null) return { regime: TaxRegime.AD_VALOREM, election: null, findings: [finding('NO_REGIME_ELECTION')] };
  return { regime: governing.regime, election: governing, findings: [] };
}

