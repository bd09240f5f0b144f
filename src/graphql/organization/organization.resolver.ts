import { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { FamilyFarmingOrganization, Municipality, OrganizationMembership, OrganizationRegistration } from '../../domain';
import { Context } from '../context';
import { FamilyFarmingRegistrationType } from '../family-farmer/family-farmer.type';
import { MunicipalityType } from '../municipality/municipality.type';
import { PageArgsType } from '../types/page.args';
import { selectsPreviousPage } from '../types/selection';
import { CreateOrganizationInput, UpdateOrganizationInput } from './organization.input';
import { MembershipDeclarationType, OrganizationConnection, OrganizationType } from './organization.type';
import { Sql } from '../compiled/annotations';
import { ORGANIZATION_KEYSET } from '../../services/keysets';

@Resolver(() => OrganizationType)
export class OrganizationResolver {
  @Sql({ kind: 'lookup', entity: FamilyFarmingOrganization, arg: 'id' })
  @Query(() => OrganizationType, { nullable: true, description: 'A cooperative or association by id (readable by every role).' })
  organization(@Arg('id', () => ID, { description: 'Id of the cooperative or association.' }) id: string, @Ctx() ctx: Context) {
    return ctx.loaders.organization.load(id);
  }

  @Sql({ kind: 'list', entity: FamilyFarmingOrganization, keyset: ORGANIZATION_KEYSET })
  @Query(() => OrganizationConnection, { description: 'Cooperatives and associations by id (readable by every role).' })
  organizations(@Args() page: PageArgsType, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.organizations.list(page, selectsPreviousPage(info));
  }

  @Mutation(() => OrganizationType, { description: 'Register a cooperative or association with its DAP/CAF jurídica (ADMIN or PRODUCER); a CNPJ already registered is CONFLICT/DUPLICATE.' })
  createOrganization(@Arg('input', { description: 'The organization, its member counts and its DAP/CAF jurídica.' }) input: CreateOrganizationInput, @Ctx() ctx: Context) {
    return ctx.services.organizations.create(ctx.actor, input);
  }

  @Mutation(() => OrganizationType, { description: 'Change a cooperative or association (ADMIN only: every producer buying from it reads its members; a PRODUCER is FORBIDDEN): name and seat are overwritten; new member counts are appended as a declaration of membersDeclaredOn (default today), the earlier ones kept (art. 4º VI). Audited.' })
  updateOrganization(
    @Arg('id', () => ID, { description: 'Id of the cooperative or association.' }) id: string,
    @Arg('input', { description: 'What changes.' }) input: UpdateOrganizationInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.organizations.update(ctx.actor, id, input);
  }

  @Sql({ kind: 'many', entity: OrganizationMembership, fk: 'organizationId', order: [{ property: 'declaredOn', nulls: 'first' }, 'id'] })
  @FieldResolver(() => [MembershipDeclarationType], { description: 'Every declaration of its member counts, in the order they take effect (undated first), with the day declared (art. 4º VI).' })
  membershipHistory(@Root() o: FamilyFarmingOrganization, @Ctx() ctx: Context) {
    return ctx.loaders.organizationMemberships.load(o.id);
  }

  @Sql({ kind: 'one', entity: Municipality, fk: 'municipalityCode' })
  @FieldResolver(() => MunicipalityType, { description: 'Municipality of its seat.' })
  municipality(@Root() o: FamilyFarmingOrganization, @Ctx() ctx: Context) {
    return ctx.loaders.municipality.load(o.municipalityCode);
  }

  @Sql({ kind: 'many', entity: OrganizationRegistration, fk: 'organizationId', order: ['validFrom', 'id'] })
  @FieldResolver(() => [FamilyFarmingRegistrationType], { description: 'DAP/CAF jurídica registrations, by validFrom (art. 4º VII).' })
  registrations(@Root() o: FamilyFarmingOrganization, @Ctx() ctx: Context) {
    return ctx.loaders.organizationRegistrations.load(o.id);
  }
}
