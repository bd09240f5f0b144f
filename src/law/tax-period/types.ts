import { IsoDate } from '../dates';
import { Decimal } from '../decimal';
import { Finding } from '../findings';
import { ElectionFacts, RegimeInForce } from '../regime';
import { Standing } from '../seal-standing';
import { BiodieselOrigin, Feedstock, FuelTax, FuelTaxStatus, Market, OwnProductionValuation, RateCategory, Region, TaxRegime } from '../types';

/** A month's PIS/Pasep and Cofins: the SQL aggregates in, the figures (and snapshot) out. */

/** One SQL group of the raw material used (consumedOn) in the month: the facts the category needs. */
export interface FeedstockGroup {
  feedstock: Feedstock;
  region: Region;
  semiarid: boolean;
  /** Art. 6º §2º, on the purchase date. */
  familyFarmingOrigin: boolean;
  /** No acquisition cost (art. 6º §4º). */
  ownProduction: boolean;
  cost: Decimal;
  quantityKg: Decimal;
}

/** Raw material acquired (purchasedOn) in the month from anyone but the producer itself (art. 6º §4º). */
export interface ThirdPartyAcquisitions {
  cost: Decimal;
  quantityKg: Decimal;
}

/** One SQL group of the month's sales; segment indexes the segments. */
export interface SaleGroup {
  segment: number;
  origin: BiodieselOrigin;
  market: Market;
  volumeM3: Decimal;
  revenue: Decimal;
  /**
   * Only on returns dated where PIS/Pasep and Cofins are extinct of sales made while they were in
   * force: the sales' month. They bore no CBS, so they never reduce its base (`saleGroups`).
   */
  returnOf?: PeriodRef;
}

/** Due on customs clearance (Decreto 10.527/2020, art. 5º §1º). */
export interface ImportFacts {
  id: string;
  /** DI or DUIMP, unique per producer. */
  declarationNumber: string;
  clearedOn: IsoDate;
  volumeM3: Decimal;
}

/** For a month that sold from stock (art. 6º §3º; docs/LAW.md). */
export interface EarlierFeedstock {
  year: number;
  month: number;
  feedstock: FeedstockGroup[];
  thirdParty: ThirdPartyAcquisitions;
}

/** Days with the same rules in force and Selo standing. */
export interface SegmentSpan {
  from: IsoDate;
  to: IsoDate;
  /** False from 2027 (EC 132/2023, ADCT art. 126, II). */
  pisCofins: boolean;
  sealRegular: boolean;
  standing: Standing;
}

export interface CategoryShareFigures {
  category: RateCategory;
  /** Weight (art. 6º §3º–§4º; kg under OWN_PRODUCTION_VALUED_BY_QUANTITY); computed unrounded. */
  cost: Decimal;
  quantityKg: Decimal;
  share: Decimal;
  coefficient: Decimal;
  pisPerM3: Decimal;
  cofinsPerM3: Decimal;
  legalBasis: string;
}

export interface TaxSegmentFigures {
  from: IsoDate;
  to: IsoDate;
  /** Absent in older snapshots (= true). */
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
  /** Ad valorem only (Lei 11.116/2005, art. 3º). */
  pisRate: Decimal | null;
  cofinsRate: Decimal | null;
  legalBasis: string;
}

/** Decreto 10.527/2020, art. 5º §1º and §3º; art. 6º §5º. */
export interface ImportLineFigures {
  id: string;
  declarationNumber: string;
  clearedOn: IsoDate;
  volumeM3: Decimal;
  /** Null where PIS/Cofins are extinct. */
  pisPerM3: Decimal | null;
  cofinsPerM3: Decimal | null;
  /** Each declaration rounded on its own. */
  pisDue: Decimal;
  cofinsDue: Decimal;
  legalBasis: string;
  /** PUBLICATION_DATE_OPEN where the amounts rest on a version whose publication date is open. */
  warnings: Finding[];
}

export interface ImportContributionsFigures {
  volumeM3: Decimal;
  pisDue: Decimal;
  cofinsDue: Decimal;
  totalDue: Decimal;
  imports: ImportLineFigures[];
}

/** LC 214/2025, arts. 173–174. */
export interface FuelTaxAmounts {
  status: FuelTaxStatus;
  ownProductionVolumeM3: Decimal;
  importedVolumeM3: Decimal;
  volumeM3: Decimal;
  /** Null while unpublished, or for a month whose runs have several rates. */
  ratePerM3: Decimal | null;
  /** Rounded per run, then summed. */
  due: Decimal | null;
  legalBasis: string;
}

export interface FuelTaxSegmentFigures extends FuelTaxAmounts {
  from: IsoDate;
  to: IsoDate;
}

/** LC 214/2025, arts. 172–175. */
export interface FuelTaxFigures extends FuelTaxAmounts {
  tax: FuelTax;
  formula: string;
  segments: FuelTaxSegmentFigures[];
}

export interface PeriodRef {
  year: number;
  month: number;
}

export interface TaxPeriodFigures {
  year: number;
  month: number;
  asKnownOn: IsoDate;
  regime: TaxRegime;
  feedstockCost: Decimal;
  ownProductionPricePerKg: Decimal | null;
  /** Art. 6º §4º and its fallbacks. Absent in older snapshots. */
  ownProductionValuation?: OwnProductionValuation | null;
  /** BLEND_OF_EARLIER_PERIOD. Absent in older snapshots. */
  blendPeriod?: PeriodRef | null;
  segments: TaxSegmentFigures[];
  domesticVolumeM3: Decimal;
  importedVolumeM3: Decimal;
  exportedVolumeM3: Decimal;
  pisDue: Decimal;
  cofinsDue: Decimal;
  totalDue: Decimal;
  warnings: Finding[];
  /** Lei 11.116/2005, art. 4º §§1º, 4º, 5º, or art. 3º. */
  regimeBasis: string;
  regimeElection: GoverningElectionFacts | null;
  /** Absent in older snapshots. */
  imports?: ImportContributionsFigures;
  /** Absent in older snapshots. */
  fuelTaxes?: FuelTaxFigures[];
}

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
  imports?: ImportFacts[];
  earlier?: EarlierFeedstock | null;
}

export interface TaxPeriodResult {
  figures: TaxPeriodFigures;
  /** Part of a closed month's fingerprint. */
  lawVersions: string[];
}

/** The order of art. 6º (III, II, I), then art. 5º §1º. */
export const CATEGORY_ORDER = [
  RateCategory.FAMILY_FARMING_PRIORITY_REGION, RateCategory.FAMILY_FARMING, RateCategory.CASTOR_PALM_PRIORITY_REGION, RateCategory.GENERAL,
];

export const versionKey = (v: { id?: string; validFrom: string; validUntil: string | null; publishedOn: string; seq?: number; legalBasis: string }) =>
  v.id ?? `${v.legalBasis}|${v.validFrom}|${v.validUntil ?? ''}|${v.publishedOn}|${v.seq ?? ''}`;

