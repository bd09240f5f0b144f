import { addDays, eachDay, firstDayOfMonth, IsoDate, lastDayOfMonth } from './dates';
import { Decimal, ONE, sum, toCentavos, toShare, ZERO } from './decimal';
import { Finding, finding } from './findings';
import { LawBook } from './law-book';
import { CATEGORY_BASIS, rateCategory } from './rate-category';
import { ElectionFacts, RegimeInForce } from './regime';
import { GrantFacts, sealStanding, Standing } from './seal-standing';
import { BiodieselOrigin, Feedstock, Market, RateCategory, Region, TaxRegime } from './types';

/**
 * The monthly PIS/Pasep and Cofins of a biodiesel producer (DESIGN §1.1–§1.3), pure: the service
 * hands over the month's SQL aggregates, this module applies the law to them.
 *
 * - Lei 11.116/2005, art. 3º: ad valorem on the gross revenue of the domestic market (default);
 *   art. 4º: the special regime per m³, elected yearly; art. 5º §§4º–5º: the reduced amounts.
 * - Decreto 10.527/2020, art. 5º caput and §1º (general amounts), §§2º–4º (the 2026 zero window);
 *   art. 6º I–III and §1º (differentiated amounts), §2º (family farming needs the Selo in regular
 *   standing), §3º (the rate of a period is the average weighted by the acquisition cost of the
 *   raw material used in it), §4º (own production valued at the average third-party price per kg),
 *   §5º (imported biodiesel never takes the art. 6º amounts).
 */

/** One SQL group of the raw material used (consumedOn) in the month: the facts the category needs. */
export interface FeedstockGroup {
  feedstock: Feedstock;
  /** Where the raw material was produced (origin municipality). */
  region: Region;
  semiarid: boolean;
  /** Eligible family farmer or habilitated cooperative on the purchase date (art. 6º §2º, SQL in purchase-facts.sql.ts). */
  familyFarmingOrigin: boolean;
  /** supplierKind OWN_PRODUCTION: no acquisition cost (art. 6º §4º). */
  ownProduction: boolean;
  /** Sum of acquisition costs (0 for own production). */
  cost: Decimal;
  quantityKg: Decimal;
}

/** Raw material acquired (purchasedOn) in the month from anyone but the producer itself (art. 6º §4º). */
export interface ThirdPartyAcquisitions {
  cost: Decimal;
  quantityKg: Decimal;
}

/** One SQL group of the month's sales: segment (0-based index into the segments), origin, market. */
export interface SaleGroup {
  segment: number;
  origin: BiodieselOrigin;
  market: Market;
  volumeM3: Decimal;
  revenue: Decimal;
}

/** A run of days over which the rules in force and the Selo standing do not change (DESIGN §1.3). */
export interface SegmentSpan {
  from: IsoDate;
  to: IsoDate;
  sealRegular: boolean;
  /** The standing on `from` (constant over the segment as far as `regular` goes). */
  standing: Standing;
}

export interface CategoryShareFigures {
  category: RateCategory;
  /**
   * Weight of the category: the valued acquisition cost of its raw material used in the period
   * (art. 6º §3º–§4º), or its quantity in kg under OWN_PRODUCTION_VALUED_BY_QUANTITY. Shown to the
   * centavo (half-even); the computation uses it unrounded.
   */
  cost: Decimal;
  quantityKg: Decimal;
  /** cost / total, shown half-even to 6 decimals. */
  share: Decimal;
  coefficient: Decimal;
  pisPerM3: Decimal;
  cofinsPerM3: Decimal;
  legalBasis: string;
}

export interface TaxSegmentFigures {
  from: IsoDate;
  to: IsoDate;
  sealRegular: boolean;
  sealStanding: Finding;
  mix: CategoryShareFigures[];
  blendedPisPerM3: Decimal | null;
  blendedCofinsPerM3: Decimal | null;
  ownProductionVolumeM3: Decimal;
  importedVolumeM3: Decimal;
  exportedVolumeM3: Decimal;
  domesticRevenue: Decimal;
  pisDue: Decimal;
  cofinsDue: Decimal;
  /** Ad valorem only: the PIS/Pasep fraction of revenue applied (Lei 11.116/2005, art. 3º); null under the special regime. */
  pisRate: Decimal | null;
  /** Ad valorem only: the Cofins fraction of revenue applied (Lei 11.116/2005, art. 3º); null under the special regime. */
  cofinsRate: Decimal | null;
  /** The provisions applied in the segment: the legal bases of the law versions used, then the rules of the blend. */
  legalBasis: string;
}

/** Every figure of a month as shown (and as a closed month's snapshot keeps it). */
export interface TaxPeriodFigures {
  year: number;
  month: number;
  asKnownOn: IsoDate;
  regime: TaxRegime;
  feedstockCost: Decimal;
  ownProductionPricePerKg: Decimal | null;
  segments: TaxSegmentFigures[];
  domesticVolumeM3: Decimal;
  importedVolumeM3: Decimal;
  exportedVolumeM3: Decimal;
  pisDue: Decimal;
  cofinsDue: Decimal;
  totalDue: Decimal;
  warnings: Finding[];
  /** Why this regime governs the month: the governing election (Lei 11.116/2005, art. 4º §§1º, 4º, 5º) or NO_REGIME_ELECTION (art. 3º). */
  regimeBasis: string;
  /** The election that governs the year, null when none is on record. */
  regimeElection: ElectionFacts | null;
}

export interface TaxPeriodInput {
  year: number;
  month: number;
  asKnownOn: IsoDate;
  regime: RegimeInForce;
  segments: SegmentSpan[];
  feedstock: FeedstockGroup[];
  thirdParty: ThirdPartyAcquisitions;
  sales: SaleGroup[];
}

export interface TaxPeriodResult {
  figures: TaxPeriodFigures;
  /** Ids (or legal bases, where a version has no id) of every law version used: part of a closed month's fingerprint. */
  lawVersions: string[];
}

const CATEGORY_ORDER = [
  RateCategory.FAMILY_FARMING_PRIORITY_REGION, RateCategory.FAMILY_FARMING, RateCategory.CASTOR_PALM_PRIORITY_REGION, RateCategory.GENERAL,
];

const versionKey = (v: { id?: string; validFrom: string; validUntil: string | null; publishedOn: string; seq?: number; legalBasis: string }) =>
  v.id ?? `${v.legalBasis}|${v.validFrom}|${v.validUntil ?? ''}|${v.publishedOn}|${v.seq ?? ''}`;

/**
 * DESIGN §1.3 — the segments of a calendar month: maximal runs of days over which the rules in
 * force as known on `asKnownOn` (the coefficient rules of Decreto 10.527/2020 arts. 5º–6º, as
 * `LawBook.changeDates` lists their changes, and the ad valorem rates of Lei 11.116/2005 art. 3º)
 * and the producer's Selo standing (art. 6º §2º: regular or not) do not change. Throws
 * NoRuleInForceError for a month in which PIS/Cofins are not in force (from 2027, EC 132/2023,
 * ADCT art. 126, II).
 */
export function taxSegments(law: LawBook, grants: readonly GrantFacts[], year: number, month: number, asKnownOn: IsoDate): SegmentSpan[] {
  const first = firstDayOfMonth(year, month);
  const last = lastDayOfMonth(year, month);
  law.assertPisCofinsInForce(first, asKnownOn);
  law.assertPisCofinsInForce(last, asKnownOn);
  // Interpretation: the same segments under both regimes (a cut at a change of the coefficient
  // rules or of the Selo standing is harmless ad valorem, where the dues are additive).
  const cuts = new Set(law.changeDates(first, last, asKnownOn));
  const days = eachDay(first, last);
  const standings = days.map((d) => sealStanding(grants, d));
  const adValorem = days.map((d) => versionKey(law.adValoremRates(d, asKnownOn)));
  for (let i = 1; i < days.length; i++) {
    if (standings[i].regular !== standings[i - 1].regular || adValorem[i] !== adValorem[i - 1]) cuts.add(days[i]);
  }
  const starts = [first, ...[...cuts].filter((d) => d > first && d <= last).sort()];
  return starts.map((from, i) => {
    const to = i + 1 < starts.length ? addDays(starts[i + 1], -1) : last;
    const standing = standings[days.indexOf(from)];
    return { from, to, sealRegular: standing.regular, standing };
  });
}

/**
 * The month's PIS/Pasep and Cofins from its aggregates (DESIGN §1.1–§1.3).
 *
 * Special regime (Lei 11.116/2005, art. 4º; art. 5º §§4º–5º): per segment, own-production volume
 * sold domestically × the blended per-m³ amounts + imported volume × the GENERAL amounts
 * (Decreto 10.527/2020, art. 6º §5º). The blended amounts are the category amounts in force in the
 * segment weighted by the valued acquisition cost of the raw material used in the month (art. 6º
 * §3º); each lot's category is decided by `rateCategory` with the segment's Selo standing (art. 6º
 * §2º). Own production is valued at the month's average third-party price per kg (art. 6º §4º).
 *
 * Ad valorem (Lei 11.116/2005, art. 3º): 6,15% / 28,32% (the rates in force) of the domestic
 * revenue, own and imported alike; the reduction coefficients and the zero window reduce only
 * the per-m³ amounts (art. 5º) and do not touch it.
 *
 * Exports bear no PIS/Cofins (their volume is reported). Rounding (DESIGN §1.3, ABNT NBR 5891):
 * each segment's PIS and Cofins due half-even to the centavo; the period's dues are the sums of
 * the segments'; shares and blended amounts shown half-even to 6 decimals, used unrounded.
 */
export function computeTaxPeriod(law: LawBook, input: TaxPeriodInput): TaxPeriodResult {
  const { year, month, asKnownOn, regime, segments } = input;
  const lawVersions = new Set<string>();
  const warnings: Finding[] = [...regime.findings];
  const special = regime.regime === TaxRegime.SPECIAL_PER_M3;

  // Raw material for biodiesel used in the month (the service passes only purpose BIODIESEL_FEEDSTOCK).
  const groups = input.feedstock.filter((g) => g.quantityKg.gt(0));
  const ownKg = sum(groups.filter((g) => g.ownProduction).map((g) => g.quantityKg));
  const noFeedstock = groups.length === 0;
  // art. 6º §4º: own production valued at the average price per kg of raw material acquired from
  // third parties in the period. Interpretation: literal reading, every non-own acquisition of the
  // month (purchasedOn), all feedstocks together.
  const pricePerKg = input.thirdParty.quantityKg.gt(0) ? input.thirdParty.cost.div(input.thirdParty.quantityKg) : null;
  // Interpretation: with own production used and no third-party acquisition to value it, the
  // weights of the whole period fall back to quantity (kg) (DESIGN §1.3).
  const byQuantity = ownKg.gt(0) && pricePerKg === null;
  // DESIGN §1.3 (computed unrounded): the weights are kept exact. Under the §4º valuation every
  // weight is scaled by the third-party kilograms (own lot: kg × third-party cost; bought lot:
  // cost × third-party kg), so that the price per kg, a quotient, never enters the dues; the only
  // division is the last one, and a half-centavo tie of the exact dues stays a tie.
  const scale = ownKg.gt(0) && pricePerKg !== null ? input.thirdParty.quantityKg : ONE;
  const weightOf = (g: FeedstockGroup): Decimal =>
    (byQuantity ? g.quantityKg : g.ownProduction ? g.quantityKg.times(input.thirdParty.cost) : g.cost.times(scale));
  if (special && noFeedstock) warnings.push(finding('NO_FEEDSTOCK_IN_PERIOD'));
  if (special && byQuantity) warnings.push(finding('OWN_PRODUCTION_VALUED_BY_QUANTITY'));

  // Interpretation: the valued acquisition cost of the raw material used; under the quantity
  // fallback own production has no value, so only the bought lots' cost.
  const feedstockCost = byQuantity ? sum(groups.filter((g) => !g.ownProduction).map((g) => g.cost)) : sum(groups.map(weightOf)).div(scale);

  const segmentFigures = segments.map((seg, index): TaxSegmentFigures => {
    const sales = input.sales.filter((s) => s.segment === index);
    const domestic = sales.filter((s) => s.market === Market.DOMESTIC);
    const ownVolume = sum(domestic.filter((s) => s.origin === BiodieselOrigin.OWN_PRODUCTION).map((s) => s.volumeM3));
    const importedVolume = sum(domestic.filter((s) => s.origin === BiodieselOrigin.IMPORTED).map((s) => s.volumeM3));
    const exportedVolume = sum(sales.filter((s) => s.market === Market.EXPORT).map((s) => s.volumeM3));
    const domesticRevenue = sum(domestic.map((s) => s.revenue));
    const base = {
      from: seg.from, to: seg.to, sealRegular: seg.sealRegular, sealStanding: seg.standing.reason,
      ownProductionVolumeM3: ownVolume, importedVolumeM3: importedVolume, exportedVolumeM3: exportedVolume, domesticRevenue,
    };

    if (!special) {
      // Lei 11.116/2005, art. 3º: on the revenue of the domestic market, own and imported alike.
      const rates = law.adValoremRates(seg.from, asKnownOn);
      lawVersions.add(versionKey(rates));
      return {
        ...base, mix: [], blendedPisPerM3: null, blendedCofinsPerM3: null,
        pisDue: toCentavos(domesticRevenue.times(rates.value.pis)),
        cofinsDue: toCentavos(domesticRevenue.times(rates.value.cofins)),
        ...explainSegment(law, regime.regime, { from: seg.from, mix: [], importedVolumeM3: importedVolume }, asKnownOn, { byQuantity, ownKg, noFeedstock }),
      };
    }

    const rules = law.coefficientRules(seg.from, asKnownOn);
    const general = rules[RateCategory.GENERAL];
    lawVersions.add(versionKey(general));
    const weights = new Map<RateCategory, { weight: Decimal; kg: Decimal }>();
    let familyFarmingWithoutSeal = false;
    for (const g of groups) {
      const decision = rateCategory({
        feedstock: g.feedstock, origin: { region: g.region, semiarid: g.semiarid },
        familyFarmingOrigin: g.familyFarmingOrigin, sealRegular: seg.sealRegular, imported: false,
      });
      if (g.familyFarmingOrigin && !seg.sealRegular) familyFarmingWithoutSeal = true;
      const w = weights.get(decision.category) ?? { weight: ZERO, kg: ZERO };
      weights.set(decision.category, { weight: w.weight.plus(weightOf(g)), kg: w.kg.plus(g.quantityKg) });
    }
    if (familyFarmingWithoutSeal) {
      warnings.push(finding('SEAL_NOT_REGULAR', `From ${seg.from} to ${seg.to} the producer does not hold the Selo in regular standing: family-farming raw material is not weighted at the family-farming amounts (${seg.standing.reason.message})`));
    }
    const total = sum([...weights.values()].map((w) => w.weight));

    let mix: CategoryShareFigures[];
    // art. 6º §3º: the blended amounts are Σ weight × amount / Σ weight; the numerators and the
    // denominator are kept apart so that the dues divide last (volume × Σ weight × amount / Σ weight).
    let blendedPis: Decimal;
    let blendedCofins: Decimal;
    let divisor = ONE;
    if (noFeedstock || total.isZero()) {
      // No raw material used: own production taxed at the general amounts (art. 5º §1º; NO_FEEDSTOCK_IN_PERIOD).
      mix = [{
        category: RateCategory.GENERAL, cost: ZERO, quantityKg: ZERO, share: new Decimal(1), coefficient: general.value.coefficient,
        pisPerM3: general.value.pisPerM3, cofinsPerM3: general.value.cofinsPerM3, legalBasis: general.legalBasis || CATEGORY_BASIS.GENERAL,
      }];
      blendedPis = general.value.pisPerM3;
      blendedCofins = general.value.cofinsPerM3;
    } else {
      mix = [];
      blendedPis = ZERO;
      blendedCofins = ZERO;
      for (const category of CATEGORY_ORDER) {
        const w = weights.get(category);
        if (!w) continue;
        const rule = rules[category];
        lawVersions.add(versionKey(rule));
        const share = w.weight.div(total);
        // art. 6º §3º: Σ cost_c × amount_c / Σ cost, kept unrounded.
        blendedPis = blendedPis.plus(w.weight.times(rule.value.pisPerM3));
        blendedCofins = blendedCofins.plus(w.weight.times(rule.value.cofinsPerM3));
        mix.push({
          category, cost: toCentavos(w.weight.div(scale)), quantityKg: w.kg, share: toShare(share), coefficient: rule.value.coefficient,
          pisPerM3: rule.value.pisPerM3, cofinsPerM3: rule.value.cofinsPerM3, legalBasis: rule.legalBasis,
        });
      }
      divisor = total;
    }
    // art. 6º §5º: imported biodiesel at the GENERAL amounts.
    const pis = ownVolume.times(blendedPis).div(divisor).plus(importedVolume.times(general.value.pisPerM3));
    const cofins = ownVolume.times(blendedCofins).div(divisor).plus(importedVolume.times(general.value.cofinsPerM3));
    return {
      ...base, mix, blendedPisPerM3: toShare(blendedPis.div(divisor)), blendedCofinsPerM3: toShare(blendedCofins.div(divisor)),
      pisDue: toCentavos(pis), cofinsDue: toCentavos(cofins),
      ...explainSegment(law, regime.regime, { from: seg.from, mix, importedVolumeM3: importedVolume }, asKnownOn, { byQuantity, ownKg, noFeedstock }),
    };
  });

  const importedVolumeM3 = sum(segmentFigures.map((s) => s.importedVolumeM3));
  if (special && importedVolumeM3.gt(0)) warnings.push(finding('IMPORTED_BIODIESEL'));
  const pisDue = sum(segmentFigures.map((s) => s.pisDue));
  const cofinsDue = sum(segmentFigures.map((s) => s.cofinsDue));
  return {
    lawVersions: [...lawVersions].sort(),
    figures: {
      year, month, asKnownOn, regime: regime.regime,
      feedstockCost: toCentavos(feedstockCost),
      ownProductionPricePerKg: ownKg.gt(0) && pricePerKg !== null ? toShare(pricePerKg) : null,
      segments: segmentFigures,
      domesticVolumeM3: sum(segmentFigures.map((s) => s.ownProductionVolumeM3)),
      importedVolumeM3,
      exportedVolumeM3: sum(segmentFigures.map((s) => s.exportedVolumeM3)),
      pisDue, cofinsDue, totalDue: pisDue.plus(cofinsDue),
      warnings: dedupe(warnings),
      regimeBasis: regimeBasis(law, regime, year, asKnownOn),
      regimeElection: regime.election ? { regime: regime.election.regime, electedOn: regime.election.electedOn, effectiveYear: regime.election.effectiveYear } : null,
    },
  };
}

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

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}|${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A figure of a closed month that recomputing would change. */
export interface FigureDifference {
  /** Path of the figure, e.g. `segments[1].pisDue` or `segments` (a different cut). */
  field: string;
  closed: string | null;
  recomputed: string | null;
}

const SEGMENT_FIELDS = [
  'from', 'to', 'sealRegular', 'blendedPisPerM3', 'blendedCofinsPerM3', 'ownProductionVolumeM3', 'importedVolumeM3',
  'exportedVolumeM3', 'domesticRevenue', 'pisDue', 'cofinsDue',
] as const;
const PERIOD_FIELDS = [
  'regime', 'feedstockCost', 'ownProductionPricePerKg', 'domesticVolumeM3', 'importedVolumeM3', 'exportedVolumeM3', 'pisDue', 'cofinsDue', 'totalDue',
] as const;

const text = (v: unknown): string | null => (v === null || v === undefined ? null : v instanceof Decimal ? v.toFixed() : String(v));
const same = (a: unknown, b: unknown) => (a instanceof Decimal && b instanceof Decimal ? a.eq(b) : text(a) === text(b));

/**
 * What a closed month's snapshot says differently from a recomputation (e.g. after a retroactive
 * act): every period and segment figure, segment cut and category share that changed.
 */
export function figureDifferences(closed: TaxPeriodFigures, recomputed: TaxPeriodFigures): FigureDifference[] {
  const out: FigureDifference[] = [];
  const cmp = (field: string, a: unknown, b: unknown) => {
    if (!same(a, b)) out.push({ field, closed: text(a), recomputed: text(b) });
  };
  for (const f of PERIOD_FIELDS) cmp(f, closed[f], recomputed[f]);
  cmp('segments.length', closed.segments.length, recomputed.segments.length);
  closed.segments.forEach((s, i) => {
    const r = recomputed.segments[i];
    if (!r) return;
    for (const f of SEGMENT_FIELDS) cmp(`segments[${i}].${f}`, s[f], r[f]);
    const categories = new Set([...s.mix, ...r.mix].map((m) => m.category));
    for (const c of CATEGORY_ORDER) {
      if (!categories.has(c)) continue;
      const a = s.mix.find((m) => m.category === c);
      const b = r.mix.find((m) => m.category === c);
      for (const f of ['cost', 'share', 'pisPerM3', 'cofinsPerM3'] as const) cmp(`segments[${i}].mix.${c}.${f}`, a?.[f] ?? null, b?.[f] ?? null);
    }
  });
  return out;
}

const DECIMAL_PERIOD = ['feedstockCost', 'ownProductionPricePerKg', 'domesticVolumeM3', 'importedVolumeM3', 'exportedVolumeM3', 'pisDue', 'cofinsDue', 'totalDue'] as const;
const DECIMAL_SEGMENT = ['blendedPisPerM3', 'blendedCofinsPerM3', 'ownProductionVolumeM3', 'importedVolumeM3', 'exportedVolumeM3', 'domesticRevenue', 'pisDue', 'cofinsDue'] as const;
const DECIMAL_SHARE = ['cost', 'quantityKg', 'share', 'coefficient', 'pisPerM3', 'cofinsPerM3'] as const;

/** The figures as stored in a snapshot (JSON: decimals as strings) read back with their Decimals. */
export function figuresFromJson(json: unknown): TaxPeriodFigures {
  type Json = Record<string, unknown>;
  const d = (v: unknown) => (v === null || v === undefined ? null : new Decimal(v as string));
  const withDecimals = (o: Json, fields: readonly string[]): Json => {
    const out: Json = { ...o };
    for (const f of fields) out[f] = d(o[f]);
    return out;
  };
  const raw = json as Json;
  const period = withDecimals(raw, DECIMAL_PERIOD);
  period.segments = (raw.segments as Json[]).map((s) => {
    const seg = withDecimals(s, DECIMAL_SEGMENT);
    // Added after the first snapshots were taken: absent there (undefined), explained at read time.
    for (const f of ['pisRate', 'cofinsRate'] as const) if (s[f] !== undefined) seg[f] = d(s[f]);
    seg.mix = (s.mix as Json[]).map((m) => withDecimals(m, DECIMAL_SHARE));
    return seg;
  });
  return period as unknown as TaxPeriodFigures;
}
