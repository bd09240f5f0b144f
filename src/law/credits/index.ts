/**
 * Lei 10.637/2002 and Lei 10.833/2003, art. 3º; Lei 10.865/2004, art. 15; Lei 12.865/2013, art. 31;
 * Lei 11.116/2005, art. 16; LC 214/2025, arts. 47, 168, 180 and 378. Pure.
 */
export * from './types';
export { CBS_FROM, cbsCredit, monthCbsCredits } from './cbs-credit';
export type { CbsCreditFacts } from './cbs-credit';
export { productOfFeedstock, purchaseCredit, supplierOfKind } from './purchase-credit';
export { mergeReversals, monthCredits, originReversals, presumedCredit } from './month-credits';
export type { MonthCredits, MonthCreditsInput, PresumedCreditPart, RevenuePart } from './month-credits';
export { applyClaim, claimProblem, ClaimError, foldNet, monthsBetween, OFFSET_IN_QUARTER_CODES, REFUNDABLE_CODES, refundableFrom } from './balances';
export type { ClaimIssue, ClaimReason, FoldState, MonthNet, NetMonthInput } from './balances';
export { balanceDifferences } from './filed';
export type { FiledBalances } from './filed';
