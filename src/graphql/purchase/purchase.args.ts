import { ArgsType, Field } from 'type-graphql';
import { DateScalar } from '../scalars';
import { PageArgsType } from '../types/page.args';

@ArgsType()
export class PurchasePageArgsType extends PageArgsType {
  @Field(() => DateScalar, { nullable: true, description: 'Only purchases with consumedOn on or after this date.' }) from?: string | null;
  @Field(() => DateScalar, { nullable: true, description: 'Only purchases with consumedOn on or before this date.' }) to?: string | null;
}
