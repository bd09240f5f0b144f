import { Version } from './dated';
import { IsoDate } from './dates';
import { Decimal, ONE, sum, toShare, ZERO } from './decimal';
import { NoRuleInForceError } from './errors';
import { Finding } from './findings';
import { LawBook, PlantLocation, SpendingKind } from './law-book';
import type { BalanceIn, BalanceOut, SealEvaluation } from './seal-balance';
import {
  Base, baseRuleOf, decideFomentoGroup, decidePurchaseGroup, FomentoGroup, GroupDecision, Place, PurchaseGroup, SalesTotals, sealBase, sealFinding, sealWordingOf, targetDay,
} from './seal-spending';
import { Feedstock, SealBaseRule, SealComplianceModel, SealWeightingFactor } from './types';
import { message } from './message';

// A Selo year's result under the flat model (Portaria MAPA 144/2019, secondary): years to 2023 and
// 2024 as known before 2024-06-28; requirement 2 (Portaria MME/MDA 2/2023) for both models.

export interface ExcludedGroup {
  key: string;
  source: 'PURCHASE' | 'FOMENTO';
  findings: Finding[];
}

export interface SealComplianceFacts {
  year: number;
  asKnownOn: IsoDate;
  plant: PlantLocation;
  sales: SalesTotals;
  purchases: PurchaseGroup[];
  fomento: FomentoGroup[];
  /** Art. 58 (weighted model): the balances of earlier evaluations that count toward this year. */
  balancesIn?: BalanceIn[];
  /** Art. 58: this year's evaluation, when recorded as communicated (and known on asKnownOn). */
  evaluation?: SealEvaluation | null;
}

/** One factor applied to an item (Portaria MDA nº 28/2024, p. 40). */
export interface AppliedFactor {
  factor: SealWeightingFactor;
  /** The alínea: a … f. */
  alinea: string;
  /** Null while the factor is known to apply but its figure is not published (alínea a): the item is weighed without it. */
  value: Decimal | null;
  legalBasis: string;
}

/** A counted group of spending as weighed: its actual value, each factor applied and its weighted value. */
export interface CountedItem {
  key: string;
  source: 'PURCHASE' | 'FOMENTO';
  kind: SpendingKind;
  count: number;
  /** Where the spending was (origin municipality of an acquisition, municipality of fomento), on its date. */
  place: Place;
  product: Feedstock | null;
  /** Of an acquisition from an organization: its family-farmer members / members. */
  organizationShare: Decimal | null;
  /** First day of the run of days whose factors apply. */
  on: IsoDate;
  actual: Decimal;
  /** The weighted model's factors (empty in the flat model, whose single factor is `weight`). */
  factors: AppliedFactor[];
  /** Product of the factors (1 when none applies); null while one has no published figure (alínea a). */
  weight: Decimal | null;
  /** actual × weight; null while the weight is. */
  weighted: Decimal | null;
  priorityRegion: boolean;
  /** Findings that do not exclude it (PURCHASE_BELOW_MINIMUM_PRICE, WEIGHTING_FACTOR_NOT_PUBLISHED). */
  findings: Finding[];
}

/** Requirement 1: weighted (or counted) spending / base ≥ the minimum share. */
export interface MinimumShareRequirement {
  /** The minimum in force on 31 December of the year; its value null while not published (weighted model). */
  requiredShare: Version<Decimal | null>;
  achievedShare: Decimal;
  /** requiredShare × base in (weighted) reais; null while the minimum is not published. */
  requiredAmount: Decimal | null;
  /** Art. 58: the balances brought in, summed (a surplus counts toward the minimum, a deficit adds to it); null while one is unknown. */
  balanceIn: Decimal | null;
  /** requiredAmount − counted spending − balanceIn, at least 0; null while the minimum (or a balance) is not known. */
  shortfall: Decimal | null;
  /** Null while the minimum is not published (MINIMUM_NOT_PUBLISHED). */
  met: boolean | null;
}

/** Requirement 2 (Portaria Interministerial MME/MDA nº 2/2023): actual spending in the priority region / actual total. */
export interface PriorityRegionRequirement {
  /** The year's minimum; null before 2024 (no such requirement). */
  requiredShare: Version<Decimal> | null;
  share: Decimal;
  /** Actual reais still to spend in the priority region to reach it (with nothing else spent); 0 when met. */
  shortfall: Decimal;
  met: boolean;
}

/** Requirement 3 (art. 3º §2º III), from 2024 the producer's obligation: the contracts of the year without technical assistance. */
export interface TechnicalAssistanceRequirement {
  contractIds: string[];
  met: boolean;
}

/** Unrounded figures; `present` rounds them for display. */
export interface SealComplianceResult extends Base {
  year: number;
  asKnownOn: IsoDate;
  model: SealComplianceModel;
  /** The act the model rests on. */
  modelLegalBasis: string;
  /** Counted (a), (b), (c). Interpretation: shown before weighting (what was spent). */
  familyFarmingAcquisitions: Decimal;
  otherProductAcquisitions: Decimal;
  fomento: Decimal;
  /** (a) + (b) + (c) as spent (actual, unweighted). */
  actualTotal: Decimal;
  /** (a) + (b) + (c), each times its weighting factors; items whose weight awaits a factor are not in it. */
  countedTotal: Decimal;
  /** Actual value of the counted items whose weight awaits a factor not published (alínea a): countedTotal is incomplete by them. */
  awaitingFactor: Decimal;
  /** The actual spending in the North, Northeast and Semiárido (requirement 2). */
  priorityRegionAmount: Decimal;
  achievedShare: Decimal;
  minimumShare: MinimumShareRequirement;
  priorityRegion: PriorityRegionRequirement;
  /** Null in the flat model (the contract's technical assistance then decides whether its purchases count). */
  technicalAssistance: TechnicalAssistanceRequirement | null;
  /** Every requirement met: true; one not met: false; otherwise null (a minimum not published). */
  compliant: boolean | null;
  items: CountedItem[];
  excluded: ExcludedGroup[];
  findings: Finding[];
  /** Art. 58 (weighted model): the balances brought in and the year's own balance leaving it (undefined where the year's does not carry). */
  balance: { broughtIn: BalanceIn[]; carriedOut: BalanceOut | undefined };
}


/**
 * docs/LAW.md (computed unrounded): the spending a share of the base requires divides last,
 * share × revenue × (volume − exported) / volume, never share × a 34-digit base; a threshold that
 * is a round sum (15% of 160.520 × 1/3 = 8.026,00) is then met by spending exactly that sum.
 */
export function requiredSpending(share: Decimal, sales: SalesTotals, base: Base): Decimal {
  if (base.base.lte(0)) return ZERO;
  const { ownVolume, exportedVolume } = sales;
  if (base.rule === SealBaseRule.DOMESTIC_SALES || ownVolume.isZero()) return share.times(base.base);
  return share.times(base.gross).times(ownVolume.minus(exportedVolume)).div(ownVolume);
}

/** Portaria Interministerial MME/MDA nº 2/2023: the year's minimum priority-region part, null before 2024 (none in force). */
export function priorityRegionMinimum(law: LawBook, year: number, asKnownOn: IsoDate): Version<Decimal> | null {
  try {
    return law.priorityRegionMinShare(targetDay(year), asKnownOn);
  } catch (error) {
    if (error instanceof NoRuleInForceError) return null;
    throw error;
  }
}

/**
 * Requirement 2: actual priority-region spending / actual total ≥ the minimum; shortfall
 * x = (S × T − P) / (1 − S). None before 2024; nothing counted → met (NO_COUNTED_SPENDING).
 */
export function priorityRegionRequirement(required: Version<Decimal> | null, priority: Decimal, total: Decimal): PriorityRegionRequirement {
  const share = total.isZero() ? ZERO : priority.div(total);
  if (!required || total.isZero()) return { requiredShare: required, share, shortfall: ZERO, met: true };
  const met = share.gte(required.value);
  const s = required.value;
  const shortfall = met || s.gte(1) ? ZERO : s.times(total).minus(priority).div(ONE.minus(s));
  return { requiredShare: required, share, shortfall: met ? ZERO : shortfall, met };
}

/** The year-level findings of requirements 1 and 2 (both models). */
export function requirementFindings(
  year: number, r: Pick<SealComplianceResult, 'achievedShare' | 'minimumShare' | 'priorityRegion' | 'model'>, zeroBase: boolean, nothingCounted: boolean,
): Finding[] {
  const findings: Finding[] = [];
  if (zeroBase) findings.push(sealFinding('ZERO_BASE'));
  if (nothingCounted) findings.push(sealFinding('NO_COUNTED_SPENDING'));
  const { requiredShare } = r.minimumShare;
  if (r.minimumShare.met === false && requiredShare.value) {
    const key = r.model === SealComplianceModel.WEIGHTED ? 'finding.MINIMUM_SHARE_NOT_REACHED.weighted' : 'finding.MINIMUM_SHARE_NOT_REACHED.share';
    findings.push(sealFinding('MINIMUM_SHARE_NOT_REACHED', message(key, {
      share: toShare(r.achievedShare).toFixed(), minimum: requiredShare.value.toFixed(), legalBasis: requiredShare.legalBasis,
    })));
  }
  const p = r.priorityRegion;
  if (!p.met && p.requiredShare) {
    findings.push(sealFinding('PRIORITY_REGION_SHARE_NOT_REACHED', message('finding.PRIORITY_REGION_SHARE_NOT_REACHED.share', {
      share: toShare(p.share).toFixed(), minimum: p.requiredShare.value.toFixed(), year, legalBasis: p.requiredShare.legalBasis,
    })));
  }
  return findings;
}

/** Every requirement met: true; one not met: false; none failing but one unknown: null. */
export function verdict(...met: Array<boolean | null>): boolean | null {
  if (met.some((m) => m === false)) return false;
  return met.some((m) => m === null) ? null : true;
}

/**
 * Flat model (art. 3º §2º I, §3º): counted / base ≥ the region's minimum, plus requirement 2 from
 * 2024; unrounded comparisons. A zero base → share 0, requirement 1 met (ZERO_BASE).
 */
export function flatSealCompliance(facts: SealComplianceFacts, law: LawBook): SealComplianceResult {
  const { year, asKnownOn } = facts;
  const wording = sealWordingOf(law, year, asKnownOn);
  const base = sealBase(facts.sales, baseRuleOf(wording.wording, false));
  const requiredShare = law.minimumSpendingShare(facts.plant, targetDay(year), asKnownOn);

  const counted: Record<SpendingKind, Decimal[]> = { FAMILY_FARMING_ACQUISITION: [], OTHER_PRODUCT: [], FOMENTO: [] };
  const items: CountedItem[] = [];
  const excluded: ExcludedGroup[] = [];
  const take = (key: string, source: ExcludedGroup['source'], g: PurchaseGroup | FomentoGroup, place: Place, d: GroupDecision) => {
    if (!d.counts) {
      excluded.push({ key, source, findings: d.findings });
      return;
    }
    counted[d.kind].push(g.amount);
    items.push({
      key, source, kind: d.kind, count: g.count, place, product: 'product' in g ? g.product ?? null : null, organizationShare: null, on: g.segment.from,
      actual: g.amount, factors: [], weight: g.amount.isZero() ? ONE : d.weighted.div(g.amount), weighted: d.weighted, priorityRegion: d.priorityRegion, findings: [],
    });
  };
  for (const g of facts.purchases) take(g.key, 'PURCHASE', g, g.origin, decidePurchaseGroup(g, law, asKnownOn));
  for (const g of facts.fomento) take(g.key, 'FOMENTO', g, g.place, decideFomentoGroup(g, law, asKnownOn));

  const countedTotal = sum(items.map((i) => i.weighted as Decimal));
  const actualTotal = sum(items.map((i) => i.actual));
  const priorityRegionAmount = sum(items.filter((i) => i.priorityRegion).map((i) => i.actual));

  const zeroBase = base.base.lte(0);
  const achievedShare = zeroBase ? ZERO : countedTotal.div(base.base);
  const required = requiredSpending(requiredShare.value, facts.sales, base);
  const met = zeroBase || countedTotal.gte(required);
  const minimumShare: MinimumShareRequirement = { requiredShare, achievedShare, requiredAmount: required, balanceIn: ZERO, shortfall: met ? ZERO : required.minus(countedTotal), met };
  const priorityRegion = priorityRegionRequirement(priorityRegionMinimum(law, year, asKnownOn), priorityRegionAmount, actualTotal);
  return {
    year,
    asKnownOn,
    model: SealComplianceModel.FLAT,
    modelLegalBasis: `${wording.version.legalBasis}; ${requiredShare.legalBasis}`,
    ...base,
    familyFarmingAcquisitions: sum(counted.FAMILY_FARMING_ACQUISITION),
    otherProductAcquisitions: sum(counted.OTHER_PRODUCT),
    fomento: sum(counted.FOMENTO),
    actualTotal,
    countedTotal,
    awaitingFactor: ZERO,
    priorityRegionAmount,
    achievedShare,
    minimumShare,
    priorityRegion,
    technicalAssistance: null,
    compliant: verdict(minimumShare.met, priorityRegion.met),
    items,
    excluded,
    findings: requirementFindings(year, { achievedShare, minimumShare, priorityRegion, model: SealComplianceModel.FLAT }, zeroBase, actualTotal.isZero()),
    balance: { broughtIn: [], carriedOut: undefined },
  };
}
