import { Field, ID, ObjectType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { RateCategory } from '../../law/types';
import { DateScalar, DecimalScalar, Money } from '../scalars';
import { FindingType } from '../types/common';

@ObjectType('CoefficientRule', {
  description: 'One version of one category\'s coefficient and published amounts (Decreto 10.527/2020, arts. 5º and 6º). Versions are never overwritten: a later publication wins where validity overlaps.',
})
export class CoefficientRuleType {
  @Field(() => ID, { description: 'Id of the stored version.' }) id: string;
  @Field(() => RateCategory, { description: 'The category the rule is for.' }) category: RateCategory;
  @Field(() => DecimalScalar, { description: 'Reduction coefficient (Lei 11.116/2005, art. 5º).' }) coefficient: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Published PIS/Pasep amount in reais per m³ (not re-derived from the coefficient).' }) pisPerM3: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Published Cofins amount in reais per m³ (not re-derived: art. 6º §1º I publishes 103,51 where 553,19 × (1 − 0,8129) = 103,5018).' }) cofinsPerM3: Decimal;
  @Field(() => DateScalar, { description: 'First day in force.' }) validFrom: string;
  @Field(() => DateScalar, { nullable: true, description: 'Last day in force (inclusive); null while open-ended.' }) validUntil: string | null;
  @Field(() => DateScalar, { description: 'Date the act was published: the rule is known from then on (docs/LAW.md).' }) publishedOn: string;
  @Field({ description: 'Act and provision the figures come from.' }) legalBasis: string;
  @Field(() => String, { nullable: true, description: 'Where the publication date is not in our sources, what was used; what is marked for confirmation.' }) note: string | null;
}

@ObjectType('RateAnswer', { description: 'The rate category of a lot and its published amounts (Decreto 10.527/2020, arts. 5º and 6º).' })
export class RateAnswerType {
  @Field(() => RateCategory, { description: 'Category under art. 5º or art. 6º I–III, with the conditions of §2º and §5º.' }) category: RateCategory;
  @Field(() => DecimalScalar, { description: 'Reduction coefficient in force for the category.' }) coefficient: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Published PIS/Pasep amount in reais per m³.' }) pisPerM3: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Published Cofins amount in reais per m³.' }) cofinsPerM3: Decimal;
  @Field({ description: 'The provision of the category, and the version\'s own where it differs (e.g. the 2026 zero window, art. 5º §§2º–4º).' }) legalBasis: string;
  @Field(() => [FindingType], { description: 'Why this category and not a better one: one finding per unmet condition (e.g. SEAL_NOT_REGULAR, OUTSIDE_PRIORITY_REGION).' }) reasons: FindingType[];
  @Field(() => CoefficientRuleType, { description: 'The rule version the amounts come from.' }) rule: CoefficientRuleType;
}

@ObjectType('LawValue', { description: 'One named decimal value of a law parameter version.' })
export class LawValueType {
  @Field({ description: 'Name of the value, e.g. share, factor, pis, cofinsPerM3.' }) name: string;
  @Field(() => DecimalScalar, { description: 'The value; fractions as decimals (60% is 0.6).' }) value: Decimal;
}

@ObjectType('LawParameterVersion', {
  simpleResolvers: true,
  description: 'One version of one dated legal figure (docs/LAW.md): shipped with the project from its cited data files, or published by an ADMIN. Never updated or deleted.',
})
export class LawParameterVersionType {
  @Field(() => ID, { description: 'Id of the stored version (recording order).' }) id: string;
  @Field({ description: 'Parameter name, e.g. coefficient-rule, minimum-spending-share, cooperative-min-family-farmer-share.' }) parameter: string;
  @Field(() => String, { nullable: true, description: 'Scope within the parameter (a category, a region, a kind of spending); null when it has none.' }) scope: string | null;
  @Field(() => [LawValueType], { description: 'The values of the version.' }) values: LawValueType[];
  @Field(() => DateScalar, { description: 'First day in force.' }) validFrom: string;
  @Field(() => DateScalar, { nullable: true, description: 'Last day in force (inclusive); null while open-ended.' }) validUntil: string | null;
  @Field(() => DateScalar, { description: 'Date the act was published: the version is known from then on.' }) publishedOn: string;
  @Field({ description: 'Act and provision.' }) legalBasis: string;
  @Field(() => String, { nullable: true, description: 'Where the publication date is not in our sources, what was used; what is marked for confirmation.' }) note: string | null;
  @Field({ description: 'Shipped with the project (src/law/parameters) rather than published through the API.' }) shipped: boolean;
}

@ObjectType('LawParameterSpec', { description: 'A parameter that may be published with publishLawParameter: its scopes and the values each version carries.' })
export class LawParameterSpecType {
  @Field({ description: 'Parameter name.' }) name: string;
  @Field(() => [String], { description: 'Allowed scopes; empty when the parameter takes none.' }) scopes: string[];
  @Field(() => [String], { description: 'Names of the values each version must carry.' }) values: string[];
}
