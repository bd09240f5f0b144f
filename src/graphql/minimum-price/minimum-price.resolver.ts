import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Feedstock } from '../../law/types';
import { MinimumPrice } from '../../domain';
import { Sql } from '../compiled/annotations';
import { Context, knownOn } from '../context';
import { DateScalar } from '../scalars';
import { PublishMinimumPriceInput } from './minimum-price.input';
import { MinimumPriceType } from './minimum-price.type';

@Resolver(() => MinimumPriceType)
export class MinimumPriceResolver {
  @Sql({
    kind: 'rows', entity: MinimumPrice, order: ['feedstock', 'validFrom', 'id'], filters: { feedstock: 'feedstock' },
    inForce: { on: 'on', asKnownOn: 'asKnownOn', per: ['feedstock', 'scope'], validFrom: 'validFrom', validUntil: 'validUntil', publishedOn: 'publishedOn' },
  })
  @Query(() => [MinimumPriceType], {
    description: 'PGPAF minimum prices (Decreto 5.996/2006), readable by every role. Without `on`: every version. With `on`: for each feedstock, the price in force on that date as known on asKnownOn (default today).',
  })
  minimumPrices(
    @Arg('feedstock', () => Feedstock, { nullable: true, description: 'Only this raw material.' }) feedstock: Feedstock | null,
    @Arg('on', () => DateScalar, { nullable: true, description: 'Only the version in force on this date.' }) on: string | null,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'With `on`: the versions published by this date (default today).' }) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.minimumPrices.list(feedstock, on, knownOn(ctx, asKnownOn));
  }

  @Mutation(() => MinimumPriceType, { description: 'Publish a new version of a PGPAF minimum price (ADMIN; audited). Adds a version, never overwrites one.' })
  publishMinimumPrice(@Arg('input', { description: 'The new version: feedstock, validity, price per kg and its source.' }) input: PublishMinimumPriceInput, @Ctx() ctx: Context) {
    return ctx.services.minimumPrices.publish(ctx.actor, input);
  }
}
