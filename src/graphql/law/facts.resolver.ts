import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { FamilyFarmer, FamilyFarmingOrganization, Producer, Purchase } from '../../domain';
import { TaxRegime } from '../../law/types';
import { FactsService } from '../../services/facts/facts.service';
import { checkMonth } from '../../services/validation';
import { ChecksArguments } from '../argument-checks';
import { Context, knownOn } from '../context';
import { FamilyFarmerType } from '../family-farmer/family-farmer.type';
import { OrganizationType } from '../organization/organization.type';
import { ProducerType } from '../producer/producer.type';
import { PurchaseType } from '../purchase/purchase.type';
import { DateScalar, DecimalScalar } from '../scalars';
import { FindingType } from '../types/common';
import { FarmerEligibilityType, HabilitationType, SealStandingType } from './facts.type';

/**
 * The facts the law needs, as computed fields (docs/LAW.md; Decreto 10.527/2020, arts. 2º IV, 4º
 * VI–VII, 6º §2º): each a loader for the database's side (batched per page) and a call of the
 * facts service (src/services/facts/facts.service.ts), which asks the law.
 */

@Resolver(() => FamilyFarmerType)
export class FamilyFarmerFactsResolver {
  @FieldResolver(() => Boolean, { description: 'Holds a valid DAP or CAF on that date (art. 2º IV).' })
  async eligibleOn(@Root() f: FamilyFarmer, @Arg('date', () => DateScalar, { description: 'The date, e.g. of a purchase.' }) date: string, @Ctx() ctx: Context) {
    return ctx.services.facts.eligibility(await ctx.loaders.supplierOn.load({ farmerId: f.id, organizationId: null, on: date }), date).eligible;
  }

  @FieldResolver(() => FarmerEligibilityType, { description: 'Eligibility on that date with its findings (art. 2º IV; Portaria MAPA 174/2022).' })
  async eligibility(@Root() f: FamilyFarmer, @Arg('on', () => DateScalar, { description: 'The date, e.g. of a purchase.' }) on: string, @Ctx() ctx: Context) {
    return { on, ...ctx.services.facts.eligibility(await ctx.loaders.supplierOn.load({ farmerId: f.id, organizationId: null, on }), on) };
  }
}

@Resolver(() => OrganizationType)
export class OrganizationFactsResolver {
  @FieldResolver(() => DecimalScalar, { description: 'familyFarmerMembers / members as declared last, exact (art. 4º VI); 0 with no members.' })
  familyFarmerShare(@Root() o: FamilyFarmingOrganization, @Ctx() ctx: Context) {
    return ctx.services.facts.familyFarmerShare(o);
  }

  @FieldResolver(() => HabilitationType, { description: 'Registration valid and family-farmer share, by the members declared for that date, at or above the minimum in force on that date, as known on asKnownOn (default today) (art. 4º VI, VII).' })
  async habilitation(
    @Root() o: FamilyFarmingOrganization,
    @Arg('on', () => DateScalar, { description: 'The date, e.g. of a purchase.' }) on: string,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Use the minimum share as known on this date (default today).' }) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    const [law, facts] = await Promise.all([ctx.loaders.lawBook.load('current'), ctx.loaders.supplierOn.load({ farmerId: null, organizationId: o.id, on })]);
    return ctx.services.facts.habilitation(law, facts, on, knownOn(ctx, asKnownOn));
  }
}

@Resolver(() => ProducerType)
export class ProducerFactsResolver {
  @FieldResolver(() => SealStandingType, { description: 'Selo standing on that date across grant, renewal, suspension, reinstatement and cancellation (art. 6º §2º; docs/LAW.md).' })
  async sealStanding(@Root() p: Producer, @Arg('on', () => DateScalar, { description: 'The date, e.g. of a sale.' }) on: string, @Ctx() ctx: Context) {
    const grants = await ctx.loaders.sealGrantsByProducer.load(p.id);
    return ctx.services.facts.standing(grants, await Promise.all(grants.map((g) => ctx.loaders.sealEventsByGrant.load(g.id))), on);
  }

  @ChecksArguments<{ year: number; month?: number | null }>(({ year, month }) => checkMonth(year, month ?? 12))
  @FieldResolver(() => TaxRegime, { description: 'Regime in force in that year (in its last month), or in one month of it: the latest election started on or before it, renewed automatically (Lei 11.116/2005, art. 4º §§1º, 5º; §4º: a company starting activity from the month of its election); AD_VALOREM with none (art. 3º).' })
  async regime(
    @Root() p: Producer,
    @Arg('year', () => Int, { description: 'Calendar year.' }) year: number,
    @Ctx() ctx: Context,
    @Arg('month', () => Int, { nullable: true, description: 'A month of the year, 1 to 12 (default 12: the year as a whole).' }) month?: number | null,
  ) {
    return ctx.services.facts.regime(await ctx.loaders.regimeElectionsByProducer.load(p.id), year, month);
  }
}

@Resolver(() => PurchaseType)
export class PurchaseFactsResolver {
  @FieldResolver(() => Boolean, { description: 'Supplier was an eligible family farmer or a habilitated cooperative on purchasedOn, the minimum family-farmer share as known on asKnownOn (art. 6º §2º; Lei 11.116/2005, art. 5º §3º). Associations count for the Selo, not here. NO_RULE_IN_FORCE for a cooperative when no minimum share is in force on purchasedOn, as Organization.habilitation.' })
  async familyFarmingOrigin(
    @Root() p: Purchase, @Ctx() ctx: Context,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Use the minimum share as known on this date (default today).' }) asKnownOn?: string | null,
  ) {
    return (await origin(p, ctx, asKnownOn)).familyFarming;
  }

  @FieldResolver(() => [FindingType], { description: 'Why the purchase did not come from family farming (SUPPLIER_NOT_ELIGIBLE and why, ASSOCIATION_NOT_COOPERATIVE, NOT_FROM_FAMILY_FARMING), the minimum share as known on asKnownOn; empty when it did.' })
  async familyFarmingFindings(
    @Root() p: Purchase, @Ctx() ctx: Context,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Use the minimum share as known on this date (default today).' }) asKnownOn?: string | null,
  ) {
    return (await origin(p, ctx, asKnownOn)).findings;
  }
}

/** The purchase's family-farming origin: its supplier on its date and the law book (both read once per page), judged by the facts service. */
async function origin(p: Purchase, ctx: Context, asKnownOn?: string | null) {
  const asked = FactsService.supplierOf(p);
  const [law, facts] = await Promise.all([ctx.loaders.lawBook.load('current'), asked && ctx.loaders.supplierOn.load(asked)]);
  return ctx.services.facts.purchaseOrigin(law, p, facts, knownOn(ctx, asKnownOn));
}
