import { Decimal, toCentavos, toShare, ZERO } from './decimal';
import { CountedItem, SealComplianceResult } from './seal-year';
import { SealBaseRule, SealComplianceModel } from './types';

/** A Selo year's figures as shown (docs/LAW.md): money to the centavo, shares half-even to 6 decimals. */

/** Money shown to the centavo, half-even (ABNT NBR 5891). */
export const money = toCentavos;

/**
 * Reais still to spend, shown to the centavo rounded up: spending the amount shown always reaches
 * the minimum (half-even could show a centavo less than needed).
 */
export function shortfallShown(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_CEIL);
}

/**
 * The counted items as shown: groups whose shown facts are all the same (source, kind, region,
 * product, organization share, parameters, factors and findings) merged, summed unrounded and
 * rounded once; purchases first.
 */
export function itemsShown(items: readonly CountedItem[]) {
  const merged = new Map<string, CountedItem>();
  for (const i of items) {
    // The factors are not in the key: they follow from the source, place, product, organization
    // share and day (seal-weighting.ts, appliedFactors), which are.
    const key = [
      i.source, i.kind, i.place.region, i.place.semiarid, i.product, i.organizationShare?.toFixed(), i.on, i.weight?.toFixed(), i.findings.map((f) => f.code).join(','),
    ].join('|');
    const m = merged.get(key);
    merged.set(key, m ? { ...m, count: m.count + i.count, actual: m.actual.plus(i.actual), weighted: m.weighted && i.weighted && m.weighted.plus(i.weighted) } : i);
  }
  return [...merged.values()]
    .sort((a, b) => (a.source === b.source ? 0 : a.source === 'PURCHASE' ? -1 : 1))
    .map((i) => ({
      source: i.source === 'FOMENTO' ? 'FOMENTO_EXPENSE' as const : 'PURCHASE' as const, kind: i.kind, count: i.count, region: i.place.region,
      semiarid: i.place.semiarid, priorityRegion: i.priorityRegion, product: i.product, organizationShare: i.organizationShare && toShare(i.organizationShare),
      from: i.on, actual: money(i.actual), factors: i.factors, weight: i.weight, weighted: i.weighted && money(i.weighted), findings: i.findings,
    }));
}

/** COMPLIANT, NOT_COMPLIANT; while a requirement is unknown, INCOMPLETE when items await a factor, else NOT_ESTABLISHED. */
function statusOf(r: SealComplianceResult): 'COMPLIANT' | 'NOT_COMPLIANT' | 'INCOMPLETE' | 'NOT_ESTABLISHED' {
  if (r.compliant !== null) return r.compliant ? 'COMPLIANT' : 'NOT_COMPLIANT';
  return r.awaitingFactor.gt(0) ? 'INCOMPLETE' : 'NOT_ESTABLISHED';
}

/**
 * The figures as shown: money to the centavo, shares half-even to 6 decimals. What is not known
 * reads null, never 0 or false: requiredShare, shortfall and compliant while the minimum is not
 * published, an item's weighted value while a factor of it is not; `status` says which.
 */
export function present(r: SealComplianceResult) {
  const m = r.minimumShare;
  const p = r.priorityRegion;
  return {
    year: r.year,
    asKnownOn: r.asKnownOn,
    model: r.model,
    modelLegalBasis: r.modelLegalBasis,
    salesRevenue: money(r.salesRevenue),
    exportedValue: money(r.exportedValue),
    // Interpretation: the statement adds up as shown (docs/LAW.md, "parts add up to the total"):
    // exportedValue is rounded half-even and the base shown is salesRevenue − exportedValue as shown.
    base: money(r.gross).minus(money(r.exportedValue)),
    baseRule: r.rule,
    rawMaterialAcquisitions: r.rule === SealBaseRule.RAW_MATERIAL_ACQUISITIONS ? money(r.gross) : null,
    familyFarmingAcquisitions: money(r.familyFarmingAcquisitions),
    otherProductAcquisitions: money(r.otherProductAcquisitions),
    fomento: money(r.fomento),
    actualTotal: money(r.actualTotal),
    countedTotal: money(r.countedTotal),
    priorityRegionAmount: money(r.priorityRegionAmount),
    achievedShare: toShare(r.achievedShare),
    requiredShare: m.requiredShare.value && toShare(m.requiredShare.value),
    requiredShareLegalBasis: m.requiredShare.legalBasis,
    shortfall: m.shortfall && shortfallShown(m.shortfall),
    priorityRegionShare: toShare(p.share),
    requiredPriorityRegionShare: toShare(p.requiredShare?.value ?? ZERO),
    requiredPriorityRegionShareLegalBasis: p.requiredShare?.legalBasis ?? NO_PRIORITY_REGION_MINIMUM,
    minimumShareMet: m.met,
    priorityRegionShareMet: p.met,
    compliant: r.compliant,
    status: statusOf(r),
    minimumShare: {
      requiredShare: m.requiredShare.value && toShare(m.requiredShare.value),
      legalBasis: m.requiredShare.legalBasis,
      achievedShare: toShare(m.achievedShare),
      weightedTotal: money(r.countedTotal),
      awaitingFactor: money(r.awaitingFactor),
      weightedTotalComplete: r.awaitingFactor.isZero(),
      requiredAmount: m.requiredAmount && money(m.requiredAmount),
      balanceIn: m.balanceIn && money(m.balanceIn),
      shortfall: m.shortfall && shortfallShown(m.shortfall),
      compliant: m.met,
    },
    balance: r.model === SealComplianceModel.FLAT ? null : {
      broughtIn: r.balance.broughtIn.map((b) => ({ ...b, amount: b.amount && money(b.amount) })),
      carriedOut: r.balance.carriedOut ? { ...r.balance.carriedOut, amount: r.balance.carriedOut.amount && money(r.balance.carriedOut.amount) } : null,
      legalBasis: BALANCE_BASIS,
    },
    priorityRegion: {
      requiredShare: p.requiredShare && toShare(p.requiredShare.value),
      legalBasis: p.requiredShare?.legalBasis ?? NO_PRIORITY_REGION_MINIMUM,
      share: toShare(p.share),
      amount: money(r.priorityRegionAmount),
      actualTotal: money(r.actualTotal),
      shortfall: shortfallShown(p.shortfall),
      compliant: p.met,
    },
    technicalAssistance: r.technicalAssistance && { compliant: r.technicalAssistance.met, contractIds: r.technicalAssistance.contractIds, legalBasis: TECHNICAL_ASSISTANCE_BASIS },
    spending: itemsShown(r.items),
    findings: r.findings,
  };
}

/** Requirement 2 before 2024: none (Portaria Interministerial MME/MDA nº 2/2023 starts with 2024). */
export const NO_PRIORITY_REGION_MINIMUM = 'Portaria Interministerial MME/MDA nº 2/2023: no minimum before 2024';
/** Balances of the evaluation (weighted model). */
export const BALANCE_BASIS = 'Portaria MDA nº 28/2024, art. 58';
/** Requirement 3: the producer's obligation from 2024. */
export const TECHNICAL_ASSISTANCE_BASIS = 'Decreto 10.527/2020, art. 3º §2º III; Portaria MDA nº 28/2024, arts. 15–16';
