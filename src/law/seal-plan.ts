import { IsoDate } from './dates';
import { Decimal, ZERO } from './decimal';
import { LawBook, SpendingKind } from './law-book';
import { AppliedFactor, SealComplianceResult } from './seal-year';
import { NO_PRIORITY_REGION_MINIMUM } from './seal-presentation';
import { weightOf } from './seal-weighting';
import { FACTOR_ALINEA, LeverRegion, SealComplianceModel, SealWeightingFactor as F } from './types';

export { LeverRegion };

// What closes a Selo year's shortfall (docs/LAW.md, `sealPlan`): per lever (region × diversified ×
// via an organization, and fomento), the actual spending that alone closes requirement 1, 2 or both.

export interface Lever {
  kind: 'ACQUISITION' | 'FOMENTO';
  region: LeverRegion;
  /** Acquisitions: diversified raw material (factor f) or not (soybeans, soybean oil, live animals); null for fomento. */
  diversified: boolean | null;
  /** Acquisitions: via an organization with up to 75% family-farmer members (factor b) or from family farmers; null for fomento. */
  viaOrganizationUpTo75: boolean | null;
  factors: AppliedFactor[];
  weight: Decimal;
  /** Actual reais that alone reach requirement 1, rounded up to the centavo; 0 when met; null while the minimum (or a balance) is not known. */
  closesMinimumShare: Decimal | null;
  /** Actual reais that alone reach requirement 2, rounded up; 0 when met; null when this lever cannot (outside the priority region). */
  closesPriorityRegion: Decimal | null;
  /** Actual reais that alone reach both; null when this lever cannot or requirement 1 is not known. */
  closesBoth: Decimal | null;
}

/** Reais to spend, rounded up to the centavo: spending the amount shown always reaches the target. */
const up = (value: Decimal) => value.toDecimalPlaces(2, Decimal.ROUND_CEIL);

/** The factors of a lever under the weighted model (§2º: a, b, d, e, f multiply; c alone). */
function leverFactors(kind: Lever['kind'], region: LeverRegion, diversified: boolean | null, viaOrganization: boolean | null): F[] {
  if (kind === 'FOMENTO') return [F.FOMENTO_PRIORITY_REGION];
  const factors: F[] = [];
  if (viaOrganization) factors.push(F.ORGANIZATION_UP_TO_75);
  if (region === LeverRegion.PRIORITY_REGION) factors.push(F.ACQUISITION_PRIORITY_REGION);
  if (region === LeverRegion.CENTER_WEST_SOUTHEAST) factors.push(F.ACQUISITION_CENTER_WEST_SOUTHEAST);
  if (diversified) factors.push(F.DIVERSIFIED_RAW_MATERIAL);
  return factors;
}

/** Every lever, in a fixed order: acquisitions by region, diversified or not, via an organization or not; then fomento. */
export function leverShapes(): Array<Pick<Lever, 'kind' | 'region' | 'diversified' | 'viaOrganizationUpTo75'>> {
  const shapes: Array<Pick<Lever, 'kind' | 'region' | 'diversified' | 'viaOrganizationUpTo75'>> = [];
  for (const region of Object.values(LeverRegion)) {
    for (const diversified of [true, false]) {
      for (const viaOrganizationUpTo75 of [true, false]) shapes.push({ kind: 'ACQUISITION', region, diversified, viaOrganizationUpTo75 });
    }
  }
  shapes.push({ kind: 'FOMENTO', region: LeverRegion.PRIORITY_REGION, diversified: null, viaOrganizationUpTo75: null });
  return shapes;
}

/**
 * Levers at the factors in force on `on`: requirement 1 needs W / weight; requirement 2 needs
 * x = (S × T − P) / (1 − S) in the region. Interpretation: a lever is spending that counts
 * (eligible supplier, conforming contract).
 */
export function planLevers(r: SealComplianceResult, law: LawBook, on: IsoDate): Lever[] {
  const W = r.minimumShare.shortfall;
  const p = r.priorityRegion;
  const S = p.requiredShare?.value ?? null;
  const x = p.shortfall;
  return leverShapes().map((shape) => {
    let factors: AppliedFactor[] = [];
    let weight: Decimal;
    if (r.model === SealComplianceModel.WEIGHTED) {
      factors = leverFactors(shape.kind, shape.region, shape.diversified, shape.viaOrganizationUpTo75).flatMap((factor) => {
        const v = law.sealWeightingFactor(factor, on, r.asKnownOn);
        return v ? [{ factor, alinea: FACTOR_ALINEA[factor], value: v.value, legalBasis: v.legalBasis }] : [];
      });
      const w = weightOf(factors);
      if (!w) throw new Error('A lever weighs only with published factors (b, c, d, e, f)');
      weight = w;
    } else {
      const kind: SpendingKind = shape.kind === 'FOMENTO' ? 'FOMENTO' : 'FAMILY_FARMING_ACQUISITION';
      weight = law.weightingFactor(kind, on, r.asKnownOn).value;
    }
    const closesMinimumShare = W === null ? null : weight.isZero() ? (W.isZero() ? ZERO : null) : up(W.div(weight));
    const inPriority = shape.region === LeverRegion.PRIORITY_REGION;
    const closesPriorityRegion = inPriority ? up(x) : x.isZero() ? ZERO : null;
    let closesBoth: Decimal | null = null;
    if (closesMinimumShare !== null && closesPriorityRegion !== null) {
      if (inPriority) closesBoth = Decimal.max(closesMinimumShare, closesPriorityRegion);
      else {
        // Spending y outside the region lowers the priority share: it must stay at S or above.
        const total = r.actualTotal.plus(closesMinimumShare);
        const stillMet = S === null || total.isZero() || r.priorityRegionAmount.div(total).gte(S);
        closesBoth = stillMet ? closesMinimumShare : null;
      }
    }
    return { ...shape, factors, weight, closesMinimumShare, closesPriorityRegion, closesBoth };
  });
}

/** The shortfalls of a year's plan: requirement 1 in weighted reais, requirement 2 in actual reais. */
export function planShortfalls(r: SealComplianceResult) {
  return {
    minimumShare: { weighted: r.minimumShare.shortfall && up(r.minimumShare.shortfall), actual: null, met: r.minimumShare.met, legalBasis: r.minimumShare.requiredShare.legalBasis },
    priorityRegion: {
      weighted: null, actual: up(r.priorityRegion.shortfall), met: r.priorityRegion.met as boolean | null,
      legalBasis: r.priorityRegion.requiredShare?.legalBasis ?? NO_PRIORITY_REGION_MINIMUM,
    },
  };
}
