import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Producer, RegimeElection } from '../../domain';
import { DateScalar } from '../scalars';
import { Context } from '../context';
import { ProducerType } from '../producer/producer.type';
import { FindingType } from '../types/common';
import { ElectRegimeInput } from './regime.input';
import { RegimeElectionType } from './regime.type';
import { Sql } from '../compiled/annotations';

@Resolver(() => RegimeElectionType)
export class RegimeElectionResolver {
  @Sql({ kind: 'records', entity: RegimeElection, arg: 'producerId', fk: 'producerId', order: ['effectiveYear', 'id'] })
  @Query(() => [RegimeElectionType], { description: 'A producer\'s regime elections, by effectiveYear; an unknown or another producer is NOT_FOUND.' })
  regimeElections(@Arg('producerId', () => ID, { description: 'Producer whose elections to list.' }) producerId: string, @Ctx() ctx: Context) {
    return ctx.services.regimes.electionsOfProducer(ctx.actor, producerId);
  }

  @Mutation(() => RegimeElectionType, {
    description: 'Elect the regime (Lei 11.116/2005, art. 4º): ADMIN, or the PRODUCER for itself. A second election for a year already elected is CONFLICT/REGIME_ALREADY_ELECTED; a company starting activity (art. 4º §4º) that already sold biodiesel that year before the election is CONFLICT/ALREADY_SOLD_IN_YEAR, with extensions.firstSaleOn.',
  })
  electRegime(@Arg('input', { description: 'Producer, regime and day of the election.' }) input: ElectRegimeInput, @Ctx() ctx: Context) {
    return ctx.services.regimes.elect(ctx.actor, input);
  }

  @FieldResolver(() => [FindingType], { description: 'What the law noticed: ELECTION_AFTER_DEADLINE when made after the last business day of November (art. 4º §1º).' })
  findings(@Root() e: RegimeElection, @Ctx() ctx: Context) {
    return ctx.services.regimes.findingsOf(e);
  }

  @FieldResolver(() => DateScalar, { description: 'First day it governs: 1 January of effectiveYear (art. 4º §1º); for a company starting activity, the first day of the month of the election, to the year\'s end and renewed after (art. 4º §§4º–5º).' })
  effectiveFrom(@Root() e: RegimeElection, @Ctx() ctx: Context) {
    return ctx.services.regimes.effectiveFrom(e);
  }

  @Sql({ kind: 'one', entity: Producer, fk: 'producerId' })
  @FieldResolver(() => ProducerType, { description: 'Producer that elected.' })
  producer(@Root() e: RegimeElection, @Ctx() ctx: Context) {
    return ctx.loaders.producer.load(e.producerId);
  }
}

/** Producer.regimeElections, one statement for a whole page of producers. */
@Resolver(() => ProducerType)
export class ProducerRegimeElectionsResolver {
  @Sql({ kind: 'many', entity: RegimeElection, fk: 'producerId', order: ['effectiveYear', 'id'] })
  @FieldResolver(() => [RegimeElectionType], { description: 'Regime elections of the producer, by effectiveYear (Lei 11.116/2005, art. 4º §§1º, 5º).' })
  regimeElections(@Root() p: Producer, @Ctx() ctx: Context) {
    return ctx.loaders.regimeElectionsByProducer.load(p.id);
  }
}
