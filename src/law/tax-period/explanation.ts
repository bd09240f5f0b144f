import { firstDayOfMonth, IsoDate } from '../dates';
import { Decimal, ONE, ZERO } from '../decimal';
import { LawBook } from '../law-book';
import { CATEGORY_BASIS } from '../rate-category';
import { RegimeInForce } from '../regime';
import { RateCategory, TaxRegime } from '../types';
import { CATEGORY_ORDER, TaxPeriodFigures } from './types';

/**
 * Why a month's figures are what they are (DESIGN §1.1–§1.3): the provisions a segment applied and
 * the regime's basis. Descriptive only: nothing here changes a figure.
 */

/** What the valuation of the month's raw material did, for the rules of the blend a segment cites. */
export interface BlendFacts {
  byQuantity: boolean;
  ownKg: Decimal;
  noFeedstock: boolean;
}

/** Rules of Decreto 10.527/2020 art. 6º the code applies in a blend (rules, not dated figures: no law version carries them). */
const BLEND_BASIS = {
  weighted: 'Decreto 10.527/2020, art. 6º §3º (average weighted by the acquisition cost of the raw material used)',
  ownProduction: 'art. 6º §4º (own production valued at the average third-party price per kg)',
  imported: 'art. 6º §5º (imported biodiesel at the general amounts)',
} as const;

/**
 * Which rates a segment applied and why (DESIGN §1.1–§1.3), from the law versions in force on the
 * segment's first day as known on `asKnownOn` — the versions `computeTaxPeriod` used:
 * - ad valorem: the fractions of Lei 11.116/2005 art. 3º and that version's legal basis;
 * - special regime: the legal basis of the art. 4º amounts (Lei 11.116/2005), then of each category
 *   rule in the mix (Decreto 10.527/2020 art. 5º caput and §1º, art. 6º I–III, or the zero window
 *   of art. 5º §§2º–4º while in force), then the art. 6º §§3º–5º rules of the blend that applied.
 * Pure and descriptive: it changes no figure, so a closed month's snapshot taken without it can be
 * explained at read time from its own asKnownOn (the day it was closed).
 */
export function explainSegment(
  law: LawBook,
  regime: TaxRegime,
  segment: { from: IsoDate; mix: ReadonlyArray<{ category: RateCategory }>; importedVolumeM3: Decimal },
  asKnownOn: IsoDate,
  blend: BlendFacts,
): { pisRate: Decimal | null; cofinsRate: Decimal | null; legalBasis: string } {
  if (regime !== TaxRegime.SPECIAL_PER_M3) {
    const rates = law.adValoremRates(segment.from, asKnownOn);
    return { pisRate: rates.value.pis, cofinsRate: rates.value.cofins, legalBasis: rates.legalBasis };
  }
  const rules = law.coefficientRules(segment.from, asKnownOn);
  const parts: string[] = [law.specialRegimeBase(segment.from, asKnownOn).legalBasis];
  const categories = segment.mix.map((m) => m.category);
  if (segment.importedVolumeM3.gt(0) && !categories.includes(RateCategory.GENERAL)) categories.push(RateCategory.GENERAL);
  for (const c of CATEGORY_ORDER) {
    if (categories.includes(c)) parts.push(rules[c].legalBasis || CATEGORY_BASIS[c]);
  }
  if (!blend.noFeedstock) parts.push(BLEND_BASIS.weighted);
  if (blend.ownKg.gt(0) && !blend.byQuantity) parts.push(BLEND_BASIS.ownProduction);
  if (segment.importedVolumeM3.gt(0)) parts.push(BLEND_BASIS.imported);
  return { pisRate: null, cofinsRate: null, legalBasis: [...new Set(parts)].join('; ') };
}

/**
 * Why a regime governs `year` (Lei 11.116/2005, arts. 3º–4º; DESIGN §1.1), citing the legal basis
 * of the law version of the regime (art. 3º rates or art. 4º amounts) in force on the year's first day:
 * - no election on record: the default ad valorem regime (art. 3º), NO_REGIME_ELECTION;
 * - an election made in the year it takes effect: a company starting activity (art. 4º §4º);
 * - otherwise the election made by the November deadline for its effectiveYear (art. 4º §1º),
 *   renewed automatically for every later year until changed (art. 4º §5º).
 */
export function regimeBasis(law: LawBook, regime: RegimeInForce, year: number, asKnownOn: IsoDate): string {
  const on = firstDayOfMonth(year, 1);
  const adValorem = law.adValoremRates(on, asKnownOn).legalBasis;
  const e = regime.election;
  if (!e) return `No regime election on record: the default ad valorem regime applies (${adValorem}); NO_REGIME_ELECTION`;
  const special = law.specialRegimeBase(on, asKnownOn).legalBasis;
  const how = Number(e.electedOn.slice(0, 4)) === e.effectiveYear
    ? `${special} §4º (company starting activity: applies from the year of the election)`
    : `${special} §1º (elected by the last business day of November: applies to the whole next calendar year)`;
  const renewal = year > e.effectiveYear ? `; renewed automatically for ${year} (${special} §5º)` : '';
  const applies = e.regime === TaxRegime.SPECIAL_PER_M3 ? `special regime per m³ (${special})` : `ad valorem regime (${adValorem})`;
  return `Election of the ${applies} made on ${e.electedOn}, effective from ${e.effectiveYear}: ${how}${renewal}`;
}

/**
 * A closed month's snapshot taken before the explanations were kept: its segments' rates and
 * legal bases and its regime basis, derived at read time from the law as known on the snapshot's
 * own asKnownOn (the day it was closed) and the facts the snapshot itself records (its regime, mix,
 * imported volume, valuation warnings). Descriptive fields only, never a figure; `regime` is the
 * election record read now (an election is irrevocable, Lei 11.116/2005 art. 4º §1º, and a second
 * one for the same year is refused), used only when it names the regime the snapshot records.
 * Snapshots that already carry them are returned unchanged.
 */
export function explainSnapshot(law: LawBook, figures: TaxPeriodFigures, regime: RegimeInForce): TaxPeriodFigures {
  const codes = new Set(figures.warnings.map((w) => w.code));
  const blend: BlendFacts = {
    byQuantity: codes.has('OWN_PRODUCTION_VALUED_BY_QUANTITY'),
    noFeedstock: codes.has('NO_FEEDSTOCK_IN_PERIOD'),
    ownKg: figures.ownProductionPricePerKg !== null && figures.ownProductionPricePerKg !== undefined ? ONE : ZERO,
  };
  const segments = figures.segments.map((s) => (s.legalBasis !== undefined ? s : {
    ...s, ...explainSegment(law, figures.regime, s, figures.asKnownOn, blend),
  }));
  const sameRegime = regime.regime === figures.regime;
  return {
    ...figures,
    segments,
    regimeBasis: figures.regimeBasis ?? (sameRegime ? regimeBasis(law, regime, figures.year, figures.asKnownOn) : `The regime recorded at the close: ${figures.regime}`),
    regimeElection: figures.regimeElection !== undefined ? figures.regimeElection : (sameRegime ? regime.election : null),
  };
}
