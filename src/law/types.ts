/** Vocabulary of the law shared by every layer (the GraphQL enums are registered from these). */

export enum Region { NORTH = 'NORTH', NORTHEAST = 'NORTHEAST', CENTER_WEST = 'CENTER_WEST', SOUTHEAST = 'SOUTHEAST', SOUTH = 'SOUTH' }

export enum Feedstock {
  SOYBEAN = 'SOYBEAN',
  CASTOR_BEAN = 'CASTOR_BEAN',
  /** Fruit, stone or kernel of palm (Decreto 10.527/2020, art. 6º, I). */
  PALM = 'PALM',
  COTTONSEED = 'COTTONSEED',
  SUNFLOWER = 'SUNFLOWER',
  CANOLA = 'CANOLA',
  PEANUT = 'PEANUT',
  MACAUBA = 'MACAUBA',
  BEEF_TALLOW = 'BEEF_TALLOW',
  USED_COOKING_OIL = 'USED_COOKING_OIL',
  OTHER = 'OTHER',
}

/** The four rate categories of Decreto 10.527/2020, arts. 5º and 6º. */
export enum RateCategory {
  GENERAL = 'GENERAL',
  CASTOR_PALM_PRIORITY_REGION = 'CASTOR_PALM_PRIORITY_REGION',
  FAMILY_FARMING = 'FAMILY_FARMING',
  FAMILY_FARMING_PRIORITY_REGION = 'FAMILY_FARMING_PRIORITY_REGION',
}

export enum RegistrationKind { DAP = 'DAP', CAF = 'CAF' }
export enum OrganizationKind { COOPERATIVE = 'COOPERATIVE', ASSOCIATION = 'ASSOCIATION' }
export enum SupplierKind {
  FAMILY_FARMER = 'FAMILY_FARMER',
  COOPERATIVE = 'COOPERATIVE',
  ASSOCIATION = 'ASSOCIATION',
  THIRD_PARTY = 'THIRD_PARTY',
  OWN_PRODUCTION = 'OWN_PRODUCTION',
}
/** Decreto 10.527/2020, art. 3º §2 I: a) raw material for biodiesel; b) other products. */
export enum PurchasePurpose { BIODIESEL_FEEDSTOCK = 'BIODIESEL_FEEDSTOCK', OTHER_PRODUCT = 'OTHER_PRODUCT' }
export enum BiodieselOrigin { OWN_PRODUCTION = 'OWN_PRODUCTION', IMPORTED = 'IMPORTED' }
export enum Market { DOMESTIC = 'DOMESTIC', EXPORT = 'EXPORT' }
export enum SealEventKind { SUSPENDED = 'SUSPENDED', REINSTATED = 'REINSTATED', CANCELLED = 'CANCELLED', RENEWED = 'RENEWED' }
/** Decreto 10.527/2020, art. 3º §2 I c; art. 2º VII. */
export enum FomentoKind { TECHNICAL_ASSISTANCE = 'TECHNICAL_ASSISTANCE', DONATION = 'DONATION', INVESTMENT = 'INVESTMENT', OTHER = 'OTHER' }
export enum TaxPeriodStatus { OPEN = 'OPEN', CLOSED = 'CLOSED' }
/** Lei 11.116/2005: art. 3º ad valorem (default) or art. 4º special regime per m³. */
export enum TaxRegime { AD_VALOREM = 'AD_VALOREM', SPECIAL_PER_M3 = 'SPECIAL_PER_M3' }
export enum Role { ADMIN = 'ADMIN', AUDITOR = 'AUDITOR', PRODUCER = 'PRODUCER' }
/**
 * The single-phase taxes on fuels, biodiesel (B100) included, levied once per unit of quantity
 * (Lei Complementar 214/2025, arts. 172–175): the CBS replaces PIS/Pasep and Cofins from 2027
 * (EC 132/2023, ADCT art. 126); the IBS follows.
 */
export enum FuelTax { CBS = 'CBS', IBS = 'IBS' }
/** Whether a single-phase tax's amount is known: its per-m³ rate is published, or not yet (LC 214/2025, art. 174 III). */
export enum FuelTaxStatus { COMPUTED = 'COMPUTED', RATE_NOT_PUBLISHED = 'RATE_NOT_PUBLISHED' }
/**
 * How own production used in a month is valued (Decreto 10.527/2020, art. 6º §4º; DESIGN §1.3):
 * at the average price per kg of raw material acquired from third parties in the month; with
 * none acquired, of the third-party lots used in the month; with none used either, the weights
 * are kilograms (only own production: the proportions are exact).
 */
export enum OwnProductionValuation {
  THIRD_PARTY_ACQUISITIONS = 'THIRD_PARTY_ACQUISITIONS',
  THIRD_PARTY_LOTS_USED = 'THIRD_PARTY_LOTS_USED',
  QUANTITY = 'QUANTITY',
}
/**
 * The rules of the blend a tax segment applies and cites (Decreto 10.527/2020, art. 6º §§2º–5º;
 * before it, Lei 11.116/2005, art. 5º §§3º–5º under Decreto 7.768/2012): dated citations, no figure.
 */
export enum BlendRule {
  /** §3º: the average weighted by the acquisition cost of the raw material used. */
  COST_WEIGHTED = 'COST_WEIGHTED',
  /** §4º: own production valued at the average third-party price. */
  OWN_PRODUCTION_VALUATION = 'OWN_PRODUCTION_VALUATION',
  /** §5º: imported biodiesel at the general amounts. */
  IMPORTED_AT_GENERAL = 'IMPORTED_AT_GENERAL',
  /** §2º: the family-farming categories need the Selo in regular standing. */
  SEAL_CONDITION = 'SEAL_CONDITION',
}

/** A DAP or CAF (Decreto 10.527/2020, art. 2º IV and V). */
export interface Registration {
  kind: RegistrationKind;
  number: string;
  validFrom: string;
  validUntil: string;
}
