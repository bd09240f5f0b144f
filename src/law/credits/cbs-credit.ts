import { IsoDate } from '../dates';
import { Decimal, sum, toCentavos } from '../decimal';
import { LawBook } from '../law-book';
import { CbsCredit, CbsCreditKind, CreditProduct, CreditStatus, CreditSupplier } from './types';

/** The first day of the CBS (EC 132/2023, ADCT art. 126, I–II; LC 214/2025, art. 343): purchases before it give no CBS credit. */
export const CBS_FROM: IsoDate = '2027-01-01';

/** The facts of one purchase that its CBS credit reads (or of a return, negative, on its day). */
export interface CbsCreditFacts {
  purchaseId: string;
  /** The day the credit is taken (a return's, the day of the return). */
  on: IsoDate;
  /** The day of the acquisition, whose rules apply (a return's reversal included); `on` when absent. */
  purchasedOn?: IsoDate;
  supplier: CreditSupplier | null;
  product: CreditProduct | null;
  cost: Decimal | null;
  /** The CBS on the acquisition as its electronic invoice states it (vCBS); null: not recorded. */
  cbsValue: Decimal | null;
}

const ACQUISITION_BASIS = 'LC 214/2025, art. 47';
const PRESUMED_BASIS = 'LC 214/2025, art. 168 (with art. 164)';

/**
 * The CBS credit of one purchase from 2027 (LC 214/2025): the CBS its invoice states (art. 47), none
 * on fuel for resale (art. 180), or art. 168's presumed credit on a natural person's lot at the
 * published `cbs-presumed-credit`. A fact not recorded is awaited, never assumed (docs/LAW.md).
 */
export function cbsCredit(f: CbsCreditFacts, law: LawBook, asKnownOn: IsoDate): CbsCredit {
  const result = (status: CreditStatus, over: Partial<CbsCredit> & { legalBasis: string }): CbsCredit => ({
    purchaseId: f.purchaseId, on: f.on, status, kind: null, reason: null, awaiting: null, base: null, rate: null, amount: null, ...over,
  });
  if (f.product === CreditProduct.B100_FOR_RESALE) return result(CreditStatus.NO_CREDIT, { reason: 'FUEL_FOR_RESALE', legalBasis: 'LC 214/2025, art. 180 caput' });
  const fuel = f.product === CreditProduct.FUEL_INPUT ? '; fuel consumed in the operation: art. 180 § 1º' : '';
  // Interpretation (docs/LAW.md): a natural person whose invoice states no CBS (none recorded, or R$ 0,00 as a
  // non-contributor's note states it) is the rural producer not a contributor of art. 164: art. 168's
  // presumed credit, whatever the zero test below would say of an acquisition that bore none.
  const stated = f.cbsValue !== null && !f.cbsValue.isZero();
  const presumed = f.supplier === CreditSupplier.NATURAL_PERSON && !stated;
  if (!presumed && f.cbsValue !== null) {
    // Interpretation (docs/LAW.md): R$ 0,00 on the invoice is an acquisition that bore no CBS (zero rate, reduction of 100%, deferral).
    if (!stated) return result(CreditStatus.NO_CREDIT, { reason: 'NO_CBS_ON_ACQUISITION', legalBasis: ACQUISITION_BASIS + fuel });
    return result(CreditStatus.CREDIT, { kind: CbsCreditKind.ACQUISITION, base: f.cost, amount: toCentavos(f.cbsValue), legalBasis: ACQUISITION_BASIS + fuel });
  }
  if (!presumed) return result(CreditStatus.AWAITING_FACT, { reason: 'CBS_NOT_RECORDED', awaiting: 'cbsValue', legalBasis: ACQUISITION_BASIS + fuel });
  const share = law.cbsPresumedCreditShare(f.purchasedOn ?? f.on, asKnownOn);
  if (!share) return result(CreditStatus.NO_CREDIT, { reason: 'NO_PRESUMED_CREDIT', legalBasis: PRESUMED_BASIS });
  if (share.value === null) {
    return result(CreditStatus.AWAITING_PARAMETER, { kind: CbsCreditKind.PRESUMED, reason: 'PRESUMED_RATE_NOT_PUBLISHED', awaiting: 'cbs-presumed-credit', base: f.cost, legalBasis: share.legalBasis });
  }
  if (f.cost === null) return result(CreditStatus.AWAITING_FACT, { kind: CbsCreditKind.PRESUMED, reason: 'COST_NOT_RECORDED', awaiting: 'cost', legalBasis: share.legalBasis });
  return result(CreditStatus.CREDIT, {
    kind: CbsCreditKind.PRESUMED, base: f.cost, rate: share.value, amount: toCentavos(f.cost.times(share.value)), legalBasis: share.legalBasis,
  });
}

/** The month's CBS credits: the sum of those computed (reversals included) and what the others await. */
export function monthCbsCredits(credits: readonly CbsCredit[]): { total: Decimal; awaiting: string[] } {
  const awaiting = credits.filter((c) => c.status === CreditStatus.AWAITING_FACT || c.status === CreditStatus.AWAITING_PARAMETER)
    .map((c) => `CBS of purchase ${c.purchaseId}: ${c.awaiting}`);
  return { total: sum(credits.filter((c) => c.status === CreditStatus.CREDIT).map((c) => c.amount!)), awaiting: [...new Set(awaiting)] };
}
