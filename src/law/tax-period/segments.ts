import { firstDayOfMonth, IsoDate, lastDayOfMonth } from '../dates';
import { LawBook } from '../law-book';
import { GrantFacts, sealStanding, standingChangeDays } from '../seal-standing';
import { runIndex, runs, versionBoundaries } from '../timeline';
import { SegmentSpan, versionKey } from './types';

/**
 * The month's maximal runs of days with the same rules in force (`LawBook.changeDates`: Decreto
 * 10.527/2020 arts. 5º–6º, the extinction, the fuel taxes) and the same Selo standing (art. 6º §2º).
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
