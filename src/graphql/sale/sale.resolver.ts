import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { Producer, Sale } from '../../domain';
import { Context } from '../context';
import { ProducerType } from '../producer/producer.type';
import { RecordSaleInput } from './sale.input';
import { SaleType } from './sale.type';
import { Sql } from '../compiled/annotations';

@Resolver(() => SaleType)
export class SaleResolver {
  @Mutation(() => [SaleType], { description: 'All or nothing: one bad item rejects the batch and nothing is written.' })
  recordSales(@Arg('input', () => [RecordSaleInput], { description: 'The sales, in any number; refused whole on the first bad item.' }) input: RecordSaleInput[], @Ctx() ctx: Context) {
    return ctx.services.sales.record(ctx.actor, input);
  }

  @Sql({ kind: 'one', entity: Producer, fk: 'producerId' })
  @FieldResolver(() => ProducerType, { description: 'Producer that sold.' })
  producer(@Root() s: Sale, @Ctx() ctx: Context) {
    return ctx.loaders.producer.load(s.producerId);
  }
}
