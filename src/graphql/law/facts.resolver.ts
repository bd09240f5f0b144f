import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { FamilyFarmer, FamilyFarmingOrganization, Producer, Purchase } from '../../domain';
import { today } from '../../law/dates';
import { Decimal } from '../../law/decimal';
import { familyFarmerShare, farmerEligibility, organizationHabilitation } from '../../law/family-farming';
import { regimeForMonth } from '../../law/regime';
import { SupplierKind, TaxRegime } from '../../law/types';
import { BadInputError } from '../../services/errors';
import { purchaseOrigin, registrationFacts, standingOf } from '../../services/law.service';
import { organizationOn } from '../../services/organization.service';
import { Context } from '../context';
import { FamilyFarmerType } from '../family-farmer/family-farmer.type';
import { OrganizationType } from '../organization/organization.type';
import { ProducerType } from '../producer/producer.type';
import { PurchaseType } from '../purchase/purchase.type';
import { DateScalar, DecimalScalar } from '../scalars';
import { FindingType } from '../types/common';
import { FarmerEligibilityType, HabilitationType, SealStandingType } from './facts.type';

/** The facts the law needs, as computed fields (DESIGN §1.5; Decreto 10.527/2020, arts. 2º IV, 4º VI–VII, 6º §2º). */

@Resolver(() => FamilyFarmerType)
export class FamilyFarmerFactsResolver {
  @FieldResolver(() => Boolean, { description: 'Holds a valid DAP or CAF on that date (art. 2º IV).' })
  async eligibleOn(@Root() f: FamilyFarmer, @Arg('date', () => DateScalar, { description: 'The date, e.g. of a purchase.' }) date: string, @Ctx() ctx: Context) {
    return farmerEligibility(registrationFacts(await ctx.loaders.farmerRegistrations.load(f.id)), date).eligible;
  }

  @FieldResolver(() => FarmerEligibilityType, { description: 'Eligibility on that date with its findings (art. 2º IV; Portaria MAPA 174/2022).' })
  async eligibility(@Root() f: FamilyFarmer, @Arg('on', () => DateScalar, { description: 'The date, e.g. of a purchase.' }) on: string, @Ctx() ctx: Context) {
    return { on, ...farmerEligibility(registrationFacts(await ctx.loaders.farmerRegistrations.load(f.id)), on) };
  }
}

@Resolver(() => OrganizationType)
export class OrganizationFactsResolver {
  @FieldResolver(() => DecimalScalar, { description: 'familyFarmerMembers / members, exact (art. 4º VI); 0 with no members.' })
  familyFarmerShare(@Root() o: FamilyFarmingOrganization): Decimal {
    return familyFarmerShare(o);
  }

  @FieldResolver(() => HabilitationType, { description: 'Registration valid and family-farmer share at or above the minimum in force on that date, as known on asKnownOn (default today) (art. 4º VI, VII).' })
  async habilitation(
    @Root() o: FamilyFarmingOrganization,
    @Arg('on', () => DateScalar, { description: 'The date, e.g. of a purchase.' }) on: string,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Use the minimum share as known on this date (default today).' }) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    const [registrations, law, declarations] = await Promise.all([
      ctx.loaders.organizationRegistrations.load(o.id), ctx.loaders.lawBook.load('current'), ctx.loaders.organizationMemberships.load(o.id),
    ]);
    const minShare = law.cooperativeMinFamilyFarmerShare(on, asKnownOn ?? today()).value;
    // The member counts declared for that date (art. 4º VI), not the latest.
    return organizationHabilitation(organizationOn(o, declarations, on), registrationFacts(registrations), minShare, on);
  }
}

@Resolver(() => ProducerType)
export class ProducerFactsResolver {
  @FieldResolver(() => SealStandingType, { description: 'Selo standing on that date across grant, renewal, suspension, reinstatement and cancellation (art. 6º §2º; DESIGN §1.5).' })
  async sealStanding(@Root() p: Producer, @Arg('on', () => DateScalar, { description: 'The date, e.g. of a sale.' }) on: string, @Ctx() ctx: Context) {
    const grants = await ctx.loaders.sealGrantsByProducer.load(p.id);
    return standingOf(grants, await Promise.all(grants.map((g) => ctx.loaders.sealEventsByGrant.load(g.id))), on);
  }

  @FieldResolver(() => TaxRegime, { description: 'Regime in force in that year (in its last month), or in one month of it: the latest election started on or before it, renewed automatically (Lei 11.116/2005, art. 4º §§1º, 5º; §4º: a company starting activity from the month of its election); AD_VALOREM with none (art. 3º).' })
  async regime(
    @Root() p: Producer,
    @Arg('year', () => Int, { description: 'Calendar year.' }) year: number,
    @Ctx() ctx: Context,
    @Arg('month', () => Int, { nullable: true, description: 'A month of the year, 1 to 12 (default 12: the year as a whole).' }) month?: number | null,
  ) {
    if (month != null && (!Number.isInteger(month) || month < 1 || month > 12)) throw new BadInputError('month', 'month must be between 1 and 12');
    return regimeForMonth(await ctx.loaders.regimeElectionsByProducer.load(p.id), year, month ?? 12).regime;
  }
}

@Resolver(() => PurchaseType)
export class PurchaseFactsResolver {
  @FieldResolver(() => Boolean, { description: 'Supplier was an eligible family farmer or a habilitated cooperative on purchasedOn, the minimum family-farmer share as known on asKnownOn (art. 6º §2º; Lei 11.116/2005, art. 5º §3º). Associations count for the Selo, not here. NO_RULE_IN_FORCE for a cooperative when no minimum share is in force on purchasedOn, as Organization.habilitation.' })
  async familyFarmingOrigin(
    @Root() p: Purchase, @Ctx() ctx: Context,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Use the minimum share as known on this date (default today).' }) asKnownOn?: string | null,
  ) {
    return purchaseOrigin(p, await supplierFacts(p, ctx, asKnownOn ?? today())).familyFarming;
  }

  @FieldResolver(() => [FindingType], { description: 'Why the purchase did not come from family farming (SUPPLIER_NOT_ELIGIBLE and why, ASSOCIATION_NOT_COOPERATIVE, NOT_FROM_FAMILY_FARMING), the minimum share as known on asKnownOn; empty when it did.' })
  async familyFarmingFindings(
    @Root() p: Purchase, @Ctx() ctx: Context,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Use the minimum share as known on this date (default today).' }) asKnownOn?: string | null,
  ) {
    return purchaseOrigin(p, await supplierFacts(p, ctx, asKnownOn ?? today())).findings;
  }
}

/**
 * The supplier's registrations and, for an organization, the minimum share in force on the purchase
 * date as known on `asKnownOn` (none in force: NO_RULE_IN_FORCE, as Organization.habilitation).
 */
async function supplierFacts(p: Purchase, ctx: Context, asKnownOn: string) {
  if (p.supplierKind === SupplierKind.FAMILY_FARMER && p.familyFarmerId) {
    return { farmerRegistrations: await ctx.loaders.farmerRegistrations.load(p.familyFarmerId) };
  }
  // An association's purchase is never family farming for the rates (ASSOCIATION_NOT_COOPERATIVE): no minimum is asked.
  if (p.supplierKind === SupplierKind.COOPERATIVE && p.organizationId) {
    const [organization, organizationRegistrations, law, declarations] = await Promise.all([
      ctx.loaders.organization.load(p.organizationId), ctx.loaders.organizationRegistrations.load(p.organizationId), ctx.loaders.lawBook.load('current'),
      ctx.loaders.organizationMemberships.load(p.organizationId),
    ]);
    const minShare = law.cooperativeMinFamilyFarmerShare(p.purchasedOn, asKnownOn).value;
    // The member counts declared for the purchase date (art. 4º VI).
    return { organization: organization && organizationOn(organization, declarations, p.purchasedOn), organizationRegistrations, minShare };
  }
  return {};
}
