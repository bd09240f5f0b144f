import { ArgsType, Field } from 'type-graphql';
import { DateScalar } from '../scalars';
import { PageArgsType } from '../types/page.args';

@ArgsType()
export class ImportPageArgsType extends PageArgsType {
  @Field(() => DateScalar, { nullable: true, description: 'Only imports with clearedOn on or after this date.' }) from?: string | null;
  @Field(() => DateScalar, { nullable: true, description: 'Only imports with clearedOn on or before this date.' }) to?: string | null;
}
