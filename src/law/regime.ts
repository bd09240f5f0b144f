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
 * The dates an election may bear, as known on `today`: from the date of Lei 11.116/2005 (art. 4º
 * creates the option) to 31 December of the next year. An election is made by the last business
 * day of November for the next year (art. 4º §1º), so one dated beyond the end of next year is not
 * an election anyone has made yet (a mistyped year, e.g. 9999-12-31, whose effective year would
 * be 10001). Interpretation: dates up to the end of next year are taken so that an election
 * already prepared may be recorded; earlier years are kept, for the months computed for them.
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
 * The first calendar year an election made on `electedOn` governs.
 * - On or before the last business day of November: the whole next calendar year
 *   (Lei 11.116/2005, art. 4º §1º).
 * - A company starting its activity elects for the current year (art. 4º §4º), from the month of
 *   its election to the year's end (`electionStart`), never for earlier months.
 *   Interpretation: the law allows it in the first month of activity; that the election falls in
 *   that month is the producer's own declaration, refused when the producer already sold
 *   biodiesel in the year before the election (RegimeService.elect).
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
 * The regime in force in a month: the election that started last on or before the month's first
 * day (`electionStart`) governs, since an election renews automatically until changed (Lei
 * 11.116/2005, art. 4º §5º) and a company starting activity elects from its month on (art. 4º
 * §4º). With no election on record the default ad valorem regime applies (art. 3º), with the
 * finding NO_REGIME_ELECTION.
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

