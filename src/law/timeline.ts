import { addDays, IsoDate } from './dates';

/**
 * docs/LAW.md — timelines of dated parameters: the runs of days over which the figures a
 * computation reads do not change, so that the database can group a month's or a year's items by
 * run and the law weigh each run with the figures in force on it.
 */

/** A run of days, both ends inclusive. */
export interface Run {
  from: IsoDate;
  to: IsoDate;
}

/**
 * The maximal runs of [from, to] over which `signatureOn` is the same, looked at on `from` and on
 * each of `candidates` (the days on which a version starts or ends: nothing can change elsewhere).
 */
export function runs(from: IsoDate, to: IsoDate, candidates: Iterable<IsoDate>, signatureOn: (day: IsoDate) => string): Run[] {
  const days = [...new Set(candidates)].filter((d) => d > from && d <= to).sort();
  const result: Run[] = [];
  let start = from;
  let current = signatureOn(from);
  for (const d of days) {
    const s = signatureOn(d);
    if (s === current) continue;
    result.push({ from: start, to: addDays(d, -1) });
    start = d;
    current = s;
  }
  result.push({ from: start, to });
  return result;
}

/** The days on which the versions (as known on `asKnownOn`) start, and those after they end. */
export function versionBoundaries(versions: Iterable<{ validFrom: IsoDate; validUntil: IsoDate | null; publishedOn: IsoDate }>, asKnownOn: IsoDate): IsoDate[] {
  const days = new Set<IsoDate>();
  for (const v of versions) {
    if (v.publishedOn > asKnownOn) continue;
    days.add(v.validFrom);
    if (v.validUntil) days.add(addDays(v.validUntil, 1));
  }
  return [...days].sort();
}

/** The run of `day` among runs starting on `starts` (ascending): 1 for the first, 0 before it — SQL's width_bucket. */
export function runIndex(starts: readonly IsoDate[], day: IsoDate): number {
  let index = 0;
  while (index < starts.length && starts[index] <= day) index++;
  return index;
}
