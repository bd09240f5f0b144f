import { Field, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { FuelTax, FuelTaxStatus, OwnProductionValuation, RateCategory, TaxPeriodStatus, TaxRegime } from '../../law/types';
import { ImportContributionsType } from '../biodiesel-import/biodiesel-import.type';
import { DateScalar, DecimalScalar, Money, Quantity } from '../scalars';
import { FindingType } from '../types/common';
import { GoverningElectionType } from './governing-election.type';

@ObjectType('CategoryShare', { description: 'One rate category in the blend of a segment (Decreto 10.527/2020, art. 6º §3º): its weight, share and the amounts in force.' })
export class CategoryShareType {
  @Field(() => RateCategory, { description: 'The rate category (Decreto 10.527/2020, arts. 5º and 6º).' }) category: RateCategory;
  @Money() @Field(() => DecimalScalar, { description: 'Valued acquisition cost of the raw material of this category used in the period.' }) cost: Decimal;
  @Quantity() @Field(() => DecimalScalar, { description: 'Quantity (kg) of the raw material of this category used in the period; the weight itself under OWN_PRODUCTION_VALUED_BY_QUANTITY.' }) quantityKg: Decimal;
  @Field(() => DecimalScalar, { description: 'cost / the segment\'s total, half-even to 6 decimals (computed unrounded).' }) share: Decimal;
  @Field(() => DecimalScalar, { description: 'Reduction coefficient in force (art. 5º; art. 6º §1º).' }) coefficient: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Published PIS/Pasep amount per m³ in force (art. 5º §1º; art. 6º §1º).' }) pisPerM3: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Published Cofins amount per m³ in force (art. 5º §1º; art. 6º §1º).' }) cofinsPerM3: Decimal;
  @Field({ description: 'Legal basis of the version of the rule applied.' }) legalBasis: string;
}

@ObjectType('TaxSegment', { description: 'Days of the period over which the rules in force and the Selo standing are constant.' })
export class TaxSegmentType {
  @Field(() => DateScalar, { description: 'First day of the segment.' }) from: string;
  @Field(() => DateScalar, { description: 'Last day of the segment (inclusive).' }) to: string;
  @Field({ description: 'PIS/Pasep and Cofins are in force over the segment; false from 2027 (EC 132/2023, ADCT art. 126, II), when its dues are 0 and its volumes bear the single-phase taxes on fuels (TaxPeriod.fuelTaxes).' }) pisCofinsInForce: boolean;
  @Field({ description: 'The producer holds the Selo in regular standing over the segment (Decreto 10.527/2020, art. 6º §2º).' }) sealRegular: boolean;
  @Field(() => FindingType, { description: 'Why the Selo is (or is not) in regular standing on the segment\'s first day.' }) sealStanding: FindingType;
  @Field(() => [CategoryShareType], { description: 'Empty under the ad valorem regime.' }) mix: CategoryShareType[];
  @Field(() => DecimalScalar, { nullable: true, description: 'Rates for own-production domestic sales, weighted by cost (art. 6º §3); null under the ad valorem regime.' }) blendedPisPerM3: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Cofins counterpart of blendedPisPerM3 (art. 6º §3º); null under the ad valorem regime. Shown half-even to 6 decimals, computed unrounded.' }) blendedCofinsPerM3: Decimal | null;
  @Quantity() @Field(() => DecimalScalar, { description: 'Own-production biodiesel sold on the domestic market in the segment (m³).' }) ownProductionVolumeM3: Decimal;
  @Quantity() @Field(() => DecimalScalar, { description: 'Imported biodiesel sold on the domestic market in the segment (m³), taxed at GENERAL (art. 6º §5º).' }) importedVolumeM3: Decimal;
  @Quantity() @Field(() => DecimalScalar, { description: 'Biodiesel exported in the segment (m³): no PIS/Cofins.' }) exportedVolumeM3: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Revenue of the segment\'s domestic sales (the ad valorem base).' }) domesticRevenue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'PIS/Pasep due for the segment, half-even to the centavo (ABNT NBR 5891); the month\'s pisDue is the sum of these.' }) pisDue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Cofins due for the segment, half-even to the centavo (ABNT NBR 5891); the month\'s cofinsDue is the sum of these.' }) cofinsDue: Decimal;
  @Field(() => DecimalScalar, { nullable: true, description: 'Ad valorem: the PIS/Pasep fraction of the domestic revenue applied (6,15% is 0.0615; Lei 11.116/2005, art. 3º), from the law version in force; null under the special regime.' }) pisRate: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Ad valorem: the Cofins fraction of the domestic revenue applied (28,32% is 0.2832; Lei 11.116/2005, art. 3º); null under the special regime.' }) cofinsRate: Decimal | null;
  @Field({ description: 'The provisions applied in the segment, from the legal bases of the law versions used: ad valorem, Lei 11.116/2005 art. 3º; special regime, art. 4º, then each category rule of the mix (Decreto 10.527/2020 art. 5º caput and §1º, art. 6º I–III, or the zero window of art. 5º §§2º–4º while in force) and the art. 6º §§3º–5º rules of the blend that applied. Separated by "; ".' }) legalBasis: string;
}

@ObjectType('PeriodRef', { description: 'A tax period named by its year and month.' })
export class PeriodRefType {
  @Field(() => Int, { description: 'Calendar year.' }) year: number;
  @Field(() => Int, { description: 'Calendar month, 1 to 12.' }) month: number;
}

@ObjectType('FuelTaxSegment', { description: 'Days of the month over which a single-phase tax\'s levy and rate do not change; rounded on its own, half-even to the centavo.' })
export class FuelTaxSegmentType {
  @Field(() => DateScalar, { description: 'First day.' }) from: string;
  @Field(() => DateScalar, { description: 'Last day (inclusive).' }) to: string;
  @Field(() => FuelTaxStatus, { description: 'COMPUTED, or RATE_NOT_PUBLISHED while no rate per m³ is published for these days and their base is not 0 m³ (0 m³ × any rate = 0,00).' }) status: FuelTaxStatus;
  @Quantity() @Field(() => DecimalScalar, { description: 'Own-production biodiesel sold on the domestic market in these days (m³).' }) ownProductionVolumeM3: Decimal;
  @Quantity() @Field(() => DecimalScalar, { description: 'Biodiesel imported (cleared) in these days (m³): the tax falls on the import (LC 214/2025, art. 172).' }) importedVolumeM3: Decimal;
  @Quantity() @Field(() => DecimalScalar, { description: 'ownProductionVolumeM3 + importedVolumeM3: the base (art. 173).' }) volumeM3: Decimal;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'The published rate, R$ per m³ (art. 174); null while none is.' }) ratePerM3: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'volumeM3 × ratePerM3, half-even to the centavo (ABNT NBR 5891); null while the rate is not published.' }) due: Decimal | null;
  @Field({ description: 'The levy\'s legal basis and the rate\'s, or who publishes the rate while none is.' }) legalBasis: string;
}

@ObjectType('FuelTaxAssessment', { description: 'A single-phase tax on fuels over the month (Lei Complementar 214/2025, arts. 172–175): the CBS from 2027, the IBS after it. While no rate per m³ is published, the volumes, the formula and RATE_NOT_PUBLISHED with its legal basis are shown and the amount is null: data, never an error.' })
export class FuelTaxAssessmentType {
  @Field(() => FuelTax, { description: 'Which tax.' }) tax: FuelTax;
  @Field(() => FuelTaxStatus, { description: 'COMPUTED when every segment is (its rate published, or its base 0 m³), else RATE_NOT_PUBLISHED.' }) status: FuelTaxStatus;
  @Field({ description: 'How the amount is computed (art. 173 §2º: quantity × specific rate).' }) formula: string;
  @Quantity() @Field(() => DecimalScalar, { description: 'Own-production biodiesel sold on the domestic market (m³).' }) ownProductionVolumeM3: Decimal;
  @Quantity() @Field(() => DecimalScalar, { description: 'Biodiesel imported (cleared) in the month (m³). Imported biodiesel bears the tax at its import, not again when sold (an Interpretation, docs/LAW.md).' }) importedVolumeM3: Decimal;
  @Quantity() @Field(() => DecimalScalar, { description: 'The base: ownProductionVolumeM3 + importedVolumeM3 (m³). Exports bear none.' }) volumeM3: Decimal;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'The rate per m³ when one rate applies over the whole month, else null (see segments).' }) ratePerM3: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Sum of the segments\' amounts; null while any segment\'s rate is not published.' }) due: Decimal | null;
  @Field({ description: 'The legal bases of the levy and of the rates applied (or RATE_NOT_PUBLISHED and who publishes the rate).' }) legalBasis: string;
  @Field(() => [FuelTaxSegmentType], { description: 'The runs of days with the same levy and rate, in order.' }) segments: FuelTaxSegmentType[];
}

@ObjectType('TaxPeriodDifference', { description: 'A figure of a closed month that recomputing it now would change (e.g. after a retroactive act).' })
export class TaxPeriodDifferenceType {
  @Field({ description: 'Path of the figure, e.g. pisDue, segments[1].pisDue, segments[0].mix.GENERAL.pisPerM3, or inputs (same figures, different inputs).' }) field: string;
  @Field(() => String, { nullable: true, description: 'The value in the snapshot.' }) closed: string | null;
  @Field(() => String, { nullable: true, description: 'The value recomputed now.' }) recomputed: string | null;
}

@ObjectType('TaxPeriodEvent', { description: 'A close or a reopening of the month.' })
export class TaxPeriodEventType {
  @Field({ description: 'CLOSED or REOPENED.' }) action: string;
  @Field({ description: 'When (ISO 8601 timestamp).' }) at: string;
  @Field({ description: 'Who (the token subject).' }) by: string;
  @Field(() => String, { nullable: true, description: 'Why it was reopened.' }) reason: string | null;
  @Field(() => String, { nullable: true, description: 'Fingerprint of the inputs at the close.' }) fingerprint: string | null;
}

@ObjectType('TaxPeriod', {
  description: 'A producer\'s PIS/Pasep and Cofins for a calendar month (Lei 11.116/2005, arts. 3º–5º; Decreto 10.527/2020, arts. 5º–6º). Segment dues are rounded half-even to the centavo; the period\'s dues are their sums. A CLOSED month shows its snapshot.',
})
export class TaxPeriodType {
  @Field(() => Int, { description: 'Calendar year.' }) year: number;
  @Field(() => Int, { description: 'Calendar month, 1 to 12.' }) month: number;
  @Field(() => DateScalar, { description: 'The law versions used are those published by this date (docs/LAW.md); for a CLOSED month, the day it was closed.' }) asKnownOn: string;
  @Field(() => TaxPeriodStatus, { description: 'OPEN (computed live) or CLOSED (the snapshot).' }) status: TaxPeriodStatus;
  @Field(() => TaxRegime, { description: 'The regime in force for the month (Lei 11.116/2005, art. 4º §§1º, 5º; §4º: a company starting activity from the month of its election); AD_VALOREM with NO_REGIME_ELECTION when none is on record.' }) regime: TaxRegime;
  @Money() @Field(() => DecimalScalar, { description: 'Valued acquisition cost of the raw material for biodiesel used (consumedOn) in the month, own production valued per art. 6º §4º (without it under OWN_PRODUCTION_VALUED_BY_QUANTITY).' }) feedstockCost: Decimal;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Average third-party price per kg used to value own production (art. 6º §4); null where none was used.' }) ownProductionPricePerKg: Decimal | null;
  @Field(() => OwnProductionValuation, { nullable: true, description: 'How own production used in the month was valued (art. 6º §4º: third-party acquisitions of the month; else the third-party lots used; else kg); null when none was used.' }) ownProductionValuation: OwnProductionValuation | null;
  @Field(() => PeriodRefType, { nullable: true, description: 'No raw material used in the month (stock sold): the earlier month whose blend applies, the latest with raw material used (BLEND_OF_EARLIER_PERIOD); null otherwise.' }) blendPeriod: PeriodRefType | null;
  @Field(() => [TaxSegmentType], { description: 'The segments of the month, in order.' }) segments: TaxSegmentType[];
  @Quantity() @Field(() => DecimalScalar, { description: 'Own-production biodiesel sold on the domestic market.' }) domesticVolumeM3: Decimal;
  @Quantity() @Field(() => DecimalScalar, { description: 'Imported biodiesel sold on the domestic market (taxed at GENERAL, art. 6º §5).' }) importedVolumeM3: Decimal;
  @Quantity() @Field(() => DecimalScalar, { description: 'Biodiesel sold abroad: no PIS/Cofins.' }) exportedVolumeM3: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'PIS/Pasep due for the month: the sum of the segments\' pisDue, each rounded half-even to the centavo (ABNT NBR 5891), so the parts add up to the total.' }) pisDue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Cofins due for the month: the sum of the segments\' cofinsDue, each rounded half-even to the centavo (ABNT NBR 5891), so the parts add up to the total.' }) cofinsDue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'pisDue + cofinsDue.' }) totalDue: Decimal;
  @Field(() => [FindingType], { description: 'NO_REGIME_ELECTION, NO_FEEDSTOCK_IN_PERIOD, BLEND_OF_EARLIER_PERIOD, OWN_PRODUCTION_VALUED_BY_LOTS_USED, OWN_PRODUCTION_VALUED_BY_QUANTITY, SEAL_NOT_REGULAR, RETURN_EXCEEDS_USE (raw material of a category returned beyond its use in the month: it weighs nothing in the blend), IMPORTED_BIODIESEL, RATE_NOT_PUBLISHED, CBS_NOT_REGULATED (PIS/Cofins extinct, no law levying the CBS known yet: not determinable), RETURN_OF_PIS_COFINS_SALE (a return from 2027 of a sale that bore PIS/Cofins: not in the CBS base), SEMIARID_DELIMITATION_OPEN (days before 2017-12-05, whose Semiárido delimitation is not in our sources), PUBLICATION_DATE_OPEN (days whose figures, or an import\'s, rest on a law version whose publication date is not in our sources — applied by the date used, or left out only because that date is after asKnownOn — naming the days, its legal basis and the date used; e.g. the extension of the 2026 window to 31/07/2026).' }) warnings: FindingType[];
  @Field(() => ImportContributionsType, { description: 'The month\'s imports of biodiesel and their PIS/Pasep-Importação and Cofins-Importação (Decreto 10.527/2020, art. 5º §1º and §3º): apart from the domestic sales above, not in totalDue.' }) imports: ImportContributionsType;
  @Field(() => [FuelTaxAssessmentType], { description: 'The single-phase taxes on fuels levied in the month (LC 214/2025, arts. 172–175): the CBS from 2027; empty before. Not in totalDue.' }) fuelTaxes: FuelTaxAssessmentType[];
  @Field({ description: 'sha256 of the inputs of the figures shown: the month\'s aggregates, segments, regime and the law versions used.' }) fingerprint: string;
  @Field(() => Date, { nullable: true, description: 'When the month was closed (CLOSED only).' }) closedAt: Date | null;
  @Field(() => String, { nullable: true, description: 'Who closed it (CLOSED only).' }) closedBy: string | null;
  @Field(() => String, { nullable: true, description: 'Reason of the latest reopening, if any.' }) reopenReason: string | null;
  @Field(() => [TaxPeriodEventType], { description: 'Every close and reopening, oldest first.' }) history: TaxPeriodEventType[];
  @Field({ description: 'CLOSED only: recomputing the month now (as known on asKnownOn of the query, default today) would give other figures or inputs; always false when OPEN.' }) recomputedDiffers: boolean;
  @Field(() => [TaxPeriodDifferenceType], { description: 'What recomputing would change, figure by figure (empty when OPEN or unchanged).' }) differences: TaxPeriodDifferenceType[];
  @Field(() => DateScalar, { nullable: true, description: 'CLOSED only: the asKnownOn of the recomputation compared with.' }) recomputedAsKnownOn: string | null;
  @Field({ description: 'Why this regime governs the month: the governing election with its electedOn and effectiveYear (Lei 11.116/2005, art. 4º §1º, §4º for a company starting activity, §5º automatic renewal), or, with none on record, the default ad valorem regime (art. 3º) and NO_REGIME_ELECTION. Descriptive: recomputedDiffers does not compare it.' }) regimeBasis: string;
  @Field(() => GoverningElectionType, { nullable: true, description: 'The election that governs the month (art. 4º §§1º, 4º, 5º); null when none is on record.' }) regimeElection: GoverningElectionType | null;
}
