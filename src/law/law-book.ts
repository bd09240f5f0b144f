import { Decimal } from './decimal';
import { IsoDate } from './dates';
import { Version } from './dated';
import { RateCategory, Region } from './types';

/** A coefficient and the per-m³ amounts published with it (Decreto 10.527/2020, arts. 5º, 6º). */
export interface CoefficientRuleValue {
  category: RateCategory;
  coefficient: Decimal;
  pisPerM3: Decimal;
  cofinsPerM3: Decimal;
}

/** Percentages as fractions: 6,15% is 0.0615. */
export interface AdValoremRates { pis: Decimal; cofins: Decimal }
export interface PerM3Amounts { pisPerM3: Decimal; cofinsPerM3: Decimal }

/** Kinds of counted Selo spending (Decreto 10.527/2020, art. 3º §2 I a, b, c). */
export type SpendingKind = 'FAMILY_FARMING_ACQUISITION' | 'OTHER_PRODUCT' | 'FOMENTO';

/** Where a plant stands, for the regional minimum shares (art. 3º §3º I). */
export interface PlantLocation { region: Region; semiarid: boolean }

/**
 * Every dated legal figure the engine needs, answered for a date as known on another
 * (DESIGN §1.4). Implementations are pure: built from version lists loaded by a service.
 * Each accessor throws NoRuleInForceError when nothing is in force.
 */
export interface LawBook {
  /** Exactly the four category rules in force on `on` as known on `asKnownOn`. */
  coefficientRules(on: IsoDate, asKnownOn: IsoDate): Record<RateCategory, Version<CoefficientRuleValue>>;
  /** Lei 11.116/2005, art. 3º. */
  adValoremRates(on: IsoDate, asKnownOn: IsoDate): Version<AdValoremRates>;
  /** Lei 11.116/2005, art. 4º: the per-m³ amounts before the reduction coefficients. */
  specialRegimeBase(on: IsoDate, asKnownOn: IsoDate): Version<PerM3Amounts>;
  /** Throws NoRuleInForceError from 2027-01-01 (EC 132/2023, ADCT art. 126, II). */
  assertPisCofinsInForce(on: IsoDate, asKnownOn: IsoDate): void;
  /** Decreto 10.527/2020, art. 4º VI. */
  cooperativeMinFamilyFarmerShare(on: IsoDate, asKnownOn: IsoDate): Version<Decimal>;
  /** Decreto 10.527/2020, art. 3º §3º I–II: minimum counted spending / base for the plant's region. */
  minimumSpendingShare(plant: PlantLocation, on: IsoDate, asKnownOn: IsoDate): Version<Decimal>;
  /** Portaria Interministerial MME/MDA nº 2/2023: minimum part of counted spending in the priority region. */
  priorityRegionMinShare(on: IsoDate, asKnownOn: IsoDate): Version<Decimal>;
  /** Weighting factor of a kind of counted spending (default 1). */
  weightingFactor(kind: SpendingKind, on: IsoDate, asKnownOn: IsoDate): Version<Decimal>;
}
