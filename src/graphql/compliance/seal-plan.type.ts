import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Finding } from '../../law/findings';
import { LeverRegion } from '../../law/types';
import { Feedstock, Region, SealComplianceModel } from '../../law/types';
import { DateScalar, DecimalScalar, Money } from '../scalars';
import { FindingType } from '../types/common';
import { SealComplianceType } from './compliance.type';
import { SeloSpendingKind } from './purchase-selo.type';
import { SealAppliedFactorType } from './seal-factor.type';

registerEnumType(LeverRegion, {
  name: 'SealLeverRegion',
  description: 'Where a lever of sealPlan spends, by the regional factor it gets (Portaria MDA nº 28/2024, p. 40).',
  valuesConfig: {
    PRIORITY_REGION: { description: 'Norte, Nordeste or Semiárido: factor d (fomento: c); part of requirement 2.' },
    CENTER_WEST_SOUTHEAST: { description: 'Centro-Oeste or Sudeste outside the Semiárido: factor e.' },
    SOUTH: { description: 'Sul: no regional factor.' },
  },
});

export enum SealLeverKind { ACQUISITION = 'ACQUISITION', FOMENTO = 'FOMENTO' }
registerEnumType(SealLeverKind, {
  name: 'SealLeverKind',
  description: 'Acquisitions from family farming (art. 3º §2 I a) or fomento (art. 3º §2 I c).',
  valuesConfig: { ACQUISITION: { description: 'Acquisitions of raw material from family farming.' }, FOMENTO: { description: 'Fomento in the priority region.' } },
});

@InputType('HypotheticalSpendingInput', { description: 'Spending not recorded, evaluated by sealPlan as if it were (nothing is written). Read as counting spending: an eligible supplier under a conforming prior contract; its kind, place, date, product and organization weigh it, and the law\'s other conditions (an organization below the member minimum, other products or fomento outside the priority region) still exclude it.' })
export class HypotheticalSpendingInput {
  @Field(() => SeloSpendingKind, { description: 'Raw material for biodiesel (a), another product (b) or fomento (c).' }) kind: SeloSpendingKind;
  @Field(() => DecimalScalar, { description: 'Actual value in reais, positive.' }) amount: Decimal;
  @Field(() => DateScalar, { description: 'Its date, within the year planned: the region and the parameters are those of this day.' }) on: string;
  @Field({ description: 'IBGE code of the origin municipality (acquisition) or of the fomento\'s municipality; its Semiárido membership is judged on `on`.' }) municipalityCode: string;
  @Field(() => Feedstock, { nullable: true, description: 'The product of an acquisition (required): factor f is anything but SOYBEAN, SOYBEAN_OIL and LIVE_ANIMALS.' }) product?: Feedstock | null;
  @Field(() => ID, { nullable: true, description: 'An acquisition via this organization: its family-farmer members decide factor b (up to 75%) or a, and its habilitation (art. 4º VI); none: from a family farmer.' }) organizationId?: string | null;
  @Field(() => String, { nullable: true, description: 'A name for the item, shown back.' }) label?: string | null;
}

@ObjectType('SealPlanItem', { description: 'A hypothetical item as sealPlan weighs it.' })
export class SealPlanItemType {
  @Field(() => Int, { description: 'Its position in `hypothetical`, from 0.' }) index: number;
  @Field(() => String, { nullable: true, description: 'The label given.' }) label: string | null;
  @Field(() => SeloSpendingKind, { description: 'Kind of spending.' }) kind: SeloSpendingKind;
  @Field({ description: 'It would count toward the year.' }) counts: boolean;
  @Field(() => Region, { description: 'Region of its municipality.' }) region: Region;
  @Field({ description: 'Its municipality lies in the Semiárido on its date.' }) semiarid: boolean;
  @Field({ description: 'North, Northeast or Semiárido (requirement 2).' }) priorityRegion: boolean;
  @Field(() => Feedstock, { nullable: true, description: 'Product of an acquisition.' }) product: Feedstock | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Family-farmer members / members of its organization, 6 decimals; null from a family farmer or for fomento.' }) organizationShare: Decimal | null;
  @Money() @Field(() => DecimalScalar, { description: 'Actual value.' }) actual: Decimal;
  @Field(() => [SealAppliedFactorType], { description: 'Each factor applied, by alínea (weighted model).' }) factors: SealAppliedFactorType[];
  @Field(() => DecimalScalar, { nullable: true, description: 'Product of the factors with a published figure; null when it would not count.' }) weight: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'actual × weight, to the centavo; null when it would not count.' }) weighted: Decimal | null;
  @Field(() => [FindingType], { description: 'Why it would not count, or what would not exclude it.' }) findings: Finding[];
}

@ObjectType('SealPlanShortfall', { description: 'A requirement\'s shortfall with the hypothetical items in: requirement 1 in weighted reais, requirement 2 in actual reais spent in the priority region.' })
export class SealPlanShortfallType {
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Weighted reais missing (requirement 1), rounded up to the centavo; null for requirement 2, and while the minimum weighted percentage is not published.' }) weighted: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Actual reais missing in the priority region (requirement 2), rounded up to the centavo; null for requirement 1 (see the levers).' }) actual: Decimal | null;
  @Field(() => Boolean, { nullable: true, description: 'Met; null while not established.' }) met: boolean | null;
  @Field({ description: 'Legal basis of the minimum.' }) legalBasis: string;
}

@ObjectType('SealPlanLever', { description: 'A way to close the shortfall, and the actual spending it needs alone (rounded up to the centavo; 0 when already met).' })
export class SealPlanLeverType {
  @Field(() => SealLeverKind, { description: 'Acquisition or fomento.' }) kind: SealLeverKind;
  @Field(() => LeverRegion, { description: 'Where it spends.' }) region: LeverRegion;
  @Field(() => Boolean, { nullable: true, description: 'Acquisitions: diversified raw material (factor f) or not; null for fomento.' }) diversified: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Acquisitions: via an organization with up to 75% family-farmer members (factor b), or from family farmers; null for fomento.' }) viaOrganizationUpTo75: boolean | null;
  @Field(() => [SealAppliedFactorType], { description: 'Its factors, by alínea (empty under the flat model).' }) factors: SealAppliedFactorType[];
  @Field(() => DecimalScalar, { description: 'Product of its factors.' }) weight: Decimal;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Actual reais that alone reach requirement 1: weighted shortfall / weight; null while the minimum is not published.' }) closesMinimumShare: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Actual reais that alone reach requirement 2; null when this lever cannot (outside the priority region).' }) closesPriorityRegion: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Actual reais that alone reach both; null when this lever cannot, or requirement 1 is not established.' }) closesBoth: Decimal | null;
}

@ObjectType('SealPlan', { description: 'What closes a Selo year\'s shortfall (docs/LAW.md): the year as recorded, the same year with the hypothetical items evaluated as if recorded (its verdict and balance), each requirement\'s shortfall, and every lever with the actual spending that closes it alone. Nothing is written.' })
export class SealPlanType {
  @Field(() => Int, { description: 'Calendar year.' }) year: number;
  @Field(() => DateScalar, { description: 'Law as known on this date.' }) asKnownOn: string;
  @Field(() => SealComplianceModel, { description: 'The model of the year.' }) model: SealComplianceModel;
  @Field(() => SealComplianceType, { description: 'The year as recorded.' }) recorded: SealComplianceType;
  @Field(() => SealComplianceType, { description: 'The year with the hypothetical items, as if recorded: its verdict and its balance (balance.carriedOut) toward the year after.' }) withHypothetical: SealComplianceType;
  @Field(() => [SealPlanItemType], { description: 'Each hypothetical item, weighed.' }) hypothetical: SealPlanItemType[];
  @Field(() => SealPlanShortfallType, { description: 'Requirement 1 with the hypothetical items in.' }) minimumShare: SealPlanShortfallType;
  @Field(() => SealPlanShortfallType, { description: 'Requirement 2 with the hypothetical items in.' }) priorityRegion: SealPlanShortfallType;
  @Field(() => [SealPlanLeverType], { description: 'Acquisitions by region × diversified or not × via an organization up to 75% or not, then fomento in the priority region.' }) levers: SealPlanLeverType[];
}
