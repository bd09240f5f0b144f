import { Field, ID, InputType } from 'type-graphql';
import { SealEventKind } from '../../law/types';
import { DateScalar } from '../scalars';

@InputType('GrantSealInput', { description: 'A Selo grant (ADMIN; Decreto 10.527/2020, art. 4º III).' })
export class GrantSealInput {
  @Field(() => ID, { description: 'Producer granted.' }) producerId: string;
  @Field(() => DateScalar, { description: 'First day of validity.' }) grantedOn: string;
  @Field(() => DateScalar, { description: 'Last day of validity, on or after grantedOn.' }) validUntil: string;
  @Field(() => String, { nullable: true, description: 'Administrative act that granted it. At most 255 characters.' }) act?: string | null;
}

@InputType('SealEventInput', { description: 'An event on a Selo grant (ADMIN; Decreto 10.527/2020, art. 4º I, V).' })
export class SealEventInput {
  @Field(() => ID, { description: 'Grant concerned.' }) grantId: string;
  @Field(() => SealEventKind, { description: 'What happened.' }) kind: SealEventKind;
  @Field(() => DateScalar, { description: 'Day from which it takes effect, not before the grant.' }) effectiveOn: string;
  @Field(() => String, { nullable: true, description: 'Reason given in the act. At most 2000 characters.' }) reason?: string | null;
  @Field(() => DateScalar, { nullable: true, description: 'For RENEWED only (required there): the new end of validity, after the current one.' }) validUntil?: string | null;
}
