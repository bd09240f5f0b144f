import { IsoDate } from '../dates';
import { toCentavos, ZERO } from '../decimal';
import { CreditChoice, LawBook } from '../law-book';
import { CreditKind, CreditProduct, CreditStatus, CreditSupplier, PurchaseCredit, PurchaseCreditFacts } from './types';

/** Supplier CSTs whose sale was subject to payment (tables 4.3.3/4.3.4; Lei 10.637/2002, art. 3º § 2º II). */
const TAXED_CST = new Set(['01', '02', '03', '05']);
/** Supplier CSTs of a sale not subject to payment: zero rate, exempt, not subject, suspended. */
const UNTAXED_CST: Record<string, string> = {
  '06': 'SUPPLIER_ZERO_RATE', '07': 'SUPPLIER_EXEMPT', '08': 'SUPPLIER_NOT_SUBJECT', '09': 'SUPPLIER_SUSPENDED',
  // The buyer's entry CSTs of an acquisition without the right to credit (table 4.3.4), as the producer's own entry note states them.
  '70': 'ACQUISITION_WITHOUT_CREDIT', '71': 'SUPPLIER_EXEMPT', '72': 'SUPPLIER_SUSPENDED', '73': 'SUPPLIER_ZERO_RATE', '74': 'SUPPLIER_NOT_SUBJECT', '75': 'ACQUISITION_BY_SUBSTITUTION',
};
/**
 * Interpretation (docs/LAW.md; table 4.3.4 of the Guia, secondary): the entry CSTs 50–56 of the producer's own
 * entry note say the acquisition gives the right to credit, as the supplier's 01 would; 60–67 are presumed
 * credits, which a note does not compute.
 */
const ENTRY_CREDIT_CST = /^5[0-6]$/;
const ENTRY_PRESUMED_CST = /^6[0-7]$/;

const BASIC_BASIS = 'Lei 10.637/2002, art. 3º II, § 1º I, § 2º III; Lei 10.833/2003, art. 3º II, § 1º I';
const PIS_COFINS_END: IsoDate = '2026-12-31';

/**
 * Lei 10.637/2002 and Lei 10.833/2003, art. 3º; Lei 10.865/2004, art. 15. An unknown fact or
 * unpublished choice is awaited, never assumed.
 */
export function purchaseCredit(f: PurchaseCreditFacts, law: LawBook, asKnownOn: IsoDate): PurchaseCredit {
  const none = (status: CreditStatus, reason: string, legalBasis: string, awaiting: string | null = null): PurchaseCredit => ({
    purchaseId: f.purchaseId, on: f.on ?? f.purchasedOn, purchasedOn: f.purchasedOn, status, kind: null, reason, awaiting, base: null, pisRate: null, cofinsRate: null, pis: null, cofins: null,
    natBcCred: null, allocatedTo: f.allocatedTo, legalBasis,
  });
  // EC 132/2023, ADCT art. 126, II: no PIS/Cofins credit arises from 2027 (the CBS credit is LC 214/2025, art. 47).
  if (f.purchasedOn > PIS_COFINS_END) return none(CreditStatus.NO_CREDIT, 'PIS_COFINS_EXTINCT', 'EC 132/2023, ADCT art. 126, II');
  const rates = law.creditBasicRates(f.purchasedOn, asKnownOn);
  if (!rates) return none(CreditStatus.NO_CREDIT, 'OUTSIDE_NON_CUMULATIVE_REGIME', 'Lei 10.833/2003, art. 3º; Lei 10.637/2002, art. 3º');
  if (f.supplier === null) return none(CreditStatus.AWAITING_FACT, 'SUPPLIER_NOT_RECORDED', BASIC_BASIS, 'creditSupplier');
  if (f.product === null) return none(CreditStatus.AWAITING_FACT, 'PRODUCT_NOT_RECORDED', BASIC_BASIS, 'creditProduct');
  // A natural person (a family farmer included) never gives the basic credit.
  if (f.supplier === CreditSupplier.NATURAL_PERSON) {
    return none(CreditStatus.NO_CREDIT, 'NATURAL_PERSON_SUPPLIER', 'Lei 10.637/2002, art. 3º § 3º I; Lei 10.833/2003, art. 3º § 3º I');
  }
  if (f.product === CreditProduct.B100_FOR_RESALE) {
    const choice: CreditChoice = f.supplier === CreditSupplier.ABROAD ? 'IMPORTED_B100_FOR_RESALE' : 'B100_FOR_RESALE';
    const v = law.creditChoice(choice, f.purchasedOn, asKnownOn);
    if (!v || v.value === null) return none(CreditStatus.AWAITING_PARAMETER, choice, v?.legalBasis ?? BASIC_BASIS, `credit-choice/${choice}`);
    if (v.value.isZero()) return none(CreditStatus.NO_CREDIT, choice, v.legalBasis);
  }
  if (f.supplier === CreditSupplier.ABROAD) return importCredit(f, none);
  if (f.product === CreditProduct.SOYBEAN) return none(CreditStatus.NO_CREDIT, 'SUSPENDED_SOYBEAN', 'Lei 12.865/2013, art. 29; Lei 10.637/2002, art. 3º § 2º II');
  if (f.product === CreditProduct.IN_NATURA) {
    return none(CreditStatus.NO_CREDIT, 'SUSPENDED_IN_NATURA', 'Lei 12.546/2011, art. 47-A; IN RFB 1.514/2014, art. 3º; Lei 10.637/2002, art. 3º § 2º II');
  }
  if (f.cst === null) return none(CreditStatus.AWAITING_FACT, 'CST_NOT_RECORDED', BASIC_BASIS, 'pisCofinsCst');
  // Each contribution follows its own CST (Lei 10.637/2002 and Lei 10.833/2003, each art. 3º § 2º II):
  // a PIS/Pasep sale subject to payment says nothing of the Cofins on the same item.
  const cofinsCst = f.cofinsCst ?? f.cst;
  const pisUntaxed = untaxedReason(f.cst, f.product);
  const cofinsUntaxed = untaxedReason(cofinsCst, f.product);
  if (pisUntaxed !== null && cofinsUntaxed !== null) {
    return none(CreditStatus.NO_CREDIT, pisUntaxed, 'Lei 10.637/2002, art. 3º § 2º II; Lei 10.833/2003, art. 3º § 2º II');
  }
  if (f.cost === null) return none(CreditStatus.AWAITING_FACT, 'COST_NOT_RECORDED', BASIC_BASIS, 'cost');
  if (f.icms === null) return none(CreditStatus.AWAITING_FACT, 'ICMS_NOT_RECORDED', BASIC_BASIS, 'icmsValue');
  const base = f.cost.minus(f.icms);
  const monophasicInput = (f.cst === '04' || cofinsCst === '04') && f.product === CreditProduct.FUEL_INPUT;
  const legalBasis = monophasicInput ? `${BASIC_BASIS}; single-phase input at the general rates (Lei 10.833/2003, art. 3º I b)` : BASIC_BASIS;
  // The contribution whose CST gives no credit is credited at a rate of zero: its M500/M100 line stays empty.
  const pisRate = pisUntaxed === null ? rates.value.pis : ZERO;
  const cofinsRate = cofinsUntaxed === null ? rates.value.cofins : ZERO;
  const reason = pisUntaxed !== null ? `PIS_${pisUntaxed}` : cofinsUntaxed !== null ? `COFINS_${cofinsUntaxed}` : null;
  return {
    purchaseId: f.purchaseId, on: f.on ?? f.purchasedOn, purchasedOn: f.purchasedOn, status: CreditStatus.CREDIT, kind: CreditKind.BASIC, reason, awaiting: null, base,
    pisRate, cofinsRate, pis: toCentavos(base.times(pisRate)), cofins: toCentavos(base.times(cofinsRate)),
    natBcCred: natureOf(f.product), allocatedTo: f.allocatedTo, legalBasis: `${legalBasis}; rates: ${rates.legalBasis}`,
  };
}

/** Null when the supplier's CST gives the basic credit; else why not (CST 04 only for a single-phase input, rule 6). */
function untaxedReason(cst: string, product: CreditProduct | null): string | null {
  if (TAXED_CST.has(cst) || ENTRY_CREDIT_CST.test(cst) || (cst === '04' && product === CreditProduct.FUEL_INPUT)) return null;
  if (ENTRY_PRESUMED_CST.test(cst)) return 'PRESUMED_CREDIT_NOT_FROM_NOTE';
  return UNTAXED_CST[cst] ?? 'SUPPLIER_NOT_TAXED';
}

/** NAT_BC_CRED (table 4.3.7): 01 goods bought for resale (B100 for resale, CFOP x102), 02 goods used as inputs. */
const natureOf = (product: CreditProduct | null) => (product === CreditProduct.B100_FOR_RESALE ? '01' : '02');

/** Lei 10.865/2004, art. 15 §§ 1º, 1º-A: the import contributions actually paid, the additional Cofins excluded. */
function importCredit(f: PurchaseCreditFacts, none: (s: CreditStatus, r: string, b: string, a?: string | null) => PurchaseCredit): PurchaseCredit {
  const basis = 'Lei 10.865/2004, art. 15 §§ 1º, 1º-A';
  if (f.importPisPaid === null || f.importCofinsPaid === null) {
    return none(CreditStatus.AWAITING_FACT, 'IMPORT_CONTRIBUTIONS_NOT_RECORDED', basis, f.importPisPaid === null ? 'importPisPaid' : 'importCofinsPaid');
  }
  return {
    purchaseId: f.purchaseId, on: f.on ?? f.purchasedOn, purchasedOn: f.purchasedOn, status: CreditStatus.CREDIT, kind: CreditKind.IMPORT, reason: null, awaiting: null, base: f.cost,
    pisRate: null, cofinsRate: null, pis: f.importPisPaid, cofins: f.importCofinsPaid, natBcCred: natureOf(f.product), allocatedTo: f.allocatedTo, legalBasis: basis,
  };
}

/** The default product of a feedstock, where the purchase records none (null: the product must be recorded). Interpretation (docs/LAW.md). */
export function productOfFeedstock(feedstock: string): CreditProduct | null {
  switch (feedstock) {
    case 'SOYBEAN': return CreditProduct.SOYBEAN;
    case 'SOYBEAN_OIL': case 'USED_COOKING_OIL': return CreditProduct.VEGETABLE_OIL;
    case 'BEEF_TALLOW': return CreditProduct.ANIMAL_FAT;
    case 'CASTOR_BEAN': case 'PALM': case 'COTTONSEED': case 'SUNFLOWER': case 'CANOLA': case 'PEANUT': case 'MACAUBA': return CreditProduct.IN_NATURA;
    default: return null;
  }
}

/** The default supplier of a Selo supplier kind: a family farmer is a natural person, a cooperative or association a legal entity. Interpretation (docs/LAW.md). */
export function supplierOfKind(kind: string): CreditSupplier | null {
  switch (kind) {
    case 'FAMILY_FARMER': return CreditSupplier.NATURAL_PERSON;
    case 'COOPERATIVE': return CreditSupplier.COOPERATIVE;
    case 'ASSOCIATION': return CreditSupplier.COMPANY;
    default: return null;
  }
}
