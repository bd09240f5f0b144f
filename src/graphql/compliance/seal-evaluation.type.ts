import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DateScalar } from '../scalars';

@InputType('RecordSealEvaluationInput', { description: 'The evaluation of a producer\'s Selo year as the ministry communicated it (Portaria MDA nº 28/2024, art. 58): ADMIN only.' })
export class RecordSealEvaluationInput {
  @Field(() => ID, { description: 'The producer evaluated.' }) producerId: string;
  @Field(() => Int, { description: 'The calendar year evaluated.' }) year: number;
  @Field(() => DateScalar, { description: 'The day the result was communicated to the producer: after the evaluated year ends. The year\'s balance counts toward the year after the communication.' }) communicatedOn: string;
  @Field(() => String, { nullable: true, description: 'Anything an auditor should know (e.g. the ministry\'s letter). At most 2000 characters.' }) note?: string | null;
}

@ObjectType('SealEvaluation', { description: 'The evaluation of a producer\'s Selo year, communicated on a date (Portaria MDA nº 28/2024, art. 58).' })
export class SealEvaluationType {
  @Field(() => ID, { description: 'Id.' }) id: string;
  @Field(() => ID, { description: 'The producer evaluated.' }) producerId: string;
  @Field(() => Int, { description: 'The calendar year evaluated.' }) year: number;
  @Field(() => DateScalar, { description: 'The day the result was communicated.' }) communicatedOn: string;
  @Field(() => String, { nullable: true, description: 'Note.' }) note: string | null;
}
