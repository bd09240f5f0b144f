import { GraphQLResolveInfo } from 'graphql';
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { Contract, Producer, Purchase, Sale } from '../../domain';
import { Context } from '../context';
import { ContractConnection } from '../contract/contract.type';
import { PurchasePageArgsType } from '../purchase/purchase.args';
import { PurchaseConnection } from '../purchase/purchase.type';
import { PURCHASE_PAGE_JOINS } from '../../services/purchase.service';
import { SalePageArgsType } from '../sale/sale.args';
import { SaleConnection } from '../sale/sale.type';
import { pageArguments, PageArgsType } from '../types/page.args';
import { ChecksArguments } from '../argument-checks';
import { selectedNodeRelations, selectsField, selectsPreviousPage } from '../types/selection';
import { ProducerType } from './producer.type';
import { Sql } from '../compiled/annotations';
import { CONTRACT_KEYSET, PURCHASE_KEYSET, SALE_KEYSET } from '../../services/keysets';

/** A producer's records as connections; under `producers`, one statement per level for the whole page (loaders). */
@Resolver(() => ProducerType)
export class ProducerRecordsResolver {
  @Sql({ kind: 'page', entity: Contract, fk: 'producerId', keyset: CONTRACT_KEYSET })
  @ChecksArguments(pageArguments(CONTRACT_KEYSET))
  @FieldResolver(() => ContractConnection, { description: 'Contracts with family farming (art. 3º §2 II), by id.' })
  contracts(@Root() p: Producer, @Args() args: PageArgsType, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.loaders.contractsByProducer.load({ producerId: p.id, args, withTotal: selectsField(info, 'totalCount'), withPrevious: selectsPreviousPage(info) });
  }

  @Sql({ kind: 'page', entity: Purchase, fk: 'producerId', keyset: PURCHASE_KEYSET })
  @ChecksArguments(pageArguments(PURCHASE_KEYSET))
  @FieldResolver(() => PurchaseConnection, { description: 'Purchases by consumedOn, then id; from/to bound consumedOn, inclusive.' })
  purchases(@Root() p: Producer, @Args() args: PurchasePageArgsType, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.loaders.purchasesByProducer.load({
      producerId: p.id, args, withTotal: selectsField(info, 'totalCount'), withPrevious: selectsPreviousPage(info), include: selectedNodeRelations(info, PURCHASE_PAGE_JOINS),
    });
  }

  @Sql({ kind: 'page', entity: Sale, fk: 'producerId', keyset: SALE_KEYSET })
  @ChecksArguments(pageArguments(SALE_KEYSET))
  @FieldResolver(() => SaleConnection, { description: 'Sales by soldOn, then id; from/to bound soldOn, inclusive.' })
  sales(@Root() p: Producer, @Args() args: SalePageArgsType, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.loaders.salesByProducer.load({ producerId: p.id, args, withTotal: selectsField(info, 'totalCount'), withPrevious: selectsPreviousPage(info) });
  }
}
