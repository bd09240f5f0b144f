// The monthly PIS/Pasep and Cofins, pure (Lei 11.116/2005 arts. 3º–5º; Decreto 10.527/2020
// arts. 5º–6º); the modules follow the computation: segments, blend, period, imports, fuel taxes.
export * from './types';
export { taxSegments } from './segments';
export { costWeightedBlend, ownProductionValuation } from './blend';
export type { CoefficientRules, SegmentBlend, Valuation } from './blend';
export { computeTaxPeriod, needsEarlierFeedstock, usesRawMaterial } from './period';
export { importContributions, importReads } from './imports';
export { publicationDateFindings } from './publication';
export { fuelTaxes } from './fuel-taxes';
export { saleGroups } from './sales';
export type { SaleRowFacts } from './sales';
export { blendRuleBasis, explainSegment, explainSnapshot, periodName, regimeBasis } from './explanation';
export type { BlendFacts } from './explanation';
export { completeSnapshot, figureDifferences, figuresFromJson } from './snapshot';
export type { FigureDifference } from './snapshot';
