import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { FomentoExpense } from '../../domain';
import { Context } from '../context';
import { MunicipalityType } from '../municipality/municipality.type';
import { OrganizationType } from '../organization/organization.type';
import { ProducerType } from '../producer/producer.type';
import { RecordFomentoInput } from './fomento.input';
import { FomentoExpenseType } from './fomento.type';

@Resolver(() => FomentoExpenseType)
export class FomentoResolver {
  @Mutation(() => [FomentoExpenseType], { description: 'All or nothing: one bad item rejects the batch and nothing is written.' })
  recordFomento(@Arg('input', () => [RecordFomentoInput], { description: 'The expenses, in any number; refused whole on the first bad item.' }) input: RecordFomentoInput[], @Ctx() ctx: Context) {
    return ctx.services.fomento.record(ctx.actor, input);
  }

  @FieldResolver(() => ProducerType, { description: 'Producer that spent.' })
  producer(@Root() f: FomentoExpense, @Ctx() ctx: Context) {
    return ctx.loaders.producer.load(f.producerId);
  }

  @FieldResolver(() => MunicipalityType, { description: 'Where it was spent: decides the priority region (art. 3º §2 I c).' })
  municipality(@Root() f: FomentoExpense, @Ctx() ctx: Context) {
    return ctx.loaders.municipality.load(f.municipalityCode);
  }

  @FieldResolver(() => OrganizationType, { nullable: true, description: 'The cooperative or association that received it, if any.' })
  organization(@Root() f: FomentoExpense, @Ctx() ctx: Context) {
    return f.organizationId === null ? null : ctx.loaders.organization.load(f.organizationId);
  }
}
