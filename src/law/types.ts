/** Vocabulary of the law shared by every layer (the GraphQL enums are registered from these). */

export enum Region { NORTH = 'NORTH', NORTHEAST = 'NORTHEAST', CENTER_WEST = 'CENTER_WEST', SOUTHEAST = 'SOUTHEAST', SOUTH = 'SOUTH' }

export enum Feedstock {
  SOYBEAN = 'SOYBEAN',
  CASTOR_BEAN = 'CASTOR_BEAN',
  PALM = 'PALM',
  COTTONSEED = 'COTTONSEED',
  SUNFLOWER = 'SUNFLOWER',
  CANOLA = 'CANOLA',
  PEANUT = 'PEANUT',
  MACAUBA = 'MACAUBA',
  BEEF_TALLOW = 'BEEF_TALLOW',
  USED_COOKING_OIL = 'USED_COOKING_OIL',
  /** With LIVE_ANIMALS, not diversified (Portaria MDA nº 28/2024, factor f). */
  SOYBEAN_OIL = 'SOYBEAN_OIL',
  LIVE_ANIMALS = 'LIVE_ANIMALS',
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
export enum RecordState { ACTIVE = 'ACTIVE', CANCELLED = 'CANCELLED' }
export enum TaxPeriodStatus { OPEN = 'OPEN', CLOSED = 'CLOSED' }
/** Lei 11.116/2005: art. 3º ad valorem (default) or art. 4º special regime per m³. */
export enum TaxRegime { AD_VALOREM = 'AD_VALOREM', SPECIAL_PER_M3 = 'SPECIAL_PER_M3' }
export enum Role { ADMIN = 'ADMIN', AUDITOR = 'AUDITOR', PRODUCER = 'PRODUCER' }
/** LC 214/2025, arts. 172–175; the CBS replaces PIS/Cofins from 2027 (EC 132/2023, ADCT art. 126). */
export enum FuelTax { CBS = 'CBS', IBS = 'IBS' }
/** LC 214/2025, art. 174 III. */
export enum FuelTaxStatus { COMPUTED = 'COMPUTED', RATE_NOT_PUBLISHED = 'RATE_NOT_PUBLISHED' }
/** Art. 6º §4º and its fallbacks, in order; reading in docs/LAW.md. */
export enum OwnProductionValuation {
  THIRD_PARTY_ACQUISITIONS = 'THIRD_PARTY_ACQUISITIONS',
  THIRD_PARTY_LOTS_USED = 'THIRD_PARTY_LOTS_USED',
  QUANTITY = 'QUANTITY',
}
/** Decreto 10.527/2020, art. 6º §§2º–5º (before it, Decreto 7.768/2012): citations, no figure. */
export enum BlendRule {
  /** §3º */
  COST_WEIGHTED = 'COST_WEIGHTED',
  /** §4º */
  OWN_PRODUCTION_VALUATION = 'OWN_PRODUCTION_VALUATION',
  /** §5º */
  IMPORTED_AT_GENERAL = 'IMPORTED_AT_GENERAL',
  /** §2º */
  SEAL_CONDITION = 'SEAL_CONDITION',
}

/** FLAT: Portaria MAPA 144/2019; WEIGHTED: Portaria MDA 28/2024 (published 2024-06-28). */
export enum SealComplianceModel { FLAT = 'FLAT', WEIGHTED = 'WEIGHTED' }

/** Decreto 10.527/2020, art. 3º §2º I and §3º II, in force order. */
export enum SeloWording {
  /** DOU 23/10/2020 */
  ORIGINAL = 'ORIGINAL',
  DECRETO_10708_2021 = 'DECRETO_10708_2021',
  /** Adds other products (b) and fomento (c) in the priority region. */
  DECRETO_11902_2024 = 'DECRETO_11902_2024',
}

export enum SealBaseRule {
  /** Original §3º II, less exports (§3º III). */
  RAW_MATERIAL_ACQUISITIONS = 'RAW_MATERIAL_ACQUISITIONS',
  /** §3º II from Decreto 10.708/2021, less exports (§3º III). */
  BIODIESEL_SOLD = 'BIODIESEL_SOLD',
  /** Portaria MDA nº 28/2024. */
  DOMESTIC_SALES = 'DOMESTIC_SALES',
}

/** Portaria MDA nº 28/2024, p. 40, one per alínea (FACTOR_ALINEA). */
export enum SealWeightingFactor {
  /** Presumed: not in our sources. */
  ORGANIZATION_ABOVE_75 = 'ORGANIZATION_ABOVE_75',
  ORGANIZATION_UP_TO_75 = 'ORGANIZATION_UP_TO_75',
  /** Does not combine with the others. */
  FOMENTO_PRIORITY_REGION = 'FOMENTO_PRIORITY_REGION',
  ACQUISITION_PRIORITY_REGION = 'ACQUISITION_PRIORITY_REGION',
  ACQUISITION_CENTER_WEST_SOUTHEAST = 'ACQUISITION_CENTER_WEST_SOUTHEAST',
  DIVERSIFIED_RAW_MATERIAL = 'DIVERSIFIED_RAW_MATERIAL',
}

export const FACTOR_ALINEA: Record<SealWeightingFactor, string> = {
  [SealWeightingFactor.ORGANIZATION_ABOVE_75]: 'a',
  [SealWeightingFactor.ORGANIZATION_UP_TO_75]: 'b',
  [SealWeightingFactor.FOMENTO_PRIORITY_REGION]: 'c',
  [SealWeightingFactor.ACQUISITION_PRIORITY_REGION]: 'd',
  [SealWeightingFactor.ACQUISITION_CENTER_WEST_SOUTHEAST]: 'e',
  [SealWeightingFactor.DIVERSIFIED_RAW_MATERIAL]: 'f',
};

/** A DAP or CAF (Decreto 10.527/2020, art. 2º IV and V). */
export interface Registration {
  kind: RegistrationKind;
  number: string;
  validFrom: string;
  validUntil: string;
}

/** Portaria MDA nº 28/2024, p. 40, d and e; the Sul gets none. */
export enum LeverRegion {
  /** Factor d (fomento: c). */
  PRIORITY_REGION = 'PRIORITY_REGION',
  /** Outside the Semiárido. */
  CENTER_WEST_SOUTHEAST = 'CENTER_WEST_SOUTHEAST',
  SOUTH = 'SOUTH',
}
