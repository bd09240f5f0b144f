import { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Municipality, Producer } from '../../domain';
import { Context } from '../context';
import { PageArgsType } from '../types/page.args';
import { selectsField, selectsPreviousPage } from '../types/selection';
import { MunicipalityType } from '../municipality/municipality.type';
import { CreateProducerInput, UpdateProducerInput } from './producer.input';
import { ProducerConnection, ProducerType } from './producer.type';
import { Sql } from '../compiled/annotations';
import { PRODUCER_KEYSET } from '../../services/keysets';

@Resolver(() => ProducerType)
export class ProducerResolver {
  @Sql({ kind: 'lookup', entity: Producer, arg: 'id' })
  @Query(() => ProducerType, { nullable: true, description: 'A producer by id (a PRODUCER sees only its own).' })
  async producer(@Arg('id', () => ID, { description: 'Producer id.' }) id: string, @Ctx() ctx: Context) {
    return ctx.loaders.producer.load(id);
  }

  @Sql({ kind: 'list', entity: Producer, keyset: PRODUCER_KEYSET })
  @Query(() => ProducerConnection, { description: 'Producers visible to the caller, by id.' })
  producers(@Args() page: PageArgsType, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.producers.list(ctx.actor, page, selectsField(info, 'totalCount'), selectsPreviousPage(info));
  }

  @Mutation(() => ProducerType, { description: 'Register a producer (ADMIN).' })
  createProducer(@Arg('input', { description: 'The producer to register.' }) input: CreateProducerInput, @Ctx() ctx: Context) {
    return ctx.services.producers.create(ctx.actor, input);
  }

  @Mutation(() => ProducerType, { description: 'Change a producer; refused with CONFLICT/VERSION_MISMATCH unless expectedVersion is current.' })
  updateProducer(
    @Arg('id', () => ID, { description: 'Producer id.' }) id: string,
    @Arg('input', { description: 'The fields to change.' }) input: UpdateProducerInput,
    @Arg('expectedVersion', () => Int, { description: 'The version last read; a stale one is refused.' }) expectedVersion: number,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.producers.update(ctx.actor, id, input, expectedVersion);
  }

  @Sql({ kind: 'one', entity: Municipality, fk: 'plantMunicipalityCode' })
  @FieldResolver(() => MunicipalityType, { description: 'Municipality of the plant.' })
  async plantMunicipality(@Root() p: Producer, @Ctx() ctx: Context) {
    return ctx.loaders.municipality.load(p.plantMunicipalityCode);
  }
}
