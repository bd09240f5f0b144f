import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { ProgramYear } from '../../services/program-overview.service';
import { IsoDate } from '../../law/dates';
import { Context, knownOn } from '../context';
import { DateScalar } from '../scalars';
import { requireYear } from '../../services/validation';
import { ChecksArguments } from '../argument-checks';
import { ProgramOverviewType, ProgramYearType } from './program.type';

/** A year of the program as its GraphQL type has it. */
export function programShown(y: ProgramYear) {
  const { totals } = y;
  return {
    year: y.year,
    asKnownOn: y.asKnownOn,
    on: y.on,
    producerCount: y.producers.length,
    byStanding: y.byStanding,
    byCompliance: y.byCompliance,
    spending: { ...totals, weightedTotal: totals.countedTotal },
    byKind: y.byKind.map(({ key, ...s }) => ({ kind: key, ...s })),
    byRegion: y.byRegion.map(({ key, ...s }) => ({ region: key, ...s })),
    byState: y.byState,
    byFeedstock: y.byFeedstock.map(({ key, ...s }) => ({ feedstock: key, ...s })),
    families: y.families,
    standingChanges: y.standingChanges,
    producers: y.producers.map((p) => ({ producer: p.producer, standing: p.standing, compliance: p.compliance, sealCompliance: p.report })),
    /** The year as computed (not a field): the series reuses it. */
    computed: y,
  };
}

export type ProgramShown = ReturnType<typeof programShown>;

@Resolver(() => ProgramOverviewType)
export class ProgramOverviewResolver {
  @Query(() => ProgramOverviewType, {
    description: 'The Selo program as a whole for a year (Decreto 10.527/2020, arts. 2º–4º; Portaria MDA nº 28/2024): producers by standing on 31 December and by verdict, the family-farming spending of all producers, families served, and the producers whose standing changed. Each figure is the sum of the producers\' sealCompliance as known on asKnownOn (default today). ADMIN and AUDITOR; a PRODUCER is FORBIDDEN.',
  })
  async programOverview(
    @Arg('year', () => Int, { description: 'Calendar year; a year in progress is computed to date.' }) year: number,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Parameter versions published by this date (default today).' }) asKnownOn: IsoDate | null,
    @Ctx() ctx: Context,
  ) {
    const services = await ctx.services.forReads(ctx.actor, true);
    return programShown(await services.programOverview.overview(ctx.actor, year, knownOn(ctx, asKnownOn)));
  }

  @ChecksArguments<{ from: number }>(({ from }) => requireYear(from, 'from'))
  @FieldResolver(() => [ProgramYearType], {
    nullable: 'items',
    description: 'The year against the years before: each year from `from` to this one (at most 20), with its headline figures, as known on the same asKnownOn. A year the law cannot compute (before any wording of Decreto 10.527/2020, art. 3º was in force) is null, with its error in `errors` (its path and code NO_RULE_IN_FORCE), and the other years are kept.',
  })
  async years(
    @Root() o: ProgramShown,
    @Arg('from', () => Int, { description: 'The first year of the series (not after the overview\'s year).' }) from: number,
    @Ctx() ctx: Context,
  ) {
    const services = await ctx.services.forReads(ctx.actor, true);
    const years = await services.programOverview.series(ctx.actor, from, o.year, o.asKnownOn, [o.computed]);
    return years.map((y) => {
      // graphql-js reports an Error in a list at its index: that year is null, the others stand.
      if (y instanceof Error) return y;
      const shown = programShown(y);
      return { ...shown, familyFarmers: y.families.familyFarmers, standingChanges: y.standingChanges.length };
    });
  }
}
