import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Contract, Producer } from '../../domain';
import { SealComplianceReport } from '../../services/seal-compliance/compliance.service';
import { Context, knownOn } from '../context';
import { ContractType } from '../contract/contract.type';
import { ProducerType } from '../producer/producer.type';
import { DateScalar } from '../scalars';
import { listed, LISTED_BOUND, ListPageArgs, listPageArguments } from '../listed';
import { ChecksArguments } from '../argument-checks';
import { checkListPage } from '../../services/pagination';
import { requireYear } from '../../services/validation';
import { ContractConformityType, ExcludedItemType, SealComplianceType, SealCountedItemPageType } from './compliance.type';
import { RecordSealEvaluationInput, SealEvaluationType } from './seal-evaluation.type';
import { HypotheticalSpendingInput, SealPlanType } from './seal-plan.type';

@Resolver(() => SealComplianceType)
export class SealComplianceResolver {
  @Query(() => SealComplianceType, {
    description: 'The Selo family-farming targets of a producer for a year, as known on asKnownOn (default today). ADMIN and AUDITOR: any producer; PRODUCER: its own (another is NOT_FOUND).',
  })
  sealCompliance(
    @Arg('producerId', () => ID, { description: 'The producer whose targets are computed.' }) producerId: string,
    @Arg('year', () => Int, { description: 'Calendar year; a year in progress is computed to date.' }) year: number,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Parameter versions published by this date (default today).' }) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.sealCompliance.forProducer(ctx.actor, producerId, year, knownOn(ctx, asKnownOn));
  }

  @Query(() => SealPlanType, {
    description: 'What closes the Selo shortfall of a producer\'s year, as known on asKnownOn (default today): each requirement\'s shortfall, the actual spending each lever needs alone, and hypothetical items evaluated as if recorded (the year\'s verdict and balance with them). Nothing is written. ADMIN and AUDITOR: any producer; PRODUCER: its own.',
  })
  sealPlan(
    @Arg('producerId', () => ID, { description: 'The producer.' }) producerId: string,
    @Arg('year', () => Int, { description: 'Calendar year planned.' }) year: number,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Parameter versions published by this date (default today).' }) asKnownOn: string | null,
    @Arg('hypothetical', () => [HypotheticalSpendingInput], { nullable: true, description: 'Spending not recorded, evaluated as if it were (at most 100 items).' }) hypothetical: HypotheticalSpendingInput[] | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.sealPlan.plan(ctx.actor, producerId, year, knownOn(ctx, asKnownOn), hypothetical);
  }

  @FieldResolver(() => ProducerType, { description: 'The producer.' })
  producer(@Root() r: SealComplianceReport) {
    return r.producer;
  }

  @ChecksArguments(listPageArguments)
  @FieldResolver(() => [ExcludedItemType], {
    description: `Every purchase from a family farmer or organization, and every fomento expense, of the year that does not count, with all its findings; purchases first, by id. All of them, or a page with \`first\`; ${LISTED_BOUND} (QUERY_TOO_COMPLEX beyond: page them, or export the year as CSV).`,
  })
  excluded(
    @Root() r: SealComplianceReport,
    @Args(() => ListPageArgs) page: ListPageArgs,
    @Ctx() ctx: Context,
  ) {
    return listed(ctx, r.excluded, 'excluded', page);
  }

  @FieldResolver(() => Int, { description: 'How many items `excluded` lists in all.' })
  excludedCount(@Root() r: SealComplianceReport) {
    return r.excluded.length;
  }

  @ChecksArguments<{ first: number; offset: number }>(({ first, offset }) => checkListPage(first, offset))
  @FieldResolver(() => SealCountedItemPageType, {
    description: 'Every purchase, other product and fomento expense that counts (art. 3º §2º I a–c), one by one with its id, actual value, factors by alínea and weighted value: a page of them (purchases first, by id); the years of a request asked with the same page are read in one statement.',
  })
  async countedItems(
    @Root() r: SealComplianceReport,
    @Arg('first', () => Int, { defaultValue: 100, description: 'Rows in the page (1 to 1000).' }) first: number,
    @Arg('offset', () => Int, { defaultValue: 0, description: 'Rows skipped (0 or more).' }) offset: number,
    @Ctx() ctx: Context,
  ) {
    const source = r.countedSource ?? (r.countedLater ? (await ctx.loaders.sealCompliance.load({ producer: r.producer, year: r.year, asKnownOn: r.asKnownOn })).countedSource : undefined);
    if (!source) return { totalCount: 0, offset, items: [] };
    return ctx.loaders.sealCountedItems.load({ source, first, offset });
  }

  @Mutation(() => SealEvaluationType, {
    description: 'Record the evaluation of a producer\'s Selo year as communicated on a date (Portaria MDA nº 28/2024, art. 58): from then its balance counts toward the year after the communication, shown in sealCompliance.balance. ADMIN only; a second evaluation of the same year is CONFLICT/DUPLICATE; communicatedOn must be after the year ends (BAD_USER_INPUT).',
  })
  recordSealEvaluation(@Arg('input', () => RecordSealEvaluationInput, { description: 'Producer, year and day of the communication.' }) input: RecordSealEvaluationInput, @Ctx() ctx: Context) {
    return ctx.services.sealEvaluations.record(ctx.actor, input);
  }
}

/** Producer.sealCompliance (the producer is already within the caller's scope): the years of a page computed together. */
@Resolver(() => ProducerType)
export class ProducerSealComplianceResolver {
  @ChecksArguments<{ year: number }>(({ year }) => requireYear(year, 'year'))
  @FieldResolver(() => SealComplianceType, {
    nullable: true,
    description: 'The Selo family-farming targets for a year, as known on asKnownOn (default today) (Decreto 10.527/2020, art. 3º §2 I and §3º). Null, with the error in `errors` (its path and code), when the year cannot be computed, so that the other years and producers asked beside it are kept.',
  })
  sealCompliance(
    @Root() p: Producer,
    @Arg('year', () => Int, { description: 'Calendar year; a year in progress is computed to date.' }) year: number,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Parameter versions published by this date (default today).' }) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.sealCompliance.load({ producer: p, year, asKnownOn: knownOn(ctx, asKnownOn) });
  }
}

/** Contract.conformity, batched per request. */
@Resolver(() => ContractType)
export class ContractConformityResolver {
  @FieldResolver(() => ContractConformityType, { description: 'Whether the contract meets art. 3º §2 II–III (Decreto 10.527/2020), with the minimum prices known on asKnownOn (default today).' })
  conformity(
    @Root() c: Contract,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Minimum-price versions published by this date (default today).' }) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.contractConformity.load({ contract: c, asKnownOn: knownOn(ctx, asKnownOn) });
  }
}
