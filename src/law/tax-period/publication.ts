import { addDays, IsoDate } from '../dates';
import { Finding, finding } from '../findings';
import { LawBook, LawRead } from '../law-book';
import { message } from '../message';

/**
 * docs/LAW.md, PUBLICATION_DATE_OPEN: where an answer rests on a law version whose publication
 * date is not in our sources (`publicationDateOpen`) — applied because the date used is on or
 * before asKnownOn, or left out only because it is after — it says so, naming the days it decides,
 * the version's legal basis and the date used. One finding per act and date (the four categories
 * of one act are one act).
 */
export function publicationDateFindings(law: LawBook, reads: readonly LawRead[], asKnownOn: IsoDate): Finding[] {
  const byAct = new Map<string, { legalBasis: string; publishedOn: IsoDate; applied: boolean; days: Set<IsoDate> }>();
  for (const open of law.openPublications(reads, asKnownOn)) {
    const { legalBasis, publishedOn } = open.version;
    const key = `${open.applied}|${publishedOn}|${legalBasis}`;
    const act = byAct.get(key) ?? { legalBasis, publishedOn, applied: open.applied, days: new Set<IsoDate>() };
    for (const d of open.days) act.days.add(d);
    byAct.set(key, act);
  }
  return [...byAct.values()]
    .map((act) => ({ ...act, days: [...act.days].sort() }))
    .sort((a, b) => (a.days[0] === b.days[0] ? (a.legalBasis < b.legalBasis ? -1 : 1) : a.days[0] < b.days[0] ? -1 : 1))
    .map((act) => finding('PUBLICATION_DATE_OPEN', message(act.applied ? 'finding.PUBLICATION_DATE_OPEN.applied' : 'finding.PUBLICATION_DATE_OPEN.notYetKnown', {
      days: runsOfDays(act.days).map((r) => message('word.days', r)), legalBasis: act.legalBasis, publishedOn: act.publishedOn, asKnownOn,
    }), act.legalBasis));
}

/** Sorted days as runs of consecutive days. */
function runsOfDays(days: readonly IsoDate[]): Array<{ from: IsoDate; to: IsoDate }> {
  const runs: Array<{ from: IsoDate; to: IsoDate }> = [];
  for (const d of days) {
    const last = runs[runs.length - 1];
    if (last && addDays(last.to, 1) === d) last.to = d;
    else runs.push({ from: d, to: d });
  }
  return runs;
}
