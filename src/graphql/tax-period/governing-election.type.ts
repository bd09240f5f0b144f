import { Field, Int, ObjectType } from 'type-graphql';
import { TaxRegime } from '../../law/types';
import { DateScalar } from '../scalars';

@ObjectType('GoverningElection', {
  description: 'The regime election that governs a tax period: the one that started last on or before the month (Lei 11.116/2005, art. 4º §§1º, 4º, 5º).',
})
export class GoverningElectionType {
  @Field(() => TaxRegime, { description: 'The regime elected.' }) regime: TaxRegime;
  @Field(() => DateScalar, { description: 'Day the election was made (deadline: the last business day of November, art. 4º §1º).' }) electedOn: string;
  @Field(() => Int, { description: 'First calendar year it governs; later years follow by automatic renewal (art. 4º §5º).' }) effectiveYear: number;
  @Field(() => DateScalar, { description: 'First day it governs: 1 January of effectiveYear, or for a company starting activity the first day of the month of its election (art. 4º §4º).' }) effectiveFrom: string;
}
