import { Version } from './dated';
import { IsoDate } from './dates';
import { Decimal, ONE, sum, ZERO } from './decimal';
import { familyFarmerShare } from './family-farming';
import { Finding } from './findings';
import { LawBook, SpendingKind } from './law-book';
import { isPriorityRegion } from './municipality';
import {
  aterWarnings, aterYearFindings, contractsWithoutTechnicalAssistance, decideFomentoGroup, decidePurchaseGroup, FomentoGroup, Place, PurchaseGroup, sealBase, sealFinding, sealWordingOf, targetDay, technicalAssistanceFinding,
} from './seal-spending';
import {
  AppliedFactor, CountedItem, ExcludedGroup, MinimumShareRequirement, priorityRegionMinimum, priorityRegionRequirement, requiredSpending, requirementFindings, SealComplianceFacts, SealComplianceResult, verdict,
} from './seal-year';
import { BalanceIn } from './seal-balance';
import { FACTOR_ALINEA, Feedstock, Region, SealBaseRule, SealComplianceModel, SealWeightingFactor as F } from './types';
import { message } from './message';

// The Selo's compliance from 2024 (Portaria MDA 28/2024, pp. 39–41; docs/LAW.md): spending times
// the factors that apply, against domestic biodiesel sales. Pure.

/** Factor b: organizations whose members are up to 75% family farmers (a share of exactly 0,75 is "up to"). */
export const ORGANIZATION_SHARE_LIMIT = new Decimal('0.75');

/** Factor f: raw material that is not diversified (soybeans, soybean oil, live animals); anything else is. */
export const NOT_DIVERSIFIED: ReadonlySet<Feedstock> = new Set([Feedstock.SOYBEAN, Feedstock.SOYBEAN_OIL, Feedstock.LIVE_ANIMALS]);

/** What decides an item's factors. */
export interface WeighingFacts {
  source: 'PURCHASE' | 'FOMENTO';
  /** The region of the spending on the item's date: origin municipality of an acquisition, municipality of fomento. */
  place: Place;
  /** The product of an acquisition; null for fomento. */
  product: Feedstock | null;
  /** Of an acquisition from an organization: its family-farmer members / members on the date; else null. */
  organizationShare: Decimal | null;
}

/**
 * The factors of an item (Portaria MDA 28/2024 p. 40): fomento in N/NE/Semiárido c alone; via an
 * organization b (≤ 75% members) or a; region d (N/NE/Semiárido) or e (CO/SE), none in the Sul;
 * f for all but soy and live animals. Interpretations: docs/LAW.md.
 */
export function factorsThatApply(item: WeighingFacts): F[] {
  if (item.source === 'FOMENTO') return isPriorityRegion(item.place) ? [F.FOMENTO_PRIORITY_REGION] : [];
  const factors: F[] = [];
  if (item.organizationShare) factors.push(item.organizationShare.lte(ORGANIZATION_SHARE_LIMIT) ? F.ORGANIZATION_UP_TO_75 : F.ORGANIZATION_ABOVE_75);
  if (isPriorityRegion(item.place)) factors.push(F.ACQUISITION_PRIORITY_REGION);
  else if (item.place.region === Region.CENTER_WEST || item.place.region === Region.SOUTHEAST) factors.push(F.ACQUISITION_CENTER_WEST_SOUTHEAST);
  if (item.product !== null && !NOT_DIVERSIFIED.has(item.product)) factors.push(F.DIVERSIFIED_RAW_MATERIAL);
  return factors;
}

/** The factors that apply, each with its figure in force on `on` as known on `asKnownOn` (null while not published). */
export function appliedFactors(item: WeighingFacts, law: LawBook, on: IsoDate, asKnownOn: IsoDate): AppliedFactor[] {
  return factorsThatApply(item).flatMap((factor) => {
    const v = law.sealWeightingFactor(factor, on, asKnownOn);
    return v ? [{ factor, alinea: FACTOR_ALINEA[factor], value: v.value, legalBasis: v.legalBasis }] : [];
  });
}

/** §2º: the factors multiply together (1 when none applies); null while one has no published figure — never read as 1. */
export function weightOf(factors: readonly AppliedFactor[]): Decimal | null {
  return factors.reduce<Decimal | null>((w, f) => (w && f.value ? w.times(f.value) : null), ONE);
}

/** The findings of a counted item that do not exclude it: the decision's warnings first. */
function itemFindings(factors: readonly AppliedFactor[], belowMinimumPrice: boolean, warnings: readonly Finding[]): Finding[] {
  const findings: Finding[] = [...warnings];
  for (const f of factors) {
    if (f.value === null) findings.push(sealFinding('WEIGHTING_FACTOR_NOT_PUBLISHED', message('finding.WEIGHTING_FACTOR_NOT_PUBLISHED.factor', { alinea: f.alinea, legalBasis: f.legalBasis })));
  }
  if (belowMinimumPrice) findings.push(sealFinding('PURCHASE_BELOW_MINIMUM_PRICE'));
  return findings;
}

/** The weighing facts of a group of purchases. */
export function purchaseWeighing(g: PurchaseGroup): WeighingFacts {
  if (g.product === undefined) throw new Error('A weighted year needs the product of each group of purchases');
  return { source: 'PURCHASE', place: g.origin, product: g.product, organizationShare: g.supplier.organization ? familyFarmerShare(g.supplier.organization) : null };
}

/** One counted item of the weighted model: its actual value, each factor applied and its weighted value. */
export function weighItem(
  key: string, kind: SpendingKind, g: PurchaseGroup | FomentoGroup, facts: WeighingFacts, law: LawBook, asKnownOn: IsoDate, belowMinimumPrice = false,
  warnings: readonly Finding[] = [],
): CountedItem {
  const factors = appliedFactors(facts, law, g.segment.from, asKnownOn);
  const weight = weightOf(factors);
  return {
    key, source: facts.source, kind, count: g.count, place: facts.place, product: facts.product, organizationShare: facts.organizationShare,
    on: g.segment.from, actual: g.amount, factors, weight, weighted: weight && g.amount.times(weight), priorityRegion: isPriorityRegion(facts.place),
    findings: itemFindings(factors, belowMinimumPrice, warnings),
  };
}

/** What the weighted model decides about the year's groups: the counted items and the excluded groups. */
export interface WeighedGroups {
  items: CountedItem[];
  excluded: ExcludedGroup[];
  /** Contracts of the year's purchases without technical assistance (requirement 3), by id. */
  withoutTechnicalAssistance: string[];
  /** The counted fomento groups (their technical-assistance expenses make a finding of the year). */
  countedFomento: FomentoGroup[];
}

/**
 * Decreto 10.527/2020, art. 3º §2º I–III as judged from 2024: which groups count (the same
 * suppliers, contracts — judged per acquisition — and regions as the flat model), each counted one
 * weighed by its factors on its dates.
 */
export function weighGroups(facts: Pick<SealComplianceFacts, 'purchases' | 'fomento' | 'asKnownOn'>, law: LawBook): WeighedGroups {
  const { asKnownOn } = facts;
  const items: CountedItem[] = [];
  const excluded: ExcludedGroup[] = [];
  const countedFomento: FomentoGroup[] = [];
  for (const g of facts.purchases) {
    const d = decidePurchaseGroup(g, law, asKnownOn);
    if (!d.counts) excluded.push({ key: g.key, source: 'PURCHASE', findings: d.findings });
    else items.push(weighItem(g.key, d.kind, g, purchaseWeighing(g), law, asKnownOn, g.belowMinimumPrice ?? false, d.warnings));
  }
  for (const g of facts.fomento) {
    const d = decideFomentoGroup(g, law, asKnownOn);
    if (!d.counts) excluded.push({ key: g.key, source: 'FOMENTO', findings: d.findings });
    else {
      countedFomento.push(g);
      // Arts. 15–16: technical-assistance expenses count as recorded, and the item says so (docs/LAW.md).
      items.push(weighItem(g.key, 'FOMENTO', g, { source: 'FOMENTO', place: g.place, product: null, organizationShare: null }, law, asKnownOn, false, aterWarnings(g)));
    }
  }
  return { items, excluded, withoutTechnicalAssistance: contractsWithoutTechnicalAssistance(facts.purchases), countedFomento };
}

/**
 * Requirement 1 (pp. 39–40): weighted spending / domestic sales ≥ the minimum in force on 31
 * December; unpublished → `met` null, MINIMUM_NOT_PUBLISHED (base reading: docs/LAW.md).
 */
export function weightedMinimum(
  minimum: Version<Decimal | null>, weighted: Decimal, facts: Pick<SealComplianceFacts, 'sales' | 'balancesIn'>, awaitingFactor: Decimal = ZERO,
): MinimumShareRequirement {
  const base = sealBase(facts.sales, SealBaseRule.DOMESTIC_SALES);
  const zeroBase = base.base.lte(0);
  const achievedShare = zeroBase ? ZERO : weighted.div(base.base);
  const balances = facts.balancesIn ?? [];
  const balanceIn = balances.some((b) => b.amount === null) ? null : sum(balances.map((b) => b.amount as Decimal));
  if (minimum.value === null) return { requiredShare: minimum, achievedShare, requiredAmount: null, balanceIn, shortfall: null, met: null };
  const required = requiredSpending(minimum.value, facts.sales, base);
  if (balanceIn === null) return { requiredShare: minimum, achievedShare, requiredAmount: required, balanceIn, shortfall: null, met: null };
  // Art. 58: a surplus brought in counts toward the minimum, a deficit must be made up on top of it.
  const counted = weighted.plus(balanceIn);
  const met = (zeroBase && balanceIn.gte(0)) || counted.gte(required);
  // Items awaiting a factor can only add (factors are ≥ 0): met stays met; short is not yet known.
  if (!met && awaitingFactor.gt(0)) return { requiredShare: minimum, achievedShare, requiredAmount: required, balanceIn, shortfall: null, met: null };
  return { requiredShare: minimum, achievedShare, requiredAmount: required, balanceIn, shortfall: met ? ZERO : required.minus(counted), met };
}

/** What the year rests on when no minimum weighted percentage version is in force at all. */
const NO_MINIMUM_VERSION = (year: number): Version<Decimal | null> => ({
  value: null, validFrom: `${year}-01-01`, validUntil: null, publishedOn: `${year}-01-01`, legalBasis: 'Portaria MDA nº 28/2024, p. 39 (minimum weighted percentage)',
});

/**
 * Weighted model (Portaria MDA 28/2024; Portaria MME/MDA 2/2023; art. 3º §2º III): requirement 1,
 * requirement 2 (actual priority-region share), 3 (technical assistance, a finding); compliant
 * when all hold, null while one is unknown and none fails.
 */
export function weightedSealCompliance(facts: SealComplianceFacts, law: LawBook, model: Version<Record<string, string>>): SealComplianceResult {
  const { year, asKnownOn } = facts;
  const base = sealBase(facts.sales, SealBaseRule.DOMESTIC_SALES);
  const wording = sealWordingOf(law, year, asKnownOn);
  const { items, excluded, withoutTechnicalAssistance, countedFomento } = weighGroups(facts, law);
  const of = (kind: SpendingKind) => sum(items.filter((i) => i.kind === kind).map((i) => i.actual));
  // Items whose weight awaits a factor (alínea a) are left out of the weighted total, never weighed ×1.
  const countedTotal = sum(items.flatMap((i) => (i.weighted ? [i.weighted] : [])));
  const awaitingFactor = sum(items.filter((i) => i.weighted === null).map((i) => i.actual));
  const actualTotal = sum(items.map((i) => i.actual));
  const priorityRegionAmount = sum(items.filter((i) => i.priorityRegion).map((i) => i.actual));

  const minimumShare = weightedMinimum(law.minimumWeightedShare(targetDay(year), asKnownOn) ?? NO_MINIMUM_VERSION(year), countedTotal, facts, awaitingFactor);
  const priorityRegion = priorityRegionRequirement(priorityRegionMinimum(law, year, asKnownOn), priorityRegionAmount, actualTotal);
  const technicalAssistance = { contractIds: withoutTechnicalAssistance, met: withoutTechnicalAssistance.length === 0 };

  const findings = requirementFindings(year, { achievedShare: minimumShare.achievedShare, minimumShare, priorityRegion, model: SealComplianceModel.WEIGHTED }, base.base.lte(0), actualTotal.isZero());
  if (minimumShare.met === null) findings.push(sealFinding('MINIMUM_NOT_PUBLISHED', message('finding.MINIMUM_NOT_PUBLISHED.asKnownOn', { year, asKnownOn, legalBasis: minimumShare.requiredShare.legalBasis })));
  findings.push(...technicalAssistanceFinding(withoutTechnicalAssistance));
  for (const b of facts.balancesIn ?? []) findings.push(balanceFinding(b));
  const unpublished = [...new Set(items.flatMap((i) => i.factors.filter((f) => f.value === null).map((f) => f.alinea)))].sort();
  if (unpublished.length) {
    findings.push(sealFinding('WEIGHTING_FACTOR_NOT_PUBLISHED', message('finding.WEIGHTING_FACTOR_NOT_PUBLISHED.year', { alineas: unpublished.join(', '), actual: awaitingFactor.toFixed(2) })));
  }
  const below = items.filter((i) => i.findings.some((f) => f.code === 'PURCHASE_BELOW_MINIMUM_PRICE')).reduce((n, i) => n + i.count, 0);
  if (below) findings.push(sealFinding('PURCHASE_BELOW_MINIMUM_PRICE', message('finding.PURCHASE_BELOW_MINIMUM_PRICE.count', { count: below })));
  findings.push(...aterYearFindings(countedFomento));

  return {
    year,
    asKnownOn,
    model: SealComplianceModel.WEIGHTED,
    modelLegalBasis: `${wording.version.legalBasis}; ${model.legalBasis}`,
    ...base,
    familyFarmingAcquisitions: of('FAMILY_FARMING_ACQUISITION'),
    otherProductAcquisitions: of('OTHER_PRODUCT'),
    fomento: of('FOMENTO'),
    actualTotal,
    countedTotal,
    awaitingFactor,
    priorityRegionAmount,
    achievedShare: minimumShare.achievedShare,
    minimumShare,
    priorityRegion,
    technicalAssistance,
    compliant: verdict(minimumShare.met, priorityRegion.met, technicalAssistance.met),
    items,
    excluded,
    findings,
    balance: { broughtIn: facts.balancesIn ?? [], carriedOut: undefined },
  };
}

/** Art. 58: what a balance brought in says (a surplus, a deficit to make up by its deadline, or not established). */
function balanceFinding(b: BalanceIn): Finding {
  if (b.amount === null) return sealFinding('BALANCE_NOT_ESTABLISHED', message('finding.BALANCE_NOT_ESTABLISHED.year', { year: b.fromYear, communicatedOn: b.communicatedOn }));
  const key = b.amount.gte(0) ? 'finding.BALANCE_BROUGHT_IN.surplus' : 'finding.BALANCE_BROUGHT_IN.deficit';
  return sealFinding('BALANCE_BROUGHT_IN', message(key, { year: b.fromYear, communicatedOn: b.communicatedOn, amount: b.amount.abs().toFixed(2), deadline: b.deadline }));
}
