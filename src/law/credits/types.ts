import { IsoDate } from '../dates';
import { Decimal } from '../decimal';

/** Lei 10.637/2002 and Lei 10.833/2003, art. 3º, to 2026; then LC 214/2025, art. 378. */

/** Lei 10.637/2002, art. 3º § 3º I; abroad: Lei 10.865/2004. */
export enum CreditSupplier { NATURAL_PERSON = 'NATURAL_PERSON', COOPERATIVE = 'COOPERATIVE', COMPANY = 'COMPANY', ABROAD = 'ABROAD' }

export enum CreditProduct {
  /** Suspended from legal entities (Lei 12.546/2011, art. 47-A). */
  IN_NATURA = 'IN_NATURA',
  /** NCM 12.01, suspended (Lei 12.865/2013, art. 29). */
  SOYBEAN = 'SOYBEAN',
  VEGETABLE_OIL = 'VEGETABLE_OIL',
  ANIMAL_FAT = 'ANIMAL_FAT',
  /** Lei 10.637/2002, art. 3º II. */
  INPUT = 'INPUT',
  /** Single-phase goods consumed as inputs: the general rates. */
  FUEL_INPUT = 'FUEL_INPUT',
  /** Open question (parameter credit-choice). */
  B100_FOR_RESALE = 'B100_FOR_RESALE',
}

/** EFD table 4.3.6, first digit of COD_CRED. */
export enum RevenueGroup {
  /** Can only be deducted. */
  TAXED_DOMESTIC = 'TAXED_DOMESTIC',
  /** Lei 11.033/2004, art. 17. */
  UNTAXED_DOMESTIC = 'UNTAXED_DOMESTIC',
  /** Lei 10.637/2002, art. 5º. */
  EXPORT = 'EXPORT',
}

export const GROUP_DIGIT: Record<RevenueGroup, '1' | '2' | '3'> = {
  [RevenueGroup.TAXED_DOMESTIC]: '1', [RevenueGroup.UNTAXED_DOMESTIC]: '2', [RevenueGroup.EXPORT]: '3',
};
export const GROUP_ORDER = [RevenueGroup.TAXED_DOMESTIC, RevenueGroup.UNTAXED_DOMESTIC, RevenueGroup.EXPORT];

/** Fixed for the calendar year (Lei 10.637/2002, art. 3º §§ 8º–9º). */
export enum ApportionmentMethod { DIRECT_ALLOCATION = 'DIRECT_ALLOCATION', REVENUE_RATIO = 'REVENUE_RATIO' }

/** The last two digits of COD_CRED (table 4.3.6). */
export enum CreditKind {
  BASIC = 'BASIC',
  /** Lei 10.865/2004, art. 15. */
  IMPORT = 'IMPORT',
  /** Lei 12.865/2013, art. 31 as code 07; reading in docs/LAW.md. */
  PRESUMED = 'PRESUMED',
}
export const KIND_DIGITS: Record<CreditKind, string> = { [CreditKind.BASIC]: '01', [CreditKind.IMPORT]: '08', [CreditKind.PRESUMED]: '07' };

export enum CreditStatus {
  CREDIT = 'CREDIT',
  NO_CREDIT = 'NO_CREDIT',
  /** Until an ADMIN publishes the figure. */
  AWAITING_PARAMETER = 'AWAITING_PARAMETER',
  AWAITING_FACT = 'AWAITING_FACT',
}

export interface PurchaseCreditFacts {
  purchaseId: string;
  /** The day of the acquisition: its rules (rates, the extinction from 2027) are that day's, for a return's reversal too. */
  purchasedOn: IsoDate;
  /** The day the credit is taken, a return's reversal on the day of the return; the acquisition's when absent. */
  on?: IsoDate;
  supplier: CreditSupplier | null;
  product: CreditProduct | null;
  /** The supplier's PIS/Pasep CST, and its Cofins CST unless `cofinsCst` says otherwise (tables 4.3.3/4.3.4). */
  cst: string | null;
  /** The supplier's Cofins CST where it differs from `cst`; null or absent: the same. */
  cofinsCst?: string | null;
  cost: Decimal | null;
  /** Excluded from the base (Lei 10.637/2002, art. 3º § 2º III). */
  icms: Decimal | null;
  /** Paid, the additional Cofins excluded (Lei 10.865/2004, art. 15 §§ 1º, 1º-A). */
  importPisPaid: Decimal | null;
  importCofinsPaid: Decimal | null;
  allocatedTo: RevenueGroup | null;
}

export interface PurchaseCredit {
  purchaseId: string;
  /** The day of the acquisition, or of the return that reverses its share (absent in months closed before it was kept). */
  on?: IsoDate;
  /** The day of the acquisition itself, also for a return's reversal (absent in months closed before it was kept). */
  purchasedOn?: IsoDate;
  status: CreditStatus;
  kind: CreditKind | null;
  /** A code of docs/LAW.md, "Credits". */
  reason: string | null;
  awaiting: string | null;
  base: Decimal | null;
  pisRate: Decimal | null;
  cofinsRate: Decimal | null;
  pis: Decimal | null;
  cofins: Decimal | null;
  /** Table 4.3.7. */
  natBcCred: string | null;
  allocatedTo: RevenueGroup | null;
  legalBasis: string;
}

/** One purchase's credit (or a return's reversal, negative) in the group it was allocated to: the C191/C195 of the EFD. */
export interface CreditPart extends Omit<CreditLine, 'legalBasis'> {
  purchaseId: string;
  on: IsoDate | null;
}

/**
 * A return's reversal of a credit of an earlier month: the balance of that month and COD_CRED it
 * reduces (Lei 10.637/2002, art. 3º § 4º; the 1100/1500 key; docs/LAW.md, "Returns").
 */
export interface CreditReversal extends CreditPart {
  /** The day of the return. */
  on: IsoDate;
  originYear: number;
  originMonth: number;
  // base, pis and cofins are negative: what is reversed; the rates are null for an import's (the contributions paid).
}

/** A credit part with the facts of its purchase that the EFD's C190/C191/C195 write. */
export interface EfdAcquisition {
  part: CreditPart;
  purchasedOn: IsoDate;
  feedstock: string;
  product: CreditProduct | null;
  abroad: boolean;
  /** The supplier's CNPJ or CPF; null when not known. */
  document: string | null;
  originMunicipalityCode: string;
  /** The purchase's recorded cost (VL_ITEM). */
  cost: Decimal;
  /** The supplier's PIS/Pasep CST, and its Cofins CST where it differs (null: the same), for the side without credit. */
  pisCst?: string | null;
  cofinsCst?: string | null;
}

/** What M100/M500 report. */
export interface CreditLine {
  group: RevenueGroup;
  kind: CreditKind;
  codCred: string;
  base: Decimal;
  pisRate: Decimal | null;
  cofinsRate: Decimal | null;
  pis: Decimal;
  cofins: Decimal;
  legalBasis: string;
}

export enum Contribution { PIS = 'PIS', COFINS = 'COFINS' }

/** The 1100/1500 key (Lei 10.637/2002, art. 3º § 4º). */
export interface Balance {
  tax: Contribution;
  originYear: number;
  originMonth: number;
  group: RevenueGroup;
  codCred: string;
  original: Decimal;
  /** Up to and including the month asked. */
  deducted: Decimal;
  claimed: Decimal;
  /** LC 214/2025, art. 378 III. */
  offsetAgainstCbs: Decimal;
  /** Returns of purchases: M110/M510 in its month, 1100/1500 f.17 later. */
  reversed: Decimal;
  remaining: Decimal;
  /** Lei 11.116/2005, art. 16; null when it may only be deducted. */
  refundableFrom: IsoDate | null;
}

export enum ClaimKind { REFUND = 'REFUND', OFFSET = 'OFFSET' }

/** A PER/DCOMP. */
export interface ClaimFacts {
  id: string;
  tax: Contribution;
  originYear: number;
  originMonth: number;
  codCred: string;
  kind: ClaimKind;
  filedOn: IsoDate;
  amount: Decimal;
}

export enum CbsCreditKind {
  /** LC 214/2025, art. 47: the CBS on the acquisition. */
  ACQUISITION = 'ACQUISITION',
  /** LC 214/2025, art. 168: a purchase from a rural producer who is not a contributor (art. 164). */
  PRESUMED = 'PRESUMED',
}

export interface CbsCredit {
  purchaseId: string;
  on: IsoDate;
  status: CreditStatus;
  kind: CbsCreditKind | null;
  /** Why no credit, or what is awaited (docs/LAW.md, "CBS credits"). */
  reason: string | null;
  /** The purchase field or parameter awaited. */
  awaiting: string | null;
  base: Decimal | null;
  /** The presumed credit's percentage, a fraction; null for a credit of the CBS paid. */
  rate: Decimal | null;
  /** Negative for a return: the credit reversed. */
  amount: Decimal | null;
  legalBasis: string;
}
