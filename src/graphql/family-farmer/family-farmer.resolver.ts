import { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { FamilyFarmer, FamilyFarmerRegistration, Municipality } from '../../domain';
import { Context } from '../context';
import { MunicipalityType } from '../municipality/municipality.type';
import { PageArgsType } from '../types/page.args';
import { selectsPreviousPage } from '../types/selection';
import { CreateFamilyFarmerInput } from './family-farmer.input';
import { FamilyFarmerConnection, FamilyFarmerType, FamilyFarmingRegistrationType } from './family-farmer.type';
import { Sql } from '../compiled/annotations';
import { FAMILY_FARMER_KEYSET } from '../../services/keysets';

@Resolver(() => FamilyFarmerType)
export class FamilyFarmerResolver {
  @Sql({ kind: 'lookup', entity: FamilyFarmer, arg: 'id' })
  @Query(() => FamilyFarmerType, { nullable: true, description: 'A family farmer by id (readable by every role).' })
  familyFarmer(@Arg('id', () => ID, { description: 'Id of the family farmer.' }) id: string, @Ctx() ctx: Context) {
    return ctx.loaders.familyFarmer.load(id);
  }

  @Sql({ kind: 'list', entity: FamilyFarmer, keyset: FAMILY_FARMER_KEYSET })
  @Query(() => FamilyFarmerConnection, { description: 'Family farmers by id (readable by every role).' })
  familyFarmers(@Args() page: PageArgsType, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.familyFarmers.list(page, selectsPreviousPage(info));
  }

  @Mutation(() => FamilyFarmerType, { description: 'Register a family farmer with its DAP/CAF (ADMIN or PRODUCER); a CPF already registered is CONFLICT/DUPLICATE.' })
  createFamilyFarmer(@Arg('input', { description: 'The farmer and its DAP/CAF registrations.' }) input: CreateFamilyFarmerInput, @Ctx() ctx: Context) {
    return ctx.services.familyFarmers.create(ctx.actor, input);
  }

  @Sql({ kind: 'one', entity: Municipality, fk: 'municipalityCode' })
  @FieldResolver(() => MunicipalityType, { description: 'Municipality where the farmer produces.' })
  municipality(@Root() f: FamilyFarmer, @Ctx() ctx: Context) {
    return ctx.loaders.municipality.load(f.municipalityCode);
  }

  @Sql({ kind: 'many', entity: FamilyFarmerRegistration, fk: 'familyFarmerId', order: ['validFrom', 'id'] })
  @FieldResolver(() => [FamilyFarmingRegistrationType], { description: 'DAP/CAF registrations, by validFrom (art. 2º IV).' })
  registrations(@Root() f: FamilyFarmer, @Ctx() ctx: Context) {
    return ctx.loaders.farmerRegistrations.load(f.id);
  }
}
