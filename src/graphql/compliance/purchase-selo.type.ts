import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { SealComplianceModel } from '../../law/types';
import { DateScalar, DecimalScalar, Money } from '../scalars';
import { FindingType } from '../types/common';
import { SealAppliedFactorType } from './seal-factor.type';
import { Finding } from '../../law/findings';

export enum SeloSpendingKind { FAMILY_FARMING_ACQUISITION = 'FAMILY_FARMING_ACQUISITION', OTHER_PRODUCT = 'OTHER_PRODUCT', FOMENTO = 'FOMENTO' }
registerEnumType(SeloSpendingKind, {
  name: 'SeloSpendingKind',
  description: 'Which kind of Selo spending an item is (Decreto 10.527/2020, art. 3º §2 I a, b, c).',
  valuesConfig: {
    FAMILY_FARMING_ACQUISITION: { description: 'Raw material for biodiesel bought from family farming (art. 3º §2 I a).' },
    OTHER_PRODUCT: { description: 'Another family-farming product, counted only when produced in the North, Northeast or Semiárido (art. 3º §2 I b).' },
    FOMENTO: { description: 'Fomento, counted only in the North, Northeast or Semiárido (art. 3º §2 I c); never the kind of a purchase.' },
  },
});

@ObjectType('PurchaseSeloStatus', {
  description: 'Whether one purchase from a family farmer or organization counts for the Selo family-farming targets of its purchase year (Decreto 10.527/2020, art. 3º §2 I–III; docs/LAW.md), decided by the same rules as sealCompliance: a purchase that does not count is in sealCompliance(year).excluded with the same findings.',
})
export class PurchaseSeloStatusType {
  @Field(() => Int, { description: 'The calendar year whose targets the purchase is measured for (the year of purchasedOn).' }) year: number;
  @Field(() => DateScalar, { description: 'The law, parameters and minimum prices used are those published by this date.' }) asKnownOn: string;
  @Field({ description: 'The purchase counts toward the year\'s counted spending (art. 3º §2 I a or b).' }) counts: boolean;
  @Field(() => SeloSpendingKind, { description: 'Kind of spending by the purchase\'s purpose: (a) raw material for biodiesel or (b) another product.' }) kind: SeloSpendingKind;
  @Field({ description: 'Produced in the North, Northeast or Semiárido (origin municipality): a counted purchase is part of the priority-region spending (Portaria Interministerial MME/MDA nº 2/2023).' }) priorityRegion: boolean;
  @Field(() => [FindingType], { description: 'Every reason it does not count (NO_CONTRACT, NO_PRIOR_CONTRACT, CONTRACT_NOT_COVERING, PRICE_BELOW_MINIMUM, OUTSIDE_PRIORITY_REGION, SUPPLIER_NOT_ELIGIBLE, REGISTRATION_NOT_VALID, MEMBER_SHARE_BELOW_MINIMUM, DAP_ISSUED_AFTER_CUTOFF); empty when it counts.' }) findings: Finding[];
  @Field(() => SealComplianceModel, { description: 'The model of its year as known on asKnownOn: FLAT or WEIGHTED (Portaria MDA nº 28/2024).' }) model: SealComplianceModel;
  @Money() @Field(() => DecimalScalar, { description: 'Its cost as recorded, in reais.' }) actual: Decimal;
  @Field(() => [SealAppliedFactorType], { description: 'When it counts under the weighted model: each factor applied, by alínea; else empty.' }) factors: SealAppliedFactorType[];
  @Field(() => DecimalScalar, { nullable: true, description: 'When it counts: the product of the factors (1 under the flat model\'s shipped factor); null when it does not count, and while one of its factors has no published figure (alínea a), never read as 1.' }) weight: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'When it counts: actual × weight, to the centavo; null when it does not count.' }) weighted: Decimal | null;
  @Field(() => [FindingType], { description: 'When it counts, what does not exclude it: DAP_ISSUED_AFTER_CUTOFF, PURCHASE_BELOW_MINIMUM_PRICE, WEIGHTING_FACTOR_NOT_PUBLISHED.' }) warnings: Finding[];
}
