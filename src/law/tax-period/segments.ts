import { addDays, eachDay, firstDayOfMonth, IsoDate, lastDayOfMonth } from '../dates';
import { LawBook } from '../law-book';
import { GrantFacts, sealStanding } from '../seal-standing';
import { SegmentSpan, versionKey } from './types';

/**
 * DESIGN §1.3 — the segments of a calendar month: maximal runs of days over which the rules in
 * force as known on `asKnownOn` do not change — the coefficient rules of Decreto 10.527/2020
 * arts. 5º–6º (or of Decreto 7.768/2012 before 2020-10-23), the end of PIS/Pasep and Cofins
 * (EC 132/2023, ADCT art. 126, II) and the single-phase taxes on fuels (LC 214/2025, arts.
 * 172–175), as `LawBook.changeDates` lists their changes; the ad valorem rates of Lei 11.116/2005
 * art. 3º — nor the producer's Selo standing (art. 6º §2º: regular or not). Each segment says
 * whether PIS/Cofins are in force over it.
 */
export function taxSegments(law: LawBook, grants: readonly GrantFacts[], year: number, month: number, asKnownOn: IsoDate): SegmentSpan[] {
  const first = firstDayOfMonth(year, month);
  const last = lastDayOfMonth(year, month);
  // Interpretation: the same segments under both regimes (a cut at a change of the coefficient
  // rules or of the Selo standing is harmless ad valorem, where the dues are additive).
  const cuts = new Set(law.changeDates(first, last, asKnownOn));
  const days = eachDay(first, last);
  const standings = days.map((d) => sealStanding(grants, d));
  const pisCofins = days.map((d) => !law.pisCofinsExtinction(d, asKnownOn));
  const adValorem = days.map((d, i) => (pisCofins[i] ? versionKey(law.adValoremRates(d, asKnownOn)) : ''));
  for (let i = 1; i < days.length; i++) {
    if (standings[i].regular !== standings[i - 1].regular || adValorem[i] !== adValorem[i - 1]) cuts.add(days[i]);
  }
  const starts = [first, ...[...cuts].filter((d) => d > first && d <= last).sort()];
  return starts.map((from, i) => {
    const to = i + 1 < starts.length ? addDays(starts[i + 1], -1) : last;
    const index = days.indexOf(from);
    const standing = standings[index];
    return { from, to, pisCofins: pisCofins[index], sealRegular: standing.regular, standing };
  });
}
