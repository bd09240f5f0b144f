import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { Purchase, RecordReturn, Sale } from '../../domain';
import { Sql } from '../compiled/annotations';
import { Context } from '../context';
import { PurchaseType } from '../purchase/purchase.type';
import { SaleType } from '../sale/sale.type';
import { TaxPeriodType } from '../tax-period/tax-period.type';
import { RecordReturnType } from './record-change.type';

const RETURNS = 'The returns of this record (return notes, finNFe 4), by date: each reduces it in the month of the return; one or more makes it returned in part (or whole). Its own NF-e is invoiceKey.';

@Resolver(() => PurchaseType)
export class PurchaseDocumentsResolver {
  @Sql({ kind: 'many', entity: RecordReturn, fk: 'purchaseId', order: ['returnedOn', 'id'] })
  @FieldResolver(() => [RecordReturnType], { description: RETURNS })
  returns(@Root() p: Purchase, @Ctx() ctx: Context) {
    return ctx.loaders.purchaseReturns.load(p.id);
  }
}

@Resolver(() => SaleType)
export class SaleDocumentsResolver {
  @Sql({ kind: 'many', entity: RecordReturn, fk: 'saleId', order: ['returnedOn', 'id'] })
  @FieldResolver(() => [RecordReturnType], { description: RETURNS })
  returns(@Root() s: Sale, @Ctx() ctx: Context) {
    return ctx.loaders.saleReturns.load(s.id);
  }
}

@Resolver(() => RecordReturnType)
export class RecordReturnReachResolver {
  @FieldResolver(() => TaxPeriodType, { nullable: true, description: 'The tax month of the return when CLOSED (only an ADMIN records a return into one): as it reads now, its snapshot kept, recomputedDiffers and differences giving the drift. Null when open.' })
  closedPeriod(@Root() r: RecordReturn, @Ctx() ctx: Context) {
    return ctx.loaders.returnClosedMonth.load(r);
  }

  @FieldResolver(() => Int, { nullable: true, description: 'The Selo year of the return when already evaluated (sealEvaluation; only an ADMIN records a return into one), else null.' })
  evaluatedSeloYear(@Root() r: RecordReturn, @Ctx() ctx: Context) {
    return ctx.loaders.returnEvaluatedYear.load(r);
  }
}
