import { Version } from './dated';
import { IsoDate } from './dates';
import { Decimal, ONE, sum, toShare, ZERO } from './decimal';
import { NoRuleInForceError } from './errors';
import { Finding } from './findings';
import { LawBook, PlantLocation, SpendingKind } from './law-book';
import type { BalanceIn, BalanceOut, SealEvaluation } from './seal-balance';
import {
  Base, baseRuleOf, contractsWithoutTechnicalAssistance, decideFomentoGroup, decidePurchaseGroup, FomentoGroup, GroupDecision, Place, PurchaseGroup, SalesTotals, sealBase, sealFinding,
  sealWordingOf, targetDay, technicalAssistanceFinding,
} from './seal-spending';
import { Feedstock, SealBaseRule, SealComplianceModel, SealWeightingFactor } from './types';
import { message } from './message';

// Flat model (Portaria MAPA 144/2019); requirement 2 (Portaria MME/MDA 2/2023) for both models.

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
  /** Art. 58 (weighted model). */
  balancesIn?: BalanceIn[];
  /** Art. 58: when recorded as communicated. */
  evaluation?: SealEvaluation | null;
}

/** One factor applied to an item (Portaria MDA nº 28/2024, p. 40). */
export interface AppliedFactor {
  factor: SealWeightingFactor;
  alinea: string;
  /** Null while unpublished (alínea a). */
  value: Decimal | null;
  legalBasis: string;
}

export interface CountedItem {
  key: string;
  source: 'PURCHASE' | 'FOMENTO';
  kind: SpendingKind;
  count: number;
  place: Place;
  product: Feedstock | null;
  organizationShare: Decimal | null;
  on: IsoDate;
  actual: Decimal;
  /** Empty in the flat model. */
  factors: AppliedFactor[];
  /** Null while a factor is unpublished (alínea a). */
  weight: Decimal | null;
  weighted: Decimal | null;
  priorityRegion: boolean;
  /** Findings that do not exclude it. */
  findings: Finding[];
}

/** Requirement 1. */
export interface MinimumShareRequirement {
  requiredShare: Version<Decimal | null>;
  achievedShare: Decimal;
  requiredAmount: Decimal | null;
  /** Art. 58: a surplus counts toward the minimum, a deficit adds to it. */
  balanceIn: Decimal | null;
  shortfall: Decimal | null;
  met: boolean | null;
}

/** Requirement 2 (Portaria Interministerial MME/MDA nº 2/2023), on actual spending. */
export interface PriorityRegionRequirement {
  /** Null before 2024. */
  requiredShare: Version<Decimal> | null;
  share: Decimal;
  shortfall: Decimal;
  met: boolean;
}

/** Requirement 3 (art. 3º §2º III), the producer's from 2024. */
export interface TechnicalAssistanceRequirement {
  contractIds: string[];
  met: boolean;
}

/** Unrounded figures; `present` rounds them for display. */
export interface SealComplianceResult extends Base {
  year: number;
  asKnownOn: IsoDate;
  model: SealComplianceModel;
  modelLegalBasis: string;
  /** Counted (a), (b), (c). Interpretation: shown before weighting (what was spent). */
  familyFarmingAcquisitions: Decimal;
  otherProductAcquisitions: Decimal;
  fomento: Decimal;
  actualTotal: Decimal;
  /** Without items whose weight awaits a factor. */
  countedTotal: Decimal;
  /** What countedTotal lacks (alínea a). */
  awaitingFactor: Decimal;
  priorityRegionAmount: Decimal;
  achievedShare: Decimal;
  minimumShare: MinimumShareRequirement;
  priorityRegion: PriorityRegionRequirement;
  /** Null in the flat model, where a contract without it is a finding of the year only. */
  technicalAssistance: TechnicalAssistanceRequirement | null;
  compliant: boolean | null;
  items: CountedItem[];
  excluded: ExcludedGroup[];
  findings: Finding[];
  /** Art. 58 (weighted model). */
  balance: { broughtIn: BalanceIn[]; carriedOut: BalanceOut | undefined };
}


/** Divides last, so a round threshold is met by spending exactly it (docs/LAW.md). */
export function requiredSpending(share: Decimal, sales: SalesTotals, base: Base): Decimal {
  if (base.base.lte(0)) return ZERO;
  const { ownVolume, exportedVolume } = sales;
  if (base.rule === SealBaseRule.DOMESTIC_SALES || ownVolume.isZero()) return share.times(base.base);
  return share.times(base.gross).times(ownVolume.minus(exportedVolume)).div(ownVolume);
}

/** Portaria Interministerial MME/MDA nº 2/2023; null before 2024. */
export function priorityRegionMinimum(law: LawBook, year: number, asKnownOn: IsoDate): Version<Decimal> | null {
  try {
    return law.priorityRegionMinShare(targetDay(year), asKnownOn);
  } catch (error) {
    if (error instanceof NoRuleInForceError) return null;
    throw error;
  }
}

/** Shortfall x = (S × T − P) / (1 − S); nothing counted → met (NO_COUNTED_SPENDING). */
export function priorityRegionRequirement(required: Version<Decimal> | null, priority: Decimal, total: Decimal): PriorityRegionRequirement {
  const share = total.isZero() ? ZERO : priority.div(total);
  if (!required || total.isZero()) return { requiredShare: required, share, shortfall: ZERO, met: true };
  const met = share.gte(required.value);
  const s = required.value;
  const shortfall = met || s.gte(1) ? ZERO : s.times(total).minus(priority).div(ONE.minus(s));
  return { requiredShare: required, share, shortfall: met ? ZERO : shortfall, met };
}

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

/** Null when none fails but one is unknown. */
export function verdict(...met: Array<boolean | null>): boolean | null {
  if (met.some((m) => m === false)) return false;
  return met.some((m) => m === null) ? null : true;
}

/** Art. 3º §2º I, §3º, unrounded; a zero base meets requirement 1 (ZERO_BASE). */
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
      actual: g.amount, factors: [], weight: g.amount.isZero() ? ONE : d.weighted.div(g.amount), weighted: d.weighted, priorityRegion: d.priorityRegion, findings: d.warnings,
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
    // Art. 3º §2º III: the producer's obligation, a finding of the year; the flat model's verdict is
    // requirement 1's (and 2's) alone (Interpretation, docs/LAW.md).
    findings: [
      ...requirementFindings(year, { achievedShare, minimumShare, priorityRegion, model: SealComplianceModel.FLAT }, zeroBase, actualTotal.isZero()),
      ...technicalAssistanceFinding(contractsWithoutTechnicalAssistance(facts.purchases)),
    ],
    balance: { broughtIn: [], carriedOut: undefined },
  };
}
