import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { LawParameterVersion } from '../../domain';
import { Sql } from '../compiled/annotations';
import { Context, knownOn } from '../context';
import { DateScalar } from '../scalars';
import { PublishCoefficientRuleInput, PublishLawParameterInput, RateQuestionInput } from './law.input';
import { CoefficientRuleType, LawParameterSpecType, LawParameterVersionType, LawValueType, RateAnswerType } from './law.type';
import { Decimal } from '../../law/decimal';

@Resolver()
export class LawResolver {
  @Query(() => [CoefficientRuleType], { description: 'The four rules in force on a date, as known on asKnownOn (default: today). NO_RULE_IN_FORCE before 2020-10-23 and from 2027 (EC 132/2023).' })
  coefficientRules(@Arg('on', () => DateScalar, { description: 'Date the rules must be in force on.' }) on: string, @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Answer with the versions published by this date (default today).' }) asKnownOn: string | null, @Ctx() ctx: Context) {
    return ctx.services.law.coefficientRules(on, knownOn(ctx, asKnownOn));
  }

  @Query(() => RateAnswerType, { description: 'The rate category of a lot and its published amounts, with the reasons why not a better category (Decreto 10.527/2020, arts. 5º and 6º).' })
  rate(@Arg('question', () => RateQuestionInput, { description: 'The facts of the lot.' }) question: RateQuestionInput, @Ctx() ctx: Context) {
    return ctx.services.law.rate({ ...question, asKnownOn: knownOn(ctx, question.asKnownOn) });
  }

  @Sql({ kind: 'rows', entity: LawParameterVersion, order: ['id'], filters: { parameter: 'parameter' } })
  @Query(() => [LawParameterVersionType], { description: 'Every stored version of a law parameter (all when omitted), in recording order: the law as data, for audit.' })
  lawParameterVersions(@Arg('parameter', () => String, { nullable: true, description: 'Parameter name (see lawParameterCatalogue); all when omitted.' }) parameter: string | null, @Ctx() ctx: Context) {
    return ctx.services.law.versions(parameter);
  }

  @Query(() => [LawParameterSpecType], { description: 'The parameters publishLawParameter accepts, with their scopes and values.' })
  lawParameterCatalogue(@Ctx() ctx: Context) {
    return ctx.services.law.catalogue();
  }

  @Mutation(() => CoefficientRuleType, { description: 'Publish a new version of a category\'s rule (ADMIN). Adds a version, never overwrites one.' })
  publishCoefficientRule(@Arg('input', () => PublishCoefficientRuleInput, { description: 'The new version.' }) input: PublishCoefficientRuleInput, @Ctx() ctx: Context) {
    return ctx.services.law.publishCoefficientRule(ctx.actor, input);
  }

  @Mutation(() => LawParameterVersionType, { description: 'Publish a new version of a Selo parameter, ad valorem rate or per-m³ base (ADMIN): how a value marked for confirmation is confirmed. Adds a version, never overwrites one.' })
  publishLawParameter(@Arg('input', () => PublishLawParameterInput, { description: 'The new version.' }) input: PublishLawParameterInput, @Ctx() ctx: Context) {
    return ctx.services.law.publishLawParameter(ctx.actor, input);
  }
}

@Resolver(() => LawParameterVersionType)
export class LawParameterVersionResolver {
  @FieldResolver(() => [LawValueType], { description: 'The values of the version.' })
  values(@Root() v: LawParameterVersion): LawValueType[] {
    return Object.entries(v.value).map(([name, value]) => ({ name, value: new Decimal(value) }));
  }
}
