import { IsoDate } from '../dates';
import { Decimal } from '../decimal';
import { Finding } from '../findings';
import { ElectionFacts, RegimeInForce } from '../regime';
import { Standing } from '../seal-standing';
import { BiodieselOrigin, Feedstock, Market, RateCategory, Region, TaxRegime } from '../types';

/**
 * The shapes of a month's PIS/Pasep and Cofins computation (DESIGN §1.1–§1.3): what the service
 * hands over (the month's SQL aggregates) and the figures shown and kept in a closed month's
 * snapshot.
 */

/** One SQL group of the raw material used (consumedOn) in the month: the facts the category needs. */
export interface FeedstockGroup {
  feedstock: Feedstock;
  /** Where the raw material was produced (origin municipality). */
  region: Region;
  semiarid: boolean;
  /** Eligible family farmer or habilitated cooperative on the purchase date (art. 6º §2º, SQL in purchase-facts.sql.ts). */
  familyFarmingOrigin: boolean;
  /** supplierKind OWN_PRODUCTION: no acquisition cost (art. 6º §4º). */
  ownProduction: boolean;
  /** Sum of acquisition costs (0 for own production). */
  cost: Decimal;
  quantityKg: Decimal;
}

/** Raw material acquired (purchasedOn) in the month from anyone but the producer itself (art. 6º §4º). */
export interface ThirdPartyAcquisitions {
  cost: Decimal;
  quantityKg: Decimal;
}

/** One SQL group of the month's sales: segment (0-based index into the segments), origin, market. */
export interface SaleGroup {
  segment: number;
  origin: BiodieselOrigin;
  market: Market;
  volumeM3: Decimal;
  revenue: Decimal;
}

/** A run of days over which the rules in force and the Selo standing do not change (DESIGN §1.3). */
export interface SegmentSpan {
  from: IsoDate;
  to: IsoDate;
  sealRegular: boolean;
  /** The standing on `from` (constant over the segment as far as `regular` goes). */
  standing: Standing;
}

export interface CategoryShareFigures {
  category: RateCategory;
  /**
   * Weight of the category: the valued acquisition cost of its raw material used in the period
   * (art. 6º §3º–§4º), or its quantity in kg under OWN_PRODUCTION_VALUED_BY_QUANTITY. Shown to the
   * centavo (half-even); the computation uses it unrounded.
   */
  cost: Decimal;
  quantityKg: Decimal;
  /** cost / total, shown half-even to 6 decimals. */
  share: Decimal;
  coefficient: Decimal;
  pisPerM3: Decimal;
  cofinsPerM3: Decimal;
  legalBasis: string;
}

export interface TaxSegmentFigures {
  from: IsoDate;
  to: IsoDate;
  sealRegular: boolean;
  sealStanding: Finding;
  mix: CategoryShareFigures[];
  blendedPisPerM3: Decimal | null;
  blendedCofinsPerM3: Decimal | null;
  ownProductionVolumeM3: Decimal;
  importedVolumeM3: Decimal;
  exportedVolumeM3: Decimal;
  domesticRevenue: Decimal;
  pisDue: Decimal;
  cofinsDue: Decimal;
  /** Ad valorem only: the PIS/Pasep fraction of revenue applied (Lei 11.116/2005, art. 3º); null under the special regime. */
  pisRate: Decimal | null;
  /** Ad valorem only: the Cofins fraction of revenue applied (Lei 11.116/2005, art. 3º); null under the special regime. */
  cofinsRate: Decimal | null;
  /** The provisions applied in the segment: the legal bases of the law versions used, then the rules of the blend. */
  legalBasis: string;
}

/** Every figure of a month as shown (and as a closed month's snapshot keeps it). */
export interface TaxPeriodFigures {
  year: number;
  month: number;
  asKnownOn: IsoDate;
  regime: TaxRegime;
  feedstockCost: Decimal;
  ownProductionPricePerKg: Decimal | null;
  segments: TaxSegmentFigures[];
  domesticVolumeM3: Decimal;
  importedVolumeM3: Decimal;
  exportedVolumeM3: Decimal;
  pisDue: Decimal;
  cofinsDue: Decimal;
  totalDue: Decimal;
  warnings: Finding[];
  /** Why this regime governs the month: the governing election (Lei 11.116/2005, art. 4º §§1º, 4º, 5º) or NO_REGIME_ELECTION (art. 3º). */
  regimeBasis: string;
  /** The election that governs the year, null when none is on record. */
  regimeElection: ElectionFacts | null;
}

export interface TaxPeriodInput {
  year: number;
  month: number;
  asKnownOn: IsoDate;
  regime: RegimeInForce;
  segments: SegmentSpan[];
  feedstock: FeedstockGroup[];
  thirdParty: ThirdPartyAcquisitions;
  sales: SaleGroup[];
}

export interface TaxPeriodResult {
  figures: TaxPeriodFigures;
  /** Ids (or legal bases, where a version has no id) of every law version used: part of a closed month's fingerprint. */
  lawVersions: string[];
}

/** The categories in the order of art. 6º (III, II, I, then the general amounts of art. 5º §1º): the order of a mix. */
export const CATEGORY_ORDER = [
  RateCategory.FAMILY_FARMING_PRIORITY_REGION, RateCategory.FAMILY_FARMING, RateCategory.CASTOR_PALM_PRIORITY_REGION, RateCategory.GENERAL,
];

/** The key of a law version used (its id, or its legal basis and dates): part of a closed month's fingerprint. */
export const versionKey = (v: { id?: string; validFrom: string; validUntil: string | null; publishedOn: string; seq?: number; legalBasis: string }) =>
  v.id ?? `${v.legalBasis}|${v.validFrom}|${v.validUntil ?? ''}|${v.publishedOn}|${v.seq ?? ''}`;

