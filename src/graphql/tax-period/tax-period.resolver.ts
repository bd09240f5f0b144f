import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Producer } from '../../domain';
import { checkReopening, TaxPeriodView } from '../../services/tax-period.service';
import { checkMonth } from '../../services/validation';
import { ChecksArguments } from '../argument-checks';
import { Context, knownOn } from '../context';
import { ProducerType } from '../producer/producer.type';
import { DateScalar } from '../scalars';
import { TaxPeriodType } from './tax-period.type';

type MonthArgs = { year: number; month: number };

const AS_KNOWN_ON = { nullable: true, description: 'Law versions published by this date (default today); for a CLOSED month, the date of the recomputation it is compared with.' };

@Resolver(() => TaxPeriodType)
export class TaxPeriodResolver {
  @Query(() => TaxPeriodType, {
    description: 'A producer\'s PIS/Pasep and Cofins for a month (Lei 11.116/2005, arts. 3º–5º; Decreto 10.527/2020, arts. 5º–6º; before 2020-10-23, Decreto 7.768/2012), with its imports\' contributions (art. 5º §1º) and, from 2027, the CBS on fuels (LC 214/2025, arts. 172–175; PIS/Cofins extinct, EC 132/2023, ADCT art. 126, II), as known on asKnownOn (default today). ADMIN and AUDITOR: any producer; PRODUCER: its own (another is NOT_FOUND). A special-regime month with no coefficient rule in force (before 2012-06-28): NO_RULE_IN_FORCE.',
  })
  taxPeriod(
    @Arg('producerId', () => ID, { description: 'The producer.' }) producerId: string,
    @Arg('year', () => Int, { description: 'Calendar year.' }) year: number,
    @Arg('month', () => Int, { description: 'Calendar month, 1 to 12.' }) month: number,
    @Arg('asKnownOn', () => DateScalar, AS_KNOWN_ON) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.taxPeriods.forProducer(ctx.actor, producerId, year, month, knownOn(ctx, asKnownOn));
  }

  @ChecksArguments<MonthArgs>(({ year, month }) => checkMonth(year, month))
  @Mutation(() => TaxPeriodType, {
    description: 'Close a month: store the snapshot of every figure (as known today) and the fingerprint of its inputs; purchases consumed and sales sold in it are then refused (CONFLICT PERIOD_CLOSED). Already closed: CONFLICT PERIOD_CLOSED. ADMIN, or the PRODUCER for itself.',
  })
  closeTaxPeriod(
    @Arg('producerId', () => ID, { description: 'The producer.' }) producerId: string,
    @Arg('year', () => Int, { description: 'Calendar year.' }) year: number,
    @Arg('month', () => Int, { description: 'Calendar month, 1 to 12.' }) month: number,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.taxPeriods.close(ctx.actor, producerId, year, month);
  }

  @ChecksArguments<MonthArgs & { reason: string }>(({ year, month, reason }) => checkReopening(year, month, reason))
  @Mutation(() => TaxPeriodType, { description: 'Reopen a closed month, with a reason (audited); it is computed live again. ADMIN, or the PRODUCER for itself.' })
  reopenTaxPeriod(
    @Arg('producerId', () => ID, { description: 'The producer.' }) producerId: string,
    @Arg('year', () => Int, { description: 'Calendar year.' }) year: number,
    @Arg('month', () => Int, { description: 'Calendar month, 1 to 12.' }) month: number,
    @Arg('reason', () => String, { description: 'Why the month is reopened (required, not blank).' }) reason: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.taxPeriods.reopen(ctx.actor, producerId, year, month, reason);
  }

  @FieldResolver(() => ProducerType, { description: 'The producer.' })
  producer(@Root() t: TaxPeriodView) {
    return t.producer;
  }
}

/** Producer.taxPeriod (the producer is already within the caller's scope): the months of a page computed together. */
@Resolver(() => ProducerType)
export class ProducerTaxPeriodResolver {
  @ChecksArguments<MonthArgs>(({ year, month }) => checkMonth(year, month))
  @FieldResolver(() => TaxPeriodType, {
    nullable: true,
    description: 'The producer\'s PIS/Pasep and Cofins for a month, as known on asKnownOn (default today) (Lei 11.116/2005, arts. 3º–5º). Null, with the error in `errors` (its path and code), when the month cannot be computed — e.g. NO_RULE_IN_FORCE from 2027 — so that the other months and producers asked beside it are kept.',
  })
  taxPeriod(
    @Root() p: Producer,
    @Arg('year', () => Int, { description: 'Calendar year.' }) year: number,
    @Arg('month', () => Int, { description: 'Calendar month, 1 to 12.' }) month: number,
    @Arg('asKnownOn', () => DateScalar, AS_KNOWN_ON) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.taxPeriod.load({ producer: p, year, month, asKnownOn: knownOn(ctx, asKnownOn) });
  }
}
