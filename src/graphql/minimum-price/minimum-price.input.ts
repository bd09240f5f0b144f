import { Field, InputType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock } from '../../law/types';
import { DateScalar, DecimalScalar } from '../scalars';

@InputType('PublishMinimumPriceInput', { description: 'A new version of a PGPAF minimum price (Decreto 5.996/2006), published by an ADMIN.' })
export class PublishMinimumPriceInput {
  @Field(() => Feedstock, { description: 'Raw material the price is for.' }) feedstock: Feedstock;
  @Field(() => String, { nullable: true, description: 'Where the price applies, as the table publishes it: a state\'s two-digit IBGE code (e.g. "29", Bahia) or a region (NORTH, NORTHEAST, CENTER_WEST, SOUTHEAST, SOUTH); omitted: nationwide. A purchase is judged against the price of its origin\'s state, else its region, else the national one.' }) scope?: string | null;
  @Field(() => DateScalar, { description: 'First day in force.' }) validFrom: string;
  @Field(() => DateScalar, { description: 'Last day in force (inclusive); not before validFrom.' }) validUntil: string;
  @Field(() => DecimalScalar, { description: 'Reais per kg, greater than zero.' }) pricePerKg: Decimal;
  @Field({ description: 'The act that set the price (legal basis); not empty. At most 2000 characters.' }) source: string;
  @Field(() => DateScalar, { nullable: true, description: 'Date the act was published; defaults to today.' }) publishedOn?: string | null;
}
