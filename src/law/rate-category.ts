import { Finding, finding } from './findings';
import { isPriorityRegion } from './municipality';
import { Feedstock, RateCategory, Region } from './types';

/** The facts of one lot of raw material that decide its rate category (Decreto 10.527/2020, art. 6º). */
export interface LotFacts {
  feedstock: Feedstock;
  /** Where the raw material was produced (the purchase's origin municipality). */
  origin: { region: Region; semiarid: boolean };
  /** Bought from an eligible family farmer or a habilitated COOPERATIVE on the purchase date. */
  familyFarmingOrigin: boolean;
  /** The producer holds the Selo in regular standing on the sale date. */
  sealRegular: boolean;
  /** Imported biodiesel (art. 6º §5º). */
  imported: boolean;
  /**
   * Why the lot did not come from family farming, when known (e.g. SUPPLIER_NOT_ELIGIBLE,
   * ASSOCIATION_NOT_COOPERATIVE from `familyFarmingOrigin` of family-farming.ts). Without it a
   * lot that did not come from family farming gets NOT_FROM_FAMILY_FARMING.
   */
  familyFarmingFindings?: Finding[];
}

export interface RateDecision {
  category: RateCategory;
  legalBasis: string;
  /** Why this category and not a better one: one finding per unmet condition of a better category. */
  reasons: Finding[];
}

/** Legal basis of each category (the provision fixing its coefficient and published amounts). */
export const CATEGORY_BASIS: Record<RateCategory, string> = {
  [RateCategory.GENERAL]: 'Decreto 10.527/2020, art. 5º, caput and §1º',
  [RateCategory.CASTOR_PALM_PRIORITY_REGION]: 'Decreto 10.527/2020, art. 6º, I and §1º, I',
  [RateCategory.FAMILY_FARMING]: 'Decreto 10.527/2020, art. 6º, II, §1º, II and §2º',
  [RateCategory.FAMILY_FARMING_PRIORITY_REGION]: 'Decreto 10.527/2020, art. 6º, III, §1º, III and §2º',
};

/** Decreto 10.527/2020, art. 6º I — castor bean ("mamona") or fruit, stone or kernel of palm. */
export function isCastorOrPalm(feedstock: Feedstock): boolean {
  return feedstock === Feedstock.CASTOR_BEAN || feedstock === Feedstock.PALM;
}

/**
 * A lot's category (Decreto 10.527/2020 arts. 5º–6º): the better of III, II, I, else general;
 * II and III need the Selo in regular standing (§2º); never for imports (§5º). `reasons` lists the
 * unmet conditions of every better category.
 */
export function rateCategory(lot: LotFacts): RateDecision {
  // art. 6º §5º: imported biodiesel never takes the differentiated rates.
  if (lot.imported) {
    return { category: RateCategory.GENERAL, legalBasis: `${CATEGORY_BASIS.GENERAL}; art. 6º §5º`, reasons: [finding('IMPORTED_BIODIESEL')] };
  }
  const familyFarming = lot.familyFarmingOrigin; // art. 6º II and III; §2º first condition
  const sealRegular = lot.sealRegular; //            art. 6º §2º second condition
  const priorityRegion = isPriorityRegion(lot.origin); // art. 6º I and III
  const castorOrPalm = isCastorOrPalm(lot.feedstock); //  art. 6º I

  const notFamilyFarming = lot.familyFarmingFindings?.length ? lot.familyFarmingFindings : [finding('NOT_FROM_FAMILY_FARMING')];
  const unmet = {
    familyFarming: familyFarming ? [] : notFamilyFarming,
    seal: sealRegular ? [] : [finding('SEAL_NOT_REGULAR')],
    priorityRegion: priorityRegion ? [] : [finding('OUTSIDE_PRIORITY_REGION')],
    castorOrPalm: castorOrPalm ? [] : [finding('NOT_CASTOR_OR_PALM')],
  };
  const conditions: Record<Exclude<RateCategory, RateCategory.GENERAL>, Finding[][]> = {
    [RateCategory.FAMILY_FARMING_PRIORITY_REGION]: [unmet.familyFarming, unmet.seal, unmet.priorityRegion], // III, §2º
    [RateCategory.FAMILY_FARMING]: [unmet.familyFarming, unmet.seal], //                                        II, §2º
    [RateCategory.CASTOR_PALM_PRIORITY_REGION]: [unmet.castorOrPalm, unmet.priorityRegion], //                   I
  };
  const better: RateCategory[] = [];
  for (const category of [RateCategory.FAMILY_FARMING_PRIORITY_REGION, RateCategory.FAMILY_FARMING, RateCategory.CASTOR_PALM_PRIORITY_REGION] as const) {
    if (conditions[category].every((u) => u.length === 0)) {
      return { category, legalBasis: CATEGORY_BASIS[category], reasons: reasonsAbove(better, conditions) };
    }
    better.push(category);
  }
  return { category: RateCategory.GENERAL, legalBasis: CATEGORY_BASIS.GENERAL, reasons: reasonsAbove(better, conditions) };
}

function reasonsAbove(better: RateCategory[], conditions: Partial<Record<RateCategory, Finding[][]>>): Finding[] {
  const seen = new Set<Finding[]>();
  const reasons: Finding[] = [];
  for (const category of better) {
    for (const u of conditions[category] ?? []) {
      if (u.length && !seen.has(u)) {
        seen.add(u);
        reasons.push(...u);
      }
    }
  }
  return reasons;
}
