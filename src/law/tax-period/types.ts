import { IsoDate } from '../dates';
import { Decimal } from '../decimal';
import { Finding } from '../findings';
import { ElectionFacts, RegimeInForce } from '../regime';
import { Standing } from '../seal-standing';
import { BiodieselOrigin, Feedstock, FuelTax, FuelTaxStatus, Market, OwnProductionValuation, RateCategory, Region, TaxRegime } from '../types';

/**
 * The shapes of a month's PIS/Pasep and Cofins computation (docs/LAW.md): what the service
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

/** One import of biodiesel: its customs clearance (the date its contributions are due on) and volume (Decreto 10.527/2020, art. 5º §1º). */
export interface ImportFacts {
  id: string;
  /** The import declaration's number (DI or DUIMP), unique per producer. */
  declarationNumber: string;
  /** Date of customs clearance (desembaraço aduaneiro). */
  clearedOn: IsoDate;
  volumeM3: Decimal;
}

/** The raw material of the latest earlier month with raw material used, for a month that sold from stock (docs/LAW.md). */
export interface EarlierFeedstock {
  year: number;
  month: number;
  feedstock: FeedstockGroup[];
  thirdParty: ThirdPartyAcquisitions;
}

/** A run of days over which the rules in force and the Selo standing do not change (docs/LAW.md). */
export interface SegmentSpan {
  from: IsoDate;
  to: IsoDate;
  /** PIS/Pasep and Cofins are in force over the segment (false from 2027, EC 132/2023, ADCT art. 126, II). */
  pisCofins: boolean;
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
  /** PIS/Pasep and Cofins in force over the segment; when false its dues are 0 and its volumes bear the single-phase taxes on fuels. Absent in snapshots taken before it was kept (= true). */
  pisCofinsInForce?: boolean;
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

/** The PIS/Pasep-Importação and Cofins-Importação of one import (Decreto 10.527/2020, art. 5º §1º and §3º; art. 6º §5º). */
export interface ImportLineFigures {
  id: string;
  declarationNumber: string;
  clearedOn: IsoDate;
  volumeM3: Decimal;
  /** The general amounts in force on clearedOn; null where PIS/Cofins are extinct. */
  pisPerM3: Decimal | null;
  cofinsPerM3: Decimal | null;
  /** volume × amount, half-even to the centavo (each declaration rounded on its own). */
  pisDue: Decimal;
  cofinsDue: Decimal;
  legalBasis: string;
}

/** The month's imports and their contributions: a block of its own, apart from the sales of the domestic market. */
export interface ImportContributionsFigures {
  volumeM3: Decimal;
  pisDue: Decimal;
  cofinsDue: Decimal;
  totalDue: Decimal;
  imports: ImportLineFigures[];
}

/** A single-phase tax's base and amount, over a run of days or the month (LC 214/2025, arts. 173–174). */
export interface FuelTaxAmounts {
  status: FuelTaxStatus;
  /** Own-production biodiesel sold on the domestic market (m³). */
  ownProductionVolumeM3: Decimal;
  /** Biodiesel imported (cleared) (m³). */
  importedVolumeM3: Decimal;
  volumeM3: Decimal;
  /** The published rate per m³, null while none is (RATE_NOT_PUBLISHED); for the month, null too when its runs have several rates. */
  ratePerM3: Decimal | null;
  /** volume × rate, half-even to the centavo per run, summed for the month; null while a rate is not published. */
  due: Decimal | null;
  legalBasis: string;
}

/** A run of days over which a single-phase tax's levy and rate do not change. */
export interface FuelTaxSegmentFigures extends FuelTaxAmounts {
  from: IsoDate;
  to: IsoDate;
}

/** A single-phase tax on fuels over the month (LC 214/2025, arts. 172–175): the volumes, the formula, and the amount once the rate is published. */
export interface FuelTaxFigures extends FuelTaxAmounts {
  tax: FuelTax;
  formula: string;
  segments: FuelTaxSegmentFigures[];
}

/** A year and month (a tax period). */
export interface PeriodRef {
  year: number;
  month: number;
}

/** Every figure of a month as shown (and as a closed month's snapshot keeps it). */
export interface TaxPeriodFigures {
  year: number;
  month: number;
  asKnownOn: IsoDate;
  regime: TaxRegime;
  feedstockCost: Decimal;
  ownProductionPricePerKg: Decimal | null;
  /** How own production used in the month was valued (art. 6º §4º and its fallbacks); null when none was used. Absent in older snapshots. */
  ownProductionValuation?: OwnProductionValuation | null;
  /** The month whose raw material gave the blend when none was used in this one (BLEND_OF_EARLIER_PERIOD). Absent in older snapshots. */
  blendPeriod?: PeriodRef | null;
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
  /** The election that governs the month, null when none is on record. */
  regimeElection: GoverningElectionFacts | null;
  /** The month's imports and their PIS/Pasep-Importação and Cofins-Importação. Absent in older snapshots. */
  imports?: ImportContributionsFigures;
  /** The single-phase taxes on fuels levied in the month (CBS from 2027). Absent in older snapshots. */
  fuelTaxes?: FuelTaxFigures[];
}

/** The governing election as a month shows it: the election and the first day it governs. */
export interface GoverningElectionFacts extends ElectionFacts {
  /** Absent in older snapshots. */
  effectiveFrom?: IsoDate;
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
  /** The month's imports (by clearedOn); none when absent. */
  imports?: ImportFacts[];
  /** For a month with no raw material used: the latest earlier month with some (null or absent when there is none, or it was not needed). */
  earlier?: EarlierFeedstock | null;
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

