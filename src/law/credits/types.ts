import { IsoDate } from '../dates';
import { Decimal } from '../decimal';

/**
 * The shapes of the non-cumulative credits of PIS/Pasep and Cofins (Lei 10.637/2002, art. 3º;
 * Lei 10.833/2003, art. 3º) and of the balances they leave, to 31/12/2026 (EC 132/2023, ADCT
 * art. 126, II); from 2027 the balances are offset against the CBS (LC 214/2025, art. 378).
 */

/** Who sold: only a legal entity domiciled in Brazil gives the basic credit (Lei 10.637/2002, art. 3º § 3º I); abroad is an import (Lei 10.865/2004). */
export enum CreditSupplier { NATURAL_PERSON = 'NATURAL_PERSON', COOPERATIVE = 'COOPERATIVE', COMPANY = 'COMPANY', ABROAD = 'ABROAD' }

/** What was bought, as the credit rules tell goods apart. */
export enum CreditProduct {
  /** In-natura vegetable raw material (grains, seeds, fruit): suspended from legal entities (Lei 12.546/2011, art. 47-A). */
  IN_NATURA = 'IN_NATURA',
  /** Soybeans (NCM 12.01): suspended (Lei 12.865/2013, art. 29). */
  SOYBEAN = 'SOYBEAN',
  VEGETABLE_OIL = 'VEGETABLE_OIL',
  ANIMAL_FAT = 'ANIMAL_FAT',
  /** Other inputs consumed in production: methanol, catalysts (Lei 10.637/2002, art. 3º II). */
  INPUT = 'INPUT',
  /** Single-phase goods consumed as inputs (fuel): the general rates (credits.md rule 6). */
  FUEL_INPUT = 'FUEL_INPUT',
  /** Biodiesel (B100) bought for resale: an open question (parameter credit-choice). */
  B100_FOR_RESALE = 'B100_FOR_RESALE',
}

/** The revenue a credit serves (EFD table 4.3.6, first digit of COD_CRED). */
export enum RevenueGroup {
  /** Taxed domestic revenue: the credit can only be deducted. */
  TAXED_DOMESTIC = 'TAXED_DOMESTIC',
  /** Untaxed domestic revenue (R$ 0,00): kept under Lei 11.033/2004, art. 17. */
  UNTAXED_DOMESTIC = 'UNTAXED_DOMESTIC',
  /** Export revenue (Lei 10.637/2002, art. 5º). */
  EXPORT = 'EXPORT',
}

export const GROUP_DIGIT: Record<RevenueGroup, '1' | '2' | '3'> = {
  [RevenueGroup.TAXED_DOMESTIC]: '1', [RevenueGroup.UNTAXED_DOMESTIC]: '2', [RevenueGroup.EXPORT]: '3',
};
export const GROUP_ORDER = [RevenueGroup.TAXED_DOMESTIC, RevenueGroup.UNTAXED_DOMESTIC, RevenueGroup.EXPORT];

/** How common credits are split among the groups, fixed for the calendar year (Lei 10.637/2002, art. 3º §§ 8º–9º). */
export enum ApportionmentMethod { DIRECT_ALLOCATION = 'DIRECT_ALLOCATION', REVENUE_RATIO = 'REVENUE_RATIO' }

/** The kind of credit: the last two digits of COD_CRED (table 4.3.6). */
export enum CreditKind {
  /** 01: basic rate on acquisitions in Brazil. */
  BASIC = 'BASIC',
  /** 08: on imports (Lei 10.865/2004, art. 15). */
  IMPORT = 'IMPORT',
  /** 07: other presumed credits; the Lei 12.865/2013 art. 31 credit (an Interpretation, docs/LAW.md). */
  PRESUMED = 'PRESUMED',
}
export const KIND_DIGITS: Record<CreditKind, string> = { [CreditKind.BASIC]: '01', [CreditKind.IMPORT]: '08', [CreditKind.PRESUMED]: '07' };

/** Whether an amount is known. */
export enum CreditStatus {
  CREDIT = 'CREDIT',
  NO_CREDIT = 'NO_CREDIT',
  /** A figure or choice no source gives, until an ADMIN publishes it. */
  AWAITING_PARAMETER = 'AWAITING_PARAMETER',
  /** A fact of the purchase is not recorded. */
  AWAITING_FACT = 'AWAITING_FACT',
}

/** The facts of one purchase the credit needs. */
export interface PurchaseCreditFacts {
  purchaseId: string;
  purchasedOn: IsoDate;
  supplier: CreditSupplier | null;
  product: CreditProduct | null;
  /** The supplier's PIS/Cofins CST on the document (tables 4.3.3/4.3.4). */
  cst: string | null;
  /** Acquisition value. */
  cost: Decimal | null;
  /** ICMS in the acquisition value, excluded from the base (Lei 10.637/2002, art. 3º § 2º III). */
  icms: Decimal | null;
  /** Imports: PIS/Pasep-Importação and Cofins-Importação actually paid, the additional Cofins excluded (Lei 10.865/2004, art. 15 §§ 1º, 1º-A). */
  importPisPaid: Decimal | null;
  importCofinsPaid: Decimal | null;
  /** Under direct allocation: the revenue the input served. */
  allocatedTo: RevenueGroup | null;
}

/** The credit one purchase gives (or why none). */
export interface PurchaseCredit {
  purchaseId: string;
  /** The day of the acquisition, or of the return that reverses its share (absent in months closed before it was kept). */
  on?: IsoDate;
  status: CreditStatus;
  kind: CreditKind | null;
  /** Why the purchase gives no credit, or what it awaits: a code (docs/LAW.md, "Credits"). */
  reason: string | null;
  /** The parameter or the purchase field awaited. */
  awaiting: string | null;
  base: Decimal | null;
  pisRate: Decimal | null;
  cofinsRate: Decimal | null;
  /** Half-even to the centavo. */
  pis: Decimal | null;
  cofins: Decimal | null;
  /** NAT_BC_CRED (table 4.3.7): 02 inputs, 14 imports... null when no credit. */
  natBcCred: string | null;
  allocatedTo: RevenueGroup | null;
  legalBasis: string;
}

/** One purchase's credit (or a return's reversal, negative) in the group it was allocated to: the C191/C195 of the EFD. */
export interface CreditPart extends Omit<CreditLine, 'legalBasis'> {
  purchaseId: string;
  on: IsoDate | null;
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
}

/** A credit of the month in one group: what M100/M500 report (COD_CRED = group digit + kind digits). */
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

/** A balance by origin month, group and COD_CRED (the 1100/1500 key; Lei 10.637/2002, art. 3º § 4º). */
export interface Balance {
  tax: Contribution;
  originYear: number;
  originMonth: number;
  group: RevenueGroup;
  codCred: string;
  /** The credit of the origin month. */
  original: Decimal;
  /** Deducted from debits up to (and including) the month asked. */
  deducted: Decimal;
  /** Consumed by recorded refund or offset claims. */
  claimed: Decimal;
  /** Offset against the CBS from 2027 (LC 214/2025, art. 378 III). */
  offsetAgainstCbs: Decimal;
  /** Consumed by reversed credits (returns of purchases): EFD M110/M510 in its own month, 1100/1500 field 17 later. */
  reversed: Decimal;
  remaining: Decimal;
  /** The first day a refund or offset may be asked (after the origin quarter, Lei 11.116/2005, art. 16), null when it may only be deducted. */
  refundableFrom: IsoDate | null;
}

export enum ClaimKind { REFUND = 'REFUND', OFFSET = 'OFFSET' }

/** A recorded PER/DCOMP against a balance. */
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
