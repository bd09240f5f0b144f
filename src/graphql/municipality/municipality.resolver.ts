import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Context } from '../context';
import { MunicipalityInput } from './municipality.input';
import { MunicipalityType } from './municipality.type';
import { Municipality } from '../../domain';
import { Sql } from '../compiled/annotations';

@Resolver(() => MunicipalityType)
export class MunicipalityResolver {
  @Sql({ kind: 'lookup', entity: Municipality, arg: 'ibgeCode' })
  @Query(() => MunicipalityType, { nullable: true, description: 'A municipality by its 7-digit IBGE code.' })
  municipality(@Arg('ibgeCode', { description: '7-digit IBGE code, e.g. 2611606 (Recife).' }) ibgeCode: string, @Ctx() ctx: Context) {
    return ctx.loaders.municipality.load(ibgeCode);
  }

  @Mutation(() => [MunicipalityType], { description: 'Insert or update municipalities by IBGE code (ADMIN). All or nothing.' })
  upsertMunicipalities(@Arg('input', () => [MunicipalityInput], { description: 'The municipalities, each at most once.' }) input: MunicipalityInput[], @Ctx() ctx: Context) {
    return ctx.services.municipalities.upsert(ctx.actor, input);
  }
}
