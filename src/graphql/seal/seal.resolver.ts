import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Producer, SealEvent, SealGrant } from '../../domain';
import { Context } from '../context';
import { ProducerType } from '../producer/producer.type';
import { GrantSealInput, SealEventInput } from './seal.input';
import { SealEventType, SealGrantType } from './seal.type';
import { Sql } from '../compiled/annotations';

@Resolver(() => SealGrantType)
export class SealGrantResolver {
  @Sql({ kind: 'lookup', entity: SealGrant, arg: 'id' })
  @Query(() => SealGrantType, { nullable: true, description: 'A Selo grant by id; another producer\'s grant is NOT_FOUND for a PRODUCER.' })
  sealGrant(@Arg('id', () => ID, { description: 'Id of the grant.' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.seals.get(ctx.actor, id);
  }

  @Sql({ kind: 'records', entity: SealGrant, arg: 'producerId', fk: 'producerId', order: ['grantedOn', 'id'] })
  @Query(() => [SealGrantType], { description: 'A producer\'s Selo grants, by grantedOn; an unknown or another producer is NOT_FOUND.' })
  sealGrants(@Arg('producerId', () => ID, { description: 'Producer whose grants to list.' }) producerId: string, @Ctx() ctx: Context) {
    return ctx.services.seals.grantsOfProducer(ctx.actor, producerId);
  }

  @Mutation(() => SealGrantType, { description: 'Grant the Selo to a producer (ADMIN; Decreto 10.527/2020, art. 4º III).' })
  grantSeal(@Arg('input', { description: 'Producer, validity and act of the grant.' }) input: GrantSealInput, @Ctx() ctx: Context) {
    return ctx.services.seals.grant(ctx.actor, input);
  }

  @Mutation(() => SealGrantType, { description: 'Record a suspension, reinstatement, cancellation or renewal of a grant (ADMIN; art. 4º I, V); returns the grant.' })
  recordSealEvent(@Arg('input', { description: 'Grant, kind and effective day of the event.' }) input: SealEventInput, @Ctx() ctx: Context) {
    return ctx.services.seals.recordEvent(ctx.actor, input);
  }

  @Sql({ kind: 'one', entity: Producer, fk: 'producerId' })
  @FieldResolver(() => ProducerType, { description: 'Producer holding the grant.' })
  producer(@Root() g: SealGrant, @Ctx() ctx: Context) {
    return ctx.loaders.producer.load(g.producerId);
  }

  @Sql({ kind: 'many', entity: SealEvent, fk: 'grantId', order: ['id'] })
  @FieldResolver(() => [SealEventType], { description: 'Events on the grant, in the order they were recorded.' })
  events(@Root() g: SealGrant, @Ctx() ctx: Context) {
    return ctx.loaders.sealEventsByGrant.load(g.id);
  }
}

/** Producer.sealGrants, one statement for a whole page of producers. */
@Resolver(() => ProducerType)
export class ProducerSealGrantsResolver {
  @Sql({ kind: 'many', entity: SealGrant, fk: 'producerId', order: ['grantedOn', 'id'] })
  @FieldResolver(() => [SealGrantType], { description: 'Selo grants of the producer, by grantedOn (Decreto 10.527/2020, art. 4º III).' })
  sealGrants(@Root() p: Producer, @Ctx() ctx: Context) {
    return ctx.loaders.sealGrantsByProducer.load(p.id);
  }
}
