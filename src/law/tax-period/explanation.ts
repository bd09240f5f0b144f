import { firstDayOfMonth, IsoDate } from '../dates';
import { Decimal } from '../decimal';
import { LawBook } from '../law-book';
import { CATEGORY_BASIS } from '../rate-category';
import { electionStart, RegimeInForce } from '../regime';
import { BlendRule, OwnProductionValuation, RateCategory, TaxRegime } from '../types';
import { snapshotValuation } from './snapshot';
import { CATEGORY_ORDER, PeriodRef, TaxPeriodFigures } from './types';

/**
 * Why a month's figures are what they are (docs/LAW.md): the provisions a segment applied and
 * the regime's basis. Descriptive only: nothing here changes a figure.
 */

/** What the valuation of the month's raw material did, for the rules of the blend a segment cites. */
export interface BlendFacts {
  /** How own production was valued (null: none used). */
  valuedBy: OwnProductionValuation | null;
  /** Nothing to weigh: own production at the general amounts (NO_FEEDSTOCK_IN_PERIOD). */
  noFeedstock: boolean;
  /** The earlier month whose blend a stock-only month takes (BLEND_OF_EARLIER_PERIOD), else null. */
  earlier: PeriodRef | null;
}

/** The statute's own words for a rule of the blend, cited where no dated citation is recorded (Lei 11.116/2005, art. 5º §§3º–5º). */
const STATUTE_BASIS: Record<BlendRule, string> = {
  [BlendRule.COST_WEIGHTED]: 'Lei 11.116/2005, art. 5º §4º (average weighted by the acquisition cost of the raw material used)',
  [BlendRule.OWN_PRODUCTION_VALUATION]: 'Lei 11.116/2005, art. 5º §5º (own production valued at the average price of raw material acquired from third parties)',
  [BlendRule.IMPORTED_AT_GENERAL]: 'Decreto 10.527/2020, art. 6º §5º (imported biodiesel at the general amounts)',
  [BlendRule.SEAL_CONDITION]: 'Lei 11.116/2005, art. 5º §3º',
};

/**
 * The citation of a rule of the blend on `on` as known on `asKnownOn`: the dated citation in force
 * (Decreto 10.527/2020, art. 6º §§2º–5º from 2020-10-23; before, the statute under Decreto
 * 7.768/2012), else the statute's.
 */
export function blendRuleBasis(law: LawBook, rule: BlendRule, on: IsoDate, asKnownOn: IsoDate): string {
  return law.blendRule(rule, on, asKnownOn)?.legalBasis ?? STATUTE_BASIS[rule];
}

/** A year and month as a period is named: 2026-03. */
export const periodName = (p: PeriodRef) => `${p.year}-${String(p.month).padStart(2, '0')}`;

/**
 * Which rates a segment applied and why, from the law versions in force on its first day: the
 * extinction (EC 132/2023, ADCT art. 126, II), art. 3º's fractions, or art. 4º's amounts with each
 * category rule and blend rule used. Descriptive only, so an old snapshot is explained at read time.
 */
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

/**
 * Why a regime governs a month (Lei 11.116/2005 arts. 3º–4º): no election → ad valorem; a company
 * starting activity → from its month (§4º); else the November election (§1º), renewed (§5º).
 */
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

/**
 * A snapshot taken before explanations were kept, explained from the law as known on the day it
 * was closed; `regime` is used only when it names the snapshot's regime (an election is
 * irrevocable, Lei 11.116/2005 art. 4º §1º). Descriptive fields only, never a figure.
 */
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
