import { Decimal, ONE, sum, toCentavos, toShare, ZERO } from '../decimal';
import { LawBook } from '../law-book';
import { CATEGORY_BASIS, rateCategory } from '../rate-category';
import { OwnProductionValuation, RateCategory } from '../types';
import { CategoryShareFigures, CATEGORY_ORDER, FeedstockGroup, ThirdPartyAcquisitions, versionKey } from './types';

// The blend of a period: Decreto 10.527/2020 art. 6º §4º (valuation) and §3º (cost-weighted
// amounts); Lei 11.116/2005 art. 5º §§4º–5º.

/** The category rules in force on a day (Decreto 10.527/2020, arts. 5º–6º), as the law book gives them. */
export type CoefficientRules = ReturnType<LawBook['coefficientRules']>;

/** How the month's raw material is valued (art. 6º §4º), and what the blend's explanation cites. */
export interface Valuation {
  /** Raw material used in the month with a quantity (the groups the blend weighs). */
  groups: FeedstockGroup[];
  /** Kilograms of own production used. */
  ownKg: Decimal;
  /** No raw material used in the month (NO_FEEDSTOCK_IN_PERIOD, or the blend of an earlier month). */
  noFeedstock: boolean;
  /** How own production was valued; null when none was used. */
  valuedBy: OwnProductionValuation | null;
  /** The average third-party price per kg that values own production (acquired, else used, in the month); null with neither. */
  pricePerKg: Decimal | null;
  /** Only own production used: the weights are its kilograms (OWN_PRODUCTION_VALUED_BY_QUANTITY). */
  byQuantity: boolean;
  /** The factor every weight carries (the third-party kilograms of the price, when own production is priced; else 1). */
  scale: Decimal;
  /** The weight of a group, × scale. */
  weightOf: (g: FeedstockGroup) => Decimal;
  /** The valued acquisition cost of the raw material used, unrounded. */
  feedstockCost: Decimal;
}

/**
 * Art. 6º §4º: bought lots weigh by their own cost; own production at the period's average
 * third-party price per kg, else the third-party lots used, else by kilograms (docs/LAW.md).
 */
export function ownProductionValuation(feedstock: readonly FeedstockGroup[], thirdParty: ThirdPartyAcquisitions): Valuation {
  const groups = feedstock.filter((g) => g.quantityKg.gt(0));
  const ownKg = sum(groups.filter((g) => g.ownProduction).map((g) => g.quantityKg));
  const bought = groups.filter((g) => !g.ownProduction);
  const noFeedstock = groups.length === 0;
  // art. 6º §4º: own production valued at the average price per kg of raw material acquired from
  // third parties in the period. Interpretation: literal reading, every non-own acquisition of the
  // month (purchasedOn), all feedstocks together.
  // Interpretation: with no third-party acquisition in the month, the average price per kg of the
  // third-party lots used in the month (consumedOn), whenever bought: the cost §3º weighs them by.
  const used = { cost: sum(bought.map((g) => g.cost)), quantityKg: sum(bought.map((g) => g.quantityKg)) };
  const price = thirdParty.quantityKg.gt(0) ? thirdParty : used.quantityKg.gt(0) ? used : null;
  const pricePerKg = price ? price.cost.div(price.quantityKg) : null;
  // Interpretation: with only own production used, the weights are kilograms: whatever price per kg
  // values it, it is the same for every lot, so the proportions by kg are exact.
  const valuedBy = ownKg.isZero() ? null
    : price === thirdParty ? OwnProductionValuation.THIRD_PARTY_ACQUISITIONS
      : price === used ? OwnProductionValuation.THIRD_PARTY_LOTS_USED : OwnProductionValuation.QUANTITY;
  const byQuantity = valuedBy === OwnProductionValuation.QUANTITY;
  // docs/LAW.md (computed unrounded): the weights are kept exact. Where own production is priced
  // every weight is scaled by the price's kilograms (own lot: kg × the price's cost; bought lot:
  // cost × the price's kg), so that the price per kg, a quotient, never enters the dues; the only
  // division is the last one, and a half-centavo tie of the exact dues stays a tie.
  const scale = ownKg.gt(0) && price ? price.quantityKg : ONE;
  const weightOf = (g: FeedstockGroup): Decimal =>
    (byQuantity ? g.quantityKg : g.ownProduction ? g.quantityKg.times(price!.cost) : g.cost.times(scale));
  // Interpretation: the valued acquisition cost of the raw material used; with only own production
  // used it has no price, so nothing (the bought lots' cost, of which there is none).
  const feedstockCost = byQuantity ? ZERO : sum(groups.map(weightOf)).div(scale);
  return { groups, ownKg, noFeedstock, valuedBy, pricePerKg, byQuantity, scale, weightOf, feedstockCost };
}

/** The blend of one segment: its mix and the blended amounts as a quotient kept apart (numerators / divisor). */
export interface SegmentBlend {
  mix: CategoryShareFigures[];
  /** Σ weight × PIS amount (divide by `divisor`). */
  pisNumerator: Decimal;
  /** Σ weight × Cofins amount (divide by `divisor`). */
  cofinsNumerator: Decimal;
  divisor: Decimal;
  /** Family-farming raw material weighed without the Selo in regular standing (art. 6º §2º). */
  familyFarmingWithoutSeal: boolean;
  /** Keys of the category rules used. */
  lawVersions: string[];
}

/**
 * Art. 6º §3º: category amounts weighted by the valued cost of the raw material used, each lot's
 * category per art. 6º §2º; none to weigh → GENERAL (art. 5º §1º). Numerators and denominator are
 * kept apart so the dues divide last.
 */
export function costWeightedBlend(rules: CoefficientRules, valuation: Valuation, sealRegular: boolean): SegmentBlend {
  const general = rules[RateCategory.GENERAL];
  const weights = new Map<RateCategory, { weight: Decimal; kg: Decimal }>();
  let familyFarmingWithoutSeal = false;
  for (const g of valuation.groups) {
    const decision = rateCategory({
      feedstock: g.feedstock, origin: { region: g.region, semiarid: g.semiarid },
      familyFarmingOrigin: g.familyFarmingOrigin, sealRegular, imported: false,
    });
    if (g.familyFarmingOrigin && !sealRegular) familyFarmingWithoutSeal = true;
    const w = weights.get(decision.category) ?? { weight: ZERO, kg: ZERO };
    weights.set(decision.category, { weight: w.weight.plus(valuation.weightOf(g)), kg: w.kg.plus(g.quantityKg) });
  }
  const total = sum([...weights.values()].map((w) => w.weight));
  if (valuation.noFeedstock || total.isZero()) {
    return {
      mix: [{
        category: RateCategory.GENERAL, cost: ZERO, quantityKg: ZERO, share: new Decimal(1), coefficient: general.value.coefficient,
        pisPerM3: general.value.pisPerM3, cofinsPerM3: general.value.cofinsPerM3, legalBasis: general.legalBasis || CATEGORY_BASIS.GENERAL,
      }],
      pisNumerator: general.value.pisPerM3, cofinsNumerator: general.value.cofinsPerM3, divisor: ONE, familyFarmingWithoutSeal, lawVersions: [],
    };
  }
  const mix: CategoryShareFigures[] = [];
  const lawVersions: string[] = [];
  let pisNumerator = ZERO;
  let cofinsNumerator = ZERO;
  for (const category of CATEGORY_ORDER) {
    const w = weights.get(category);
    if (!w) continue;
    const rule = rules[category];
    lawVersions.push(versionKey(rule));
    // art. 6º §3º: Σ cost_c × amount_c / Σ cost, kept unrounded.
    pisNumerator = pisNumerator.plus(w.weight.times(rule.value.pisPerM3));
    cofinsNumerator = cofinsNumerator.plus(w.weight.times(rule.value.cofinsPerM3));
    mix.push({
      category, cost: toCentavos(w.weight.div(valuation.scale)), quantityKg: w.kg, share: toShare(w.weight.div(total)), coefficient: rule.value.coefficient,
      pisPerM3: rule.value.pisPerM3, cofinsPerM3: rule.value.cofinsPerM3, legalBasis: rule.legalBasis,
    });
  }
  return { mix, pisNumerator, cofinsNumerator, divisor: total, familyFarmingWithoutSeal, lawVersions };
}
