import { Field, ID, ObjectType } from 'type-graphql';
import { SealEventKind } from '../../law/types';
import { DateScalar } from '../scalars';

@ObjectType('SealEvent', { simpleResolvers: true, description: 'Suspension, reinstatement, cancellation or renewal of a Selo grant (Decreto 10.527/2020, art. 4º I, V).' })
export class SealEventType {
  @Field(() => SealEventKind, { description: 'What happened.' }) kind: SealEventKind;
  @Field(() => DateScalar, { description: 'Day from which it takes effect.' }) effectiveOn: string;
  @Field(() => String, { nullable: true, description: 'Reason given in the act.' }) reason: string | null;
  @Field(() => DateScalar, { nullable: true, description: 'New end of validity, for RENEWED.' }) validUntil: string | null;
}

@ObjectType('SealGrant', { simpleResolvers: true, description: 'Concession of the Selo Biocombustível Social to a producer by administrative act (Decreto 10.527/2020, art. 4º III, V).' })
export class SealGrantType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => DateScalar, { description: 'First day of validity.' }) grantedOn: string;
  @Field(() => DateScalar, { description: 'Last day of the original validity (RENEWED events move it).' }) validUntil: string;
  @Field(() => String, { nullable: true, description: 'Administrative act that granted it.' }) act: string | null;
}
