import { Field, InputType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock, RateCategory } from '../../law/types';
import { DateScalar, DecimalScalar } from '../scalars';

@InputType('RateQuestion', { description: 'The facts of a lot that decide its rate category (Decreto 10.527/2020, art. 6º).' })
export class RateQuestionInput {
  @Field(() => DateScalar, { description: 'Date of the sale: the rules in force on it apply.' }) on: string;
  @Field(() => Feedstock, { description: 'Raw material species (art. 6º I: castor bean or palm).' }) feedstock: Feedstock;
  @Field({ description: 'IBGE code of the municipality where the raw material was produced (art. 6º I and III: priority region). Must exist.' }) originMunicipalityCode: string;
  @Field(() => DateScalar, { nullable: true, description: 'Date the raw material was acquired: whether the origin lies in the Semiárido is judged on it (art. 6º I and III; the delimitation changes by Condel/Sudene resolution). Default: on.' }) acquiredOn?: string | null;
  @Field({ description: 'Bought from an eligible family farmer or habilitated cooperative (art. 6º §2º; Lei 11.116/2005, art. 5º §3º).' }) familyFarming: boolean;
  @Field({ description: 'The producer holds the Selo in regular standing on the sale date (art. 6º §2º).' }) sealRegular: boolean;
  @Field({ nullable: true, defaultValue: false, description: 'Imported biodiesel (art. 6º §5º: taxed at the general rate).' }) imported?: boolean;
  @Field(() => DateScalar, { nullable: true, description: 'Answer with the law as known on this date (default today).' }) asKnownOn?: string | null;
}

@InputType('PublishCoefficientRuleInput', { description: 'A new version of one category\'s rule (ADMIN). It never overwrites: where validity overlaps, it wins from publishedOn on.' })
export class PublishCoefficientRuleInput {
  @Field(() => RateCategory, { description: 'The category.' }) category: RateCategory;
  @Field(() => DecimalScalar, { description: 'Reduction coefficient, between 0 and 1.' }) coefficient: Decimal;
  @Field(() => DecimalScalar, { description: 'Published PIS/Pasep amount per m³ (as the act publishes it).' }) pisPerM3: Decimal;
  @Field(() => DecimalScalar, { description: 'Published Cofins amount per m³ (as the act publishes it).' }) cofinsPerM3: Decimal;
  @Field(() => DateScalar, { description: 'First day in force.' }) validFrom: string;
  @Field(() => DateScalar, { nullable: true, description: 'Last day in force (inclusive); null while open-ended.' }) validUntil?: string | null;
  @Field(() => DateScalar, { description: 'Date the act was published.' }) publishedOn: string;
  @Field({ description: 'Act and provision, e.g. "Decreto 10.527/2020, art. 5º §1º, as amended by ...". At most 2000 characters.' }) legalBasis: string;
}

@InputType('LawValueInput', { description: 'One named value of a parameter version.' })
export class LawValueInput {
  @Field({ description: 'Name of the value (see lawParameterCatalogue). At most 500 characters.' }) name: string;
  @Field(() => DecimalScalar, { description: 'The value; fractions as decimals (60% is 0.6).' }) value: Decimal;
}

@InputType('PublishLawParameterInput', {
  description: 'A new version of a dated legal parameter other than a coefficient rule (ADMIN): Selo minimum shares, the cooperative member minimum, weighting factors, ad valorem rates, per-m³ bases. It never overwrites.',
})
export class PublishLawParameterInput {
  @Field({ description: 'Parameter name (see lawParameterCatalogue), e.g. cooperative-min-family-farmer-share.' }) parameter: string;
  @Field(() => String, { nullable: true, description: 'Scope, where the parameter has scopes (e.g. SOUTH for minimum-spending-share).' }) scope?: string | null;
  @Field(() => [LawValueInput], { description: 'Exactly the values the parameter carries.' }) values: LawValueInput[];
  @Field(() => DateScalar, { description: 'First day in force.' }) validFrom: string;
  @Field(() => DateScalar, { nullable: true, description: 'Last day in force (inclusive); null while open-ended.' }) validUntil?: string | null;
  @Field(() => DateScalar, { description: 'Date the act was published.' }) publishedOn: string;
  @Field({ description: 'Act and provision. At most 2000 characters.' }) legalBasis: string;
  @Field(() => String, { nullable: true, description: 'Anything an auditor should know (e.g. the confirmation of a value marked for confirmation). At most 2000 characters.' }) note?: string | null;
}
