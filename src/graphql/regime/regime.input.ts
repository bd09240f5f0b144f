import { Field, ID, InputType } from 'type-graphql';
import { TaxRegime } from '../../law/types';
import { DateScalar } from '../scalars';

@InputType('ElectRegimeInput', { description: 'An election of the regime (Lei 11.116/2005, art. 4º): ADMIN, or the PRODUCER for itself.' })
export class ElectRegimeInput {
  @Field(() => ID, { description: 'Producer electing.' }) producerId: string;
  @Field(() => TaxRegime, { description: 'Regime elected.' }) regime: TaxRegime;
  @Field(() => DateScalar, { description: 'Day of the election: by the last business day of November it applies to the next year (art. 4º §1º). From 2005-05-18 (Lei 11.116/2005) to 31 December of the next year: a later date is not an election made yet.' }) electedOn: string;
  @Field({ nullable: true, defaultValue: false, description: 'Art. 4º §4º: a company starting activity elects in its first month, for that month to the year\'s end (never earlier months); refused (CONFLICT ALREADY_SOLD_IN_YEAR) when the producer already sold biodiesel in an earlier month of that year; sales earlier in the election\'s own month are taxed under it.' }) startingActivity?: boolean;
}
