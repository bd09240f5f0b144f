import { IsoDate } from '../../law/dates';
import { LawBook } from '../../law/law-book';
import { runs, versionBoundaries } from '../../law/timeline';

// A parameter's timeline in SQL: the runs' first days as an array, a day's run by `width_bucket`.
// Pure twins `runs` and `runIndex` (src/law/timeline.ts), parity-tested against the law book.

/** The run of `day` among the runs starting on the days of the date array `starts` (SQL expressions): 1 for the first, 0 before it. */
export function runIndexSql(day: string, starts: string): string {
  return `width_bucket(${day}, ${starts})`;
}

/** The value of the run of `day`, from the array `values` (one per run, SQL): NULL before the first run. */
export function valueOnSql(day: string, starts: string, values: string): string {
  return `(${values})[${runIndexSql(day, starts)}]`;
}

/** A timeline of one figure: the first day of each run, and the figure over it (null where none is in force). */
export interface Timeline {
  starts: IsoDate[];
  values: Array<string | null>;
}

/**
 * The cooperative minimum family-farmer share (Decreto 10.527/2020, art. 4º VI) as known on
 * `asKnownOn`, over all time: a day with none published is a run of null (the document alone decides).
 */
export function minimumShareTimeline(law: LawBook, asKnownOn: IsoDate): Timeline {
  const shareOn = (d: IsoDate): string | null => law.cooperativeMinFamilyFarmerShare(d, asKnownOn)?.value.toFixed() ?? null;
  const boundaries = versionBoundaries(law.versions('cooperative-min-family-farmer-share'), asKnownOn);
  if (boundaries.length === 0) return { starts: ['0001-01-01'], values: [null] };
  const spans = runs(boundaries[0], '9999-12-31', boundaries, (d) => String(shareOn(d)));
  return { starts: spans.map((s) => s.from), values: spans.map((s) => shareOn(s.from)) };
}
