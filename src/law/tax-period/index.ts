/**
 * The monthly PIS/Pasep and Cofins of a biodiesel producer (Lei 11.116/2005, arts. 3º–5º; Decreto
 * 10.527/2020, arts. 5º–6º; docs/LAW.md), pure:
 * - `types.ts`: the month's aggregates as the service hands them over, the figures shown;
 * - `segments.ts`: the runs of days over which the rules and the Selo standing do not change;
 * - `blend.ts`: art. 6º §4º (own production's valuation) and §3º (the cost-weighted blend);
 * - `period.ts`: the month assembled, segment by segment, under either regime;
 * - `imports.ts`: the imports' PIS/Pasep-Importação and Cofins-Importação (art. 5º §1º, §3º);
 * - `fuel-taxes.ts`: from 2027, the single-phase taxes on fuels (LC 214/2025, arts. 172–175);
 * - `explanation.ts`: the provisions a segment applied, the regime's basis;
 * - `snapshot.ts`: a closed month's figures read back and compared with a recomputation.
 */
export * from './types';
export { taxSegments } from './segments';
export { costWeightedBlend, ownProductionValuation } from './blend';
export type { CoefficientRules, SegmentBlend, Valuation } from './blend';
export { computeTaxPeriod, needsEarlierFeedstock } from './period';
export { importContributions } from './imports';
export { fuelTaxes } from './fuel-taxes';
export { blendRuleBasis, explainSegment, explainSnapshot, periodName, regimeBasis } from './explanation';
export type { BlendFacts } from './explanation';
export { completeSnapshot, figureDifferences, figuresFromJson } from './snapshot';
export type { FigureDifference } from './snapshot';
