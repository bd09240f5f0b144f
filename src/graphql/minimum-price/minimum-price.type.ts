import { Field, ID, ObjectType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock } from '../../law/types';
import { DateScalar, DecimalScalar, Money } from '../scalars';

@ObjectType('MinimumPrice', {
  simpleResolvers: true,
  description: 'One version of a PGPAF minimum price (Decreto 5.996/2006), the floor of a Selo contract price (Decreto 10.527/2020, art. 3º §2 II). Versions are never overwritten: where validity overlaps, the later publication wins from its publication date on.',
})
export class MinimumPriceType {
  @Field(() => ID, { description: 'Id of this version (versions are never overwritten).' }) id: string;
  @Field(() => Feedstock, { description: 'Raw material the price is for.' }) feedstock: Feedstock;
  @Field(() => String, { nullable: true, description: 'Where it applies: a state\'s two-digit IBGE code, a region, or null nationwide.' }) scope: string | null;
  @Field(() => DateScalar, { description: 'First day in force.' }) validFrom: string;
  @Field(() => DateScalar, { description: 'Last day in force (inclusive).' }) validUntil: string;
  @Money() @Field(() => DecimalScalar, { description: 'PGPAF minimum price (Decreto 5.996/2006), reais per kg.' }) pricePerKg: Decimal;
  @Field({ description: 'The act that set the price (its legal basis), e.g. a Portaria of the Ministry with its DOU date.' }) source: string;
  @Field(() => DateScalar, { description: 'Date the price was published: it is known, and applied to contracts, as of this date (docs/LAW.md).' }) publishedOn: string;
}
