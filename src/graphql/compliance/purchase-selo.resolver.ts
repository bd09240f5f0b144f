import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { Purchase } from '../../domain';
import { Context, knownOn } from '../context';
import { PurchaseType } from '../purchase/purchase.type';
import { DateScalar } from '../scalars';
import { PurchaseSeloStatusType } from './purchase-selo.type';

/** Purchase.selo: "why did this purchase not count?" without cross-checking sealCompliance.excluded. */
@Resolver(() => PurchaseType)
export class PurchaseSeloResolver {
  @FieldResolver(() => PurchaseSeloStatusType, {
    nullable: true,
    description: 'Whether this purchase counts for the Selo family-farming targets of its year and, if not, every finding that applies — the same findings as sealCompliance(year, asKnownOn).excluded gives for its id (Decreto 10.527/2020, art. 3º §2 I–III). Null for THIRD_PARTY and OWN_PRODUCTION purchases, which are not family-farming spending.',
  })
  selo(
    @Root() p: Purchase,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Law versions, parameters and minimum prices published by this date (default today).' }) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.purchaseSelo.load({ purchase: p, asKnownOn: knownOn(ctx, asKnownOn) });
  }
}
