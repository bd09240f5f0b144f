import { firstDayOfMonth, IsoDate } from '../dates';
import { Decimal } from '../decimal';
import { LawBook } from '../law-book';
import { CATEGORY_BASIS } from '../rate-category';
import { electionStart, RegimeInForce } from '../regime';
import { BlendRule, OwnProductionValuation, RateCategory, TaxRegime } from '../types';
import { snapshotValuation } from './snapshot';
import { CATEGORY_ORDER, PeriodRef, TaxPeriodFigures } from './types';

/** Descriptive only: nothing here changes a figure. */

export interface BlendFacts {
  valuedBy: OwnProductionValuation | null;
  noFeedstock: boolean;
  earlier: PeriodRef | null;
}

/** Lei 11.116/2005, art. 5º §§3º–5º, where no dated citation is recorded. */
const STATUTE_BASIS: Record<BlendRule, string> = {
  [BlendRule.COST_WEIGHTED]: 'Lei 11.116/2005, art. 5º §4º (average weighted by the acquisition cost of the raw material used)',
  [BlendRule.OWN_PRODUCTION_VALUATION]: 'Lei 11.116/2005, art. 5º §5º (own production valued at the average price of raw material acquired from third parties)',
  [BlendRule.IMPORTED_AT_GENERAL]: 'Decreto 10.527/2020, art. 6º §5º (imported biodiesel at the general amounts)',
  [BlendRule.SEAL_CONDITION]: 'Lei 11.116/2005, art. 5º §3º',
};

/** Decreto 10.527/2020, art. 6º §§2º–5º from 2020-10-23; before, Decreto 7.768/2012. */
export function blendRuleBasis(law: LawBook, rule: BlendRule, on: IsoDate, asKnownOn: IsoDate): string {
  return law.blendRule(rule, on, asKnownOn)?.legalBasis ?? STATUTE_BASIS[rule];
}

export const periodName = (p: PeriodRef) => `${p.year}-${String(p.month).padStart(2, '0')}`;

/** Descriptive only, so an old snapshot is explained at read time. */
export function explainSegment(
  law: LawBook,
  regime: TaxRegime,
  segment: { from: IsoDate; mix: ReadonlyArray<{ category: RateCategory }>; importedVolumeM3: Decimal; pisCofinsInForce?: boolean },
  asKnownOn: IsoDate,
  blend: BlendFacts,
): { pisRate: Decimal | null; cofinsRate: Decimal | null; legalBasis: string } {
  const extinct = segment.pisCofinsInForce === false ? law.pisCofinsExtinction(segment.from, asKnownOn) : undefined;
  if (extinct) {
    return { pisRate: null, cofinsRate: null, legalBasis: `${extinct.legalBasis} (PIS/Pasep and Cofins extinct from ${extinct.validFrom}: the volumes bear the single-phase taxes on fuels)` };
  }
  if (regime !== TaxRegime.SPECIAL_PER_M3) {
    const rates = law.adValoremRates(segment.from, asKnownOn);
    return { pisRate: rates.value.pis, cofinsRate: rates.value.cofins, legalBasis: rates.legalBasis };
  }
  const cite = (rule: BlendRule) => blendRuleBasis(law, rule, segment.from, asKnownOn);
  const rules = law.coefficientRules(segment.from, asKnownOn);
  const parts: string[] = [law.specialRegimeBase(segment.from, asKnownOn).legalBasis];
  const categories = segment.mix.map((m) => m.category);
  if (segment.importedVolumeM3.gt(0) && !categories.includes(RateCategory.GENERAL)) categories.push(RateCategory.GENERAL);
  for (const c of CATEGORY_ORDER) {
    if (categories.includes(c)) parts.push(rules[c].legalBasis || CATEGORY_BASIS[c]);
  }
  if (!blend.noFeedstock) {
    parts.push(blend.earlier
      ? `${cite(BlendRule.COST_WEIGHTED)}, with the raw material of ${periodName(blend.earlier)}, the latest earlier month with raw material used (Interpretation: biodiesel sold from stock; BLEND_OF_EARLIER_PERIOD)`
      : cite(BlendRule.COST_WEIGHTED));
  }
  if (blend.valuedBy === OwnProductionValuation.THIRD_PARTY_ACQUISITIONS) parts.push(cite(BlendRule.OWN_PRODUCTION_VALUATION));
  if (blend.valuedBy === OwnProductionValuation.THIRD_PARTY_LOTS_USED) {
    parts.push(`${cite(BlendRule.OWN_PRODUCTION_VALUATION)}, at the average price per kg of the third-party lots used (Interpretation: no third-party acquisition in the month; OWN_PRODUCTION_VALUED_BY_LOTS_USED)`);
  }
  if (segment.importedVolumeM3.gt(0)) parts.push(cite(BlendRule.IMPORTED_AT_GENERAL));
  return { pisRate: null, cofinsRate: null, legalBasis: [...new Set(parts)].join('; ') };
}

/** Lei 11.116/2005 arts. 3º–4º (§§1º, 4º, 5º). */
export function regimeBasis(law: LawBook, regime: RegimeInForce, year: number, month: number, asKnownOn: IsoDate): string {
  const on = firstDayOfMonth(year, month);
  const adValorem = law.adValoremRates(on, asKnownOn).legalBasis;
  const e = regime.election;
  if (!e) return `No regime election on record: the default ad valorem regime applies (${adValorem}); NO_REGIME_ELECTION`;
  const special = law.specialRegimeBase(on, asKnownOn).legalBasis;
  const start = electionStart(e);
  const how = e.startingActivity && Number(e.electedOn.slice(0, 4)) === e.effectiveYear
    ? `${special} §4º (company starting activity: applies from ${start.slice(0, 7)}, the month of the election, to the year's end)`
    : `${special} §1º (elected by the last business day of November: applies to the whole next calendar year)`;
  const renewal = year > e.effectiveYear ? `; renewed automatically for ${year} (${special} §5º)` : '';
  const applies = e.regime === TaxRegime.SPECIAL_PER_M3 ? `special regime per m³ (${special})` : `ad valorem regime (${adValorem})`;
  return `Election of the ${applies} made on ${e.electedOn}, effective from ${start}: ${how}${renewal}`;
}

/** Law as known on the close day; an election is irrevocable (Lei 11.116/2005 art. 4º §1º). */
export function explainSnapshot(law: LawBook, figures: TaxPeriodFigures, regime: RegimeInForce): TaxPeriodFigures {
  const blend: BlendFacts = {
    valuedBy: snapshotValuation(figures),
    noFeedstock: figures.warnings.some((w) => w.code === 'NO_FEEDSTOCK_IN_PERIOD'),
    earlier: figures.blendPeriod ?? null,
  };
  const segments = figures.segments.map((s) => (s.legalBasis !== undefined ? s : {
    ...s, ...explainSegment(law, figures.regime, s, figures.asKnownOn, blend),
  }));
  const sameRegime = regime.regime === figures.regime;
  return {
    ...figures,
    segments,
    regimeBasis: figures.regimeBasis ?? (sameRegime ? regimeBasis(law, regime, figures.year, figures.month, figures.asKnownOn) : `The regime recorded at the close: ${figures.regime}`),
    regimeElection: figures.regimeElection !== undefined ? figures.regimeElection : (sameRegime ? regime.election : null),
  };
}
