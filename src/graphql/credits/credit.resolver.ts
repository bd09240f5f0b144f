import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { IncidenceRegime, MonthCreditsView } from '../../services/credit.service';
import type { CbsCredit, PurchaseCredit } from '../../law/credits/types';
import { NotFoundError } from '../../services/errors';
import { PurchaseType } from '../purchase/purchase.type';
import { TaxPeriodView } from '../../services/tax-period.service';
import { Context, knownOn } from '../context';
import { listed, LISTED_BOUND, ListPageArgs, listPageArguments } from '../listed';
import { ChecksArguments } from '../argument-checks';
import { DateScalar } from '../scalars';
import { TaxPeriodDifferenceType, TaxPeriodType } from '../tax-period/tax-period.type';
import { TaxPeriodStatus } from '../../law/types';
import {
  CbsPurchaseCreditType, CreditApportionmentElectionType, CreditBalanceType, CreditClaimType, ElectCreditApportionmentInput, ElectIncidenceRegimeInput, IncidenceElectionType, PurchaseCreditType, RecordCreditClaimInput, TaxPeriodCreditsType, TaxPeriodNetType,
} from './credit.type';

// Every month of the request, its aliases and nesting: one fold per producer and asKnownOn (the loader).
function monthCredits(t: TaxPeriodView, ctx: Context): Promise<MonthCreditsView> {
  return ctx.loaders.creditMonth.load({ producer: t.producer, year: t.year, month: t.month, asKnownOn: t.recomputedAsKnownOn ?? t.asKnownOn });
}

@Resolver(() => TaxPeriodType)
export class TaxPeriodCreditsResolver {
  @FieldResolver(() => TaxPeriodCreditsType, { description: 'The month\'s non-cumulative credits by group and COD_CRED, each purchase\'s credit and the art. 31 presumed credit (Lei 10.637/2002 and Lei 10.833/2003, art. 3º; Lei 12.865/2013, art. 31).' })
  credits(@Root() t: TaxPeriodView, @Ctx() ctx: Context) {
    return monthCredits(t, ctx);
  }

  @FieldResolver(() => TaxPeriodNetType, { description: 'The month\'s debits less the credits and balances deducted; from 2027, the CBS less the balances offset (LC 214/2025, art. 378).' })
  async net(@Root() t: TaxPeriodView, @Ctx() ctx: Context) {
    return (await monthCredits(t, ctx)).net;
  }

  @FieldResolver(() => IncidenceRegime, { nullable: true, description: 'The regime of incidence recorded for the year (electIncidenceRegime); null: none recorded, read as NON_CUMULATIVE. Under CUMULATIVE the month has no credits and deducts none.' })
  async incidence(@Root() t: TaxPeriodView, @Ctx() ctx: Context) {
    return (await monthCredits(t, ctx)).incidence;
  }

  @FieldResolver(() => [CreditBalanceType], { description: 'The balances after the month, by origin month, group and COD_CRED (registers 1100/1500); a CLOSED month\'s as it filed them (their drift in differences).' })
  async balances(@Root() t: TaxPeriodView, @Ctx() ctx: Context) {
    return (await monthCredits(t, ctx)).balances;
  }

  // A closed month's net and balances are what it filed (its 1100/1500): the fold's drift from them is a difference too.
  @FieldResolver(() => Boolean, { description: 'CLOSED only: recomputing the month now (as known on asKnownOn of the query, default today) would give other figures, inputs, net or balances; always false when OPEN.' })
  async recomputedDiffers(@Root() t: TaxPeriodView, @Ctx() ctx: Context) {
    return (await this.differences(t, ctx)).length > 0;
  }

  @FieldResolver(() => [TaxPeriodDifferenceType], { description: 'What recomputing would change, figure by figure (empty when OPEN or unchanged): the month\'s figures, and the net and balances it filed (net.cofinsRefundable, balances.COFINS.2025-12.EXPORT.301.remaining, …).' })
  async differences(@Root() t: TaxPeriodView, @Ctx() ctx: Context) {
    if (t.status !== TaxPeriodStatus.CLOSED) return t.differences;
    return [...t.differences, ...(await monthCredits(t, ctx)).differences];
  }
}

@Resolver(() => TaxPeriodCreditsType)
export class MonthCreditsResolver {
  @ChecksArguments(listPageArguments)
  @FieldResolver(() => [PurchaseCreditType], {
    description: `Each purchase of the month (by purchasedOn) and its credit. All of them, or a page with \`first\`; ${LISTED_BOUND} (QUERY_TOO_COMPLEX beyond: page them).`,
  })
  purchases(
    @Root() c: MonthCreditsView,
    @Args(() => ListPageArgs) page: ListPageArgs,
    @Ctx() ctx: Context,
  ) {
    return listed(ctx, c.purchases, 'purchases', page);
  }

  @FieldResolver(() => Int, { description: 'How many purchases `purchases` lists in all.' })
  purchaseCount(@Root() c: MonthCreditsView) {
    return c.purchases.length;
  }

  @ChecksArguments(listPageArguments)
  @FieldResolver(() => [CbsPurchaseCreditType], {
    description: `From 2027: each purchase of the month (by purchasedOn) and its CBS credit (LC 214/2025, arts. 47, 168 and 180); empty before 2027. All of them, or a page with \`first\`; ${LISTED_BOUND} (QUERY_TOO_COMPLEX beyond: page them).`,
  })
  cbsPurchases(
    @Root() c: MonthCreditsView,
    @Args(() => ListPageArgs) page: ListPageArgs,
    @Ctx() ctx: Context,
  ) {
    return listed(ctx, c.cbs, 'cbsPurchases', page);
  }
}

async function purchaseOf(c: { purchaseId: string }, ctx: Context) {
  const p = await ctx.loaders.purchase.load(c.purchaseId);
  if (!p) throw new NotFoundError('Purchase', c.purchaseId);
  return p;
}

@Resolver(() => PurchaseCreditType)
export class PurchaseCreditResolver {
  @FieldResolver(() => PurchaseType, { description: 'The purchase, with the facts its credit was decided on (batched: one statement per request).' })
  purchase(@Root() c: PurchaseCredit, @Ctx() ctx: Context) {
    return purchaseOf(c, ctx);
  }
}

@Resolver(() => CbsPurchaseCreditType)
export class CbsPurchaseCreditResolver {
  @FieldResolver(() => PurchaseType, { description: 'The purchase, with the facts its CBS credit was decided on (batched: one statement per request).' })
  purchase(@Root() c: CbsCredit, @Ctx() ctx: Context) {
    return purchaseOf(c, ctx);
  }
}

@Resolver()
export class CreditResolver {
  @Query(() => [CreditBalanceType], { description: 'A producer\'s credit balances after the month of `on` (Lei 10.637/2002, art. 3º § 4º; from 2027, LC 214/2025, art. 378). ADMIN and AUDITOR: any producer; PRODUCER: its own (another is NOT_FOUND).' })
  creditBalances(
    @Arg('producerId', () => ID, { description: 'The producer.' }) producerId: string,
    @Arg('on', () => DateScalar, { description: 'A day of the month asked.' }) on: string,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Law versions published by this date (default today).' }) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.credits.balancesOn(ctx.actor, producerId, on, knownOn(ctx, asKnownOn));
  }

  @Mutation(() => CreditClaimType, { description: 'Record a refund or offset claim (PER/DCOMP) against a balance of groups 200/300 carried into the month it is filed: a cash refund after the balance\'s quarter (Lei 11.116/2005, art. 16; Lei 10.637/2002, art. 5º § 2º), an offset of COD_CRED 301–304 or 308 also within it (art. 5º § 1º II), of the other codes after it. A balance that is not refundable, not yet claimable or short: CONFLICT CREDIT_CLAIM with extensions.claimReason and available; one filed before claims on record that would leave one of them short (claims come off in the order filed, Lei 10.637/2002, art. 3º § 4º): claimReason LATER_CLAIM_SHORT with laterClaimId, laterFiledOn and shortBy. Filed in a closed tax month: CONFLICT PERIOD_CLOSED on input.filedOn (it would change the balances filed for it). ADMIN, or the PRODUCER for itself.' })
  recordCreditClaim(@Arg('input', { description: 'The claim.' }) input: RecordCreditClaimInput, @Ctx() ctx: Context) {
    return ctx.services.credits.recordClaim(ctx.actor, input);
  }

  @Mutation(() => CreditApportionmentElectionType, { description: 'Elect how common credits are apportioned in a calendar year (Lei 10.637/2002, art. 3º §§ 8º–9º); a second election for the year: CONFLICT APPORTIONMENT_ALREADY_ELECTED. ADMIN, or the PRODUCER for itself.' })
  electCreditApportionment(@Arg('input', { description: 'Producer, year and method.' }) input: ElectCreditApportionmentInput, @Ctx() ctx: Context) {
    return ctx.services.credits.elect(ctx.actor, input);
  }

  @Mutation(() => IncidenceElectionType, { description: 'Elect the regime of incidence of a calendar year, irrevocable for it (Lei 10.637/2002 art. 8º; Lei 10.833/2003 art. 10): the credits and the EFD-Contribuições (0110, COD_CONT) follow it; a second election for the year: CONFLICT INCIDENCE_ALREADY_ELECTED. ADMIN, or the PRODUCER for itself.' })
  electIncidenceRegime(@Arg('input', { description: 'Producer, year and regime.' }) input: ElectIncidenceRegimeInput, @Ctx() ctx: Context) {
    return ctx.services.credits.electIncidence(ctx.actor, input);
  }
}
