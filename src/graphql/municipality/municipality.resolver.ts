import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Context } from '../context';
import { MunicipalityInput } from './municipality.input';
import { MunicipalityType, SemiaridMembershipType } from './municipality.type';
import { Municipality, SemiaridMembership } from '../../domain';
import { today } from '../../law/dates';
import { municipalityRegionSql } from '../../services/municipality.service';
import { Sql } from '../compiled/annotations';
import { DateScalar } from '../scalars';

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

  @Sql({ kind: 'value', sql: municipalityRegionSql.semiarid })
  @FieldResolver(() => Boolean, { description: 'In the Semiárido today (its dated membership: semiaridOn, semiaridMemberships; Resolução Condel/Sudene nº 115/2017, 150/2021, 176/2024 and later).' })
  async semiarid(@Root() m: Municipality, @Ctx() ctx: Context) {
    return (await ctx.loaders.regionOn.load({ code: m.ibgeCode, on: today() })).semiarid;
  }

  @Sql({ kind: 'value', sql: municipalityRegionSql.priorityRegion })
  @FieldResolver(() => Boolean, { description: 'North, Northeast or Semiárido today (Decreto 10.527/2020, art. 6º I and III; art. 3º §2 I b, c). A purchase is judged on its acquisition date: priorityRegionOn.' })
  async priorityRegion(@Root() m: Municipality, @Ctx() ctx: Context) {
    return (await ctx.loaders.regionOn.load({ code: m.ibgeCode, on: today() })).priorityRegion;
  }

  @FieldResolver(() => Boolean, { description: 'In the Semiárido on that date: one of its intervals (semiaridMemberships) covers it.' })
  async semiaridOn(@Root() m: Municipality, @Arg('date', () => DateScalar, { description: 'The date, e.g. of a purchase.' }) date: string, @Ctx() ctx: Context) {
    return (await ctx.loaders.regionOn.load({ code: m.ibgeCode, on: date })).semiarid;
  }

  @FieldResolver(() => Boolean, { description: 'North, Northeast or Semiárido on that date (Decreto 10.527/2020, art. 6º I and III; art. 3º §2 I b, c).' })
  async priorityRegionOn(@Root() m: Municipality, @Arg('date', () => DateScalar, { description: 'The date, e.g. of a purchase.' }) date: string, @Ctx() ctx: Context) {
    return (await ctx.loaders.regionOn.load({ code: m.ibgeCode, on: date })).priorityRegion;
  }

  @Sql({ kind: 'many', entity: SemiaridMembership, fk: 'municipalityCode', order: [{ property: 'validFrom', nulls: 'first' }, 'id'] })
  @FieldResolver(() => [SemiaridMembershipType], { description: 'Its intervals in the Semiárido, each with the act that set it, in date order (empty: never in it).' })
  semiaridMemberships(@Root() m: Municipality, @Ctx() ctx: Context) {
    return ctx.loaders.semiaridMemberships.load(m.ibgeCode);
  }
}
