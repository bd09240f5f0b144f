import { firstDayOfMonth, IsoDate, lastDayOfMonth } from '../dates';
import { LawBook } from '../law-book';
import { GrantFacts, sealStanding, standingChangeDays } from '../seal-standing';
import { runIndex, runs, versionBoundaries } from '../timeline';
import { SegmentSpan, versionKey } from './types';

/**
 * docs/LAW.md — the segments of a calendar month: maximal runs of days over which the rules in
 * force as known on `asKnownOn` do not change — the coefficient rules of Decreto 10.527/2020
 * arts. 5º–6º (or of Decreto 7.768/2012 before 2020-10-23), the end of PIS/Pasep and Cofins
 * (EC 132/2023, ADCT art. 126, II) and the single-phase taxes on fuels (LC 214/2025, arts.
 * 172–175), as `LawBook.changeDates` lists their changes; the ad valorem rates of Lei 11.116/2005
 * art. 3º — nor the producer's Selo standing (art. 6º §2º: regular or not). Each segment says
 * whether PIS/Cofins are in force over it. The runs are the parameter timeline's (`runs` of
 * src/law/timeline.ts), looked at on the days a version or the standing may change.
 */
export function taxSegments(law: LawBook, grants: readonly GrantFacts[], year: number, month: number, asKnownOn: IsoDate): SegmentSpan[] {
  const first = firstDayOfMonth(year, month);
  const last = lastDayOfMonth(year, month);
  // Interpretation: the same segments under both regimes (a cut at a change of the coefficient
  // rules or of the Selo standing is harmless ad valorem, where the dues are additive).
  const ruleChanges = law.changeDates(first, last, asKnownOn);
  const pisCofinsOn = (d: IsoDate) => !law.pisCofinsExtinction(d, asKnownOn);
  const signatureOn = (d: IsoDate) => [
    runIndex(ruleChanges, d),
    sealStanding(grants, d).regular,
    pisCofinsOn(d) ? versionKey(law.adValoremRates(d, asKnownOn)) : '',
  ].join('|');
  const candidates = [...ruleChanges, ...versionBoundaries(law.versions('ad-valorem-rates'), asKnownOn), ...standingChangeDays(grants)];
  return runs(first, last, candidates, signatureOn).map(({ from, to }) => {
    const standing = sealStanding(grants, from);
    return { from, to, pisCofins: pisCofinsOn(from), sealRegular: standing.regular, standing };
  });
}
