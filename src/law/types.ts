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
  /** Soybean oil (óleo de soja): not diversified raw material (Portaria MDA nº 28/2024, factor f). */
  SOYBEAN_OIL = 'SOYBEAN_OIL',
  /** Live animals (animais vivos): not diversified raw material (Portaria MDA nº 28/2024, factor f). */
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
/**
 * The single-phase taxes on fuels, biodiesel (B100) included, levied once per unit of quantity
 * (Lei Complementar 214/2025, arts. 172–175): the CBS replaces PIS/Pasep and Cofins from 2027
 * (EC 132/2023, ADCT art. 126); the IBS follows.
 */
export enum FuelTax { CBS = 'CBS', IBS = 'IBS' }
/** Whether a single-phase tax's amount is known: its per-m³ rate is published, or not yet (LC 214/2025, art. 174 III). */
export enum FuelTaxStatus { COMPUTED = 'COMPUTED', RATE_NOT_PUBLISHED = 'RATE_NOT_PUBLISHED' }
/**
 * Own production's valuation (art. 6º §4º; docs/LAW.md): the month's third-party price per kg,
 * else the third-party lots used, else kilograms.
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

/**
 * FLAT: counted spending against the region's minimum (Portaria MAPA 144/2019; to 2023, 2024 as
 * known before 2024-06-28). WEIGHTED: Portaria MDA 28/2024, published 2024-06-28.
 */
export enum SealComplianceModel { FLAT = 'FLAT', WEIGHTED = 'WEIGHTED' }

/** The wordings of Decreto 10.527/2020, art. 3º §2º I and §3º II, in the order they came into force. */
export enum SeloWording {
  /** Original (DOU 23/10/2020): share of the year's raw-material acquisitions; raw material only. */
  ORIGINAL = 'ORIGINAL',
  /** §3º II as amended by Decreto 10.708/2021: share of the value of biodiesel sold; raw material only. */
  DECRETO_10708_2021 = 'DECRETO_10708_2021',
  /** §2º I a–c as given by Decreto 11.902/2024: other products (b) and fomento (c) in the priority region count too. */
  DECRETO_11902_2024 = 'DECRETO_11902_2024',
}

/** What the base of the minimum share is made of. */
export enum SealBaseRule {
  /** Original §3º II: the year's raw-material acquisitions, less the part proportional to the exported volume (§3º III). */
  RAW_MATERIAL_ACQUISITIONS = 'RAW_MATERIAL_ACQUISITIONS',
  /** §3º II from Decreto 10.708/2021: the value of own biodiesel sold, less the part proportional to the exported volume (§3º III). */
  BIODIESEL_SOLD = 'BIODIESEL_SOLD',
  /** Portaria MDA nº 28/2024 (weighted model): the gross value of own biodiesel sold on the domestic market. */
  DOMESTIC_SALES = 'DOMESTIC_SALES',
}

/**
 * The weighting factors of Selo spending (Portaria MDA nº 28/2024, p. 40), one per alínea; each is
 * a dated parameter (`selo-weighting-factor`, scoped by these names).
 */
export enum SealWeightingFactor {
  /** a) open: not in our sources (presumed: organizations with more than 75% family-farmer members). */
  ORGANIZATION_ABOVE_75 = 'ORGANIZATION_ABOVE_75',
  /** b) organizations whose members are up to 75% family farmers with a valid CAF or DAP, any region. */
  ORGANIZATION_UP_TO_75 = 'ORGANIZATION_UP_TO_75',
  /** c) fomento in the Norte, Nordeste and Semiárido; does not combine with the others. */
  FOMENTO_PRIORITY_REGION = 'FOMENTO_PRIORITY_REGION',
  /** d) acquisitions in the Norte, Nordeste and Semiárido. */
  ACQUISITION_PRIORITY_REGION = 'ACQUISITION_PRIORITY_REGION',
  /** e) acquisitions in the Centro-Oeste or Sudeste. */
  ACQUISITION_CENTER_WEST_SOUTHEAST = 'ACQUISITION_CENTER_WEST_SOUTHEAST',
  /** f) diversified raw material: anything but soybeans, soybean oil and live animals. */
  DIVERSIFIED_RAW_MATERIAL = 'DIVERSIFIED_RAW_MATERIAL',
}

/** The alínea of Portaria MDA nº 28/2024 (p. 40) each weighting factor is. */
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

/** Where a lever spends: the regional factor it gets (Portaria MDA nº 28/2024, p. 40, d and e; the Sul none). */
export enum LeverRegion {
  /** Norte, Nordeste or Semiárido: factor d (fomento: c), part of requirement 2. */
  PRIORITY_REGION = 'PRIORITY_REGION',
  /** Centro-Oeste or Sudeste outside the Semiárido: factor e. */
  CENTER_WEST_SOUTHEAST = 'CENTER_WEST_SOUTHEAST',
  /** Sul: no regional factor. */
  SOUTH = 'SOUTH',
}
