import { Field, ID, ObjectType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock } from '../../law/types';
import { connectionOf } from '../types/connection';
import { DateScalar, DecimalScalar, Money, Quantity } from '../scalars';

@ObjectType('Contract', {
  simpleResolvers: true,
  description: 'Purchase contract of a producer with a family farmer or a family-farming organization (Decreto 10.527/2020, art. 3º §2 II–III).',
})
export class ContractType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => DateScalar, { description: 'Date of signature: it must precede the purchases it covers (art. 3º §2 II).' }) signedOn: string;
  @Field(() => DateScalar, { description: 'First day covered.' }) validFrom: string;
  @Field(() => DateScalar, { description: 'Last day covered (inclusive).' }) validUntil: string;
  @Field(() => Feedstock, { description: 'Raw material contracted.' }) feedstock: Feedstock;
  @Quantity() @Field(() => DecimalScalar, { description: 'Quantity contracted, in kg.' }) quantityKg: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Price per kg in reais, compared with the PGPAF minimum price in force on signedOn (Decreto 5.996/2006).' }) pricePerKg: Decimal;
  @Field({ description: 'Technical assistance and training assured (art. 3º §2 III).' }) technicalAssistance: boolean;
}

export const ContractConnection = connectionOf(ContractType, 'Contract');
