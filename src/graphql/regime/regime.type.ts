import { Field, Int, ObjectType } from 'type-graphql';
import { TaxRegime } from '../../law/types';
import { DateScalar } from '../scalars';

@ObjectType('RegimeElection', { simpleResolvers: true, description: 'An election of the special regime or of its end (Lei 11.116/2005 art. 4º §§1º, 4º, 5º).' })
export class RegimeElectionType {
  @Field(() => TaxRegime, { description: 'Regime elected: ad valorem (art. 3º) or special per m³ (art. 4º).' }) regime: TaxRegime;
  @Field(() => DateScalar, { description: 'Day the election was made.' }) electedOn: string;
  @Field({ description: 'Made by a company starting its activity, for the current year (art. 4º §4º).' }) startingActivity: boolean;
  @Field(() => Int, { description: 'First calendar year it governs; later years follow until another election (art. 4º §§1º, 5º).' }) effectiveYear: number;
}
