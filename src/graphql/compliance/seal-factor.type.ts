import { Field, ObjectType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { SealWeightingFactor } from '../../law/types';
import { DecimalScalar } from '../scalars';

@ObjectType('SealAppliedFactor', { description: 'A weighting factor applied to an item of Selo spending (Portaria MDA nº 28/2024, p. 40).' })
export class SealAppliedFactorType {
  @Field(() => SealWeightingFactor, { description: 'Which factor.' }) factor: SealWeightingFactor;
  @Field({ description: 'Its alínea in the Portaria: a, b, c, d, e or f.' }) alinea: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'The figure in force on the item\'s dates as known on asKnownOn; null while it applies but none is published (alínea a): the item is then weighed without it (WEIGHTING_FACTOR_NOT_PUBLISHED).' }) value: Decimal | null;
  @Field({ description: 'Legal basis of the figure.' }) legalBasis: string;
}
