import { Decimal, ONE, sum, toCentavos, toShare, ZERO } from '../decimal';
import { LawBook } from '../law-book';
import { CATEGORY_BASIS, rateCategory } from '../rate-category';
import { OwnProductionValuation, RateCategory } from '../types';
import { CategoryShareFigures, CATEGORY_ORDER, FeedstockGroup, ThirdPartyAcquisitions, versionKey } from './types';

// Decreto 10.527/2020 art. 6º §§3º–4º; Lei 11.116/2005 art. 5º §§4º–5º.

/** Decreto 10.527/2020, arts. 5º–6º. */
export type CoefficientRules = ReturnType<LawBook['coefficientRules']>;

/** Art. 6º §4º. */
export interface Valuation {
  groups: FeedstockGroup[];
  ownKg: Decimal;
  noFeedstock: boolean;
  valuedBy: OwnProductionValuation | null;
  pricePerKg: Decimal | null;
  byQuantity: boolean;
  /** The price's third-party kg when own production is priced, else 1. */
  scale: Decimal;
  weightOf: (g: FeedstockGroup) => Decimal;
  feedstockCost: Decimal;
}

/** Art. 6º §4º; fallbacks in docs/LAW.md. */
export function ownProductionValuation(feedstock: readonly FeedstockGroup[], thirdParty: ThirdPartyAcquisitions): Valuation {
  // A group nets its lots and the returns of lots of its kind (docs/LAW.md, "Returns"): one whose
  // returns exceed its use is kept negative, for costWeightedBlend to net or name, never dropped.
  const groups = feedstock.filter((g) => !g.quantityKg.isZero() || !g.cost.isZero());
  const owns = groups.some((g) => g.ownProduction);
  const ownKg = sum(groups.filter((g) => g.ownProduction).map((g) => g.quantityKg));
  const bought = groups.filter((g) => !g.ownProduction);
  // No raw material used: nothing left of any kind once the month's returns are netted (usesRawMaterial's test).
  const noFeedstock = !groups.some((g) => g.quantityKg.gt(0));
  // Interpretation: literal reading, every non-own acquisition of the month (purchasedOn), all feedstocks together.
  // Interpretation: with no third-party acquisition in the month, the average price per kg of the
  // third-party lots used in the month (consumedOn).
  const used = { cost: sum(bought.map((g) => g.cost)), quantityKg: sum(bought.map((g) => g.quantityKg)) };
  const price = thirdParty.quantityKg.gt(0) ? thirdParty : used.quantityKg.gt(0) ? used : null;
  const pricePerKg = price ? price.cost.div(price.quantityKg) : null;
  // Interpretation: with only own production used, the weights are kilograms (one price for every lot).
  const valuedBy = !owns ? null
    : price === thirdParty ? OwnProductionValuation.THIRD_PARTY_ACQUISITIONS
      : price === used ? OwnProductionValuation.THIRD_PARTY_LOTS_USED : OwnProductionValuation.QUANTITY;
  const byQuantity = valuedBy === OwnProductionValuation.QUANTITY;
  // Scaled by the price's kg so the price, a quotient, never enters the dues: ties stay ties (docs/LAW.md).
  const scale = owns && price ? price.quantityKg : ONE;
  const weightOf = (g: FeedstockGroup): Decimal =>
    (byQuantity ? g.quantityKg : g.ownProduction ? g.quantityKg.times(price!.cost) : g.cost.times(scale));
  // With only own production used there is no price, so no cost.
  const feedstockCost = byQuantity ? ZERO : sum(groups.map(weightOf)).div(scale);
  return { groups, ownKg, noFeedstock, valuedBy, pricePerKg, byQuantity, scale, weightOf, feedstockCost };
}

/** Numerators and divisor kept apart so the dues divide last. */
export interface SegmentBlend {
  mix: CategoryShareFigures[];
  pisNumerator: Decimal;
  cofinsNumerator: Decimal;
  divisor: Decimal;
  /** Art. 6º §2º. */
  familyFarmingWithoutSeal: boolean;
  lawVersions: string[];
  /** Categories whose returns exceed their use in the month: they weigh nothing (docs/LAW.md, "Returns"). */
  returnedBeyondUse: ReturnedBeyondUse[];
}

/** A category's negative net in the month: its valued cost (R$, ≤ 0) and kg. */
export interface ReturnedBeyondUse {
  category: RateCategory;
  cost: Decimal;
  quantityKg: Decimal;
}

/** Art. 6º §§2º–3º; none to weigh → GENERAL (art. 5º §1º). */
export function costWeightedBlend(rules: CoefficientRules, valuation: Valuation, sealRegular: boolean): SegmentBlend {
  const general = rules[RateCategory.GENERAL];
  const weights = new Map<RateCategory, { weight: Decimal; kg: Decimal }>();
  let familyFarmingWithoutSeal = false;
  for (const g of valuation.groups) {
    const decision = rateCategory({
      feedstock: g.feedstock, origin: { region: g.region, semiarid: g.semiarid },
      familyFarmingOrigin: g.familyFarmingOrigin, sealRegular, imported: false,
    });
    if (g.familyFarmingOrigin && !sealRegular && g.quantityKg.gt(0)) familyFarmingWithoutSeal = true;
    const w = weights.get(decision.category) ?? { weight: ZERO, kg: ZERO };
    weights.set(decision.category, { weight: w.weight.plus(valuation.weightOf(g)), kg: w.kg.plus(g.quantityKg) });
  }
  // Interpretation (Lei 11.116/2005 art. 5º §4º; docs/LAW.md "Returns"): a category whose net
  // weight is negative (lots used in an earlier month sent back beyond this month's use of its kind)
  // weighs nothing: a proportion of the cost of raw material used cannot be negative, and a negative
  // weight would carry the blend outside the published amounts. It is named, not dropped silently.
  const returnedBeyondUse: ReturnedBeyondUse[] = CATEGORY_ORDER.flatMap((category) => {
    const w = weights.get(category);
    return w && w.weight.lt(0) ? [{ category, cost: toCentavos(w.weight.div(valuation.scale)), quantityKg: w.kg }] : [];
  });
  for (const r of returnedBeyondUse) weights.delete(r.category);
  // Fully returned within the month: nothing of the category is left.
  for (const [category, w] of weights) if (w.weight.isZero() && !w.kg.gt(0)) weights.delete(category);
  const total = sum([...weights.values()].map((w) => w.weight));
  if (valuation.noFeedstock || total.isZero()) {
    return {
      mix: [{
        category: RateCategory.GENERAL, cost: ZERO, quantityKg: ZERO, share: new Decimal(1), coefficient: general.value.coefficient,
        pisPerM3: general.value.pisPerM3, cofinsPerM3: general.value.cofinsPerM3, legalBasis: general.legalBasis || CATEGORY_BASIS.GENERAL,
      }],
      pisNumerator: general.value.pisPerM3, cofinsNumerator: general.value.cofinsPerM3, divisor: ONE, familyFarmingWithoutSeal, lawVersions: [], returnedBeyondUse,
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
  return { mix, pisNumerator, cofinsNumerator, divisor: total, familyFarmingWithoutSeal, lawVersions, returnedBeyondUse };
}
