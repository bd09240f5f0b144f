import { Field, ID, InputType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock } from '../../law/types';
import { DateScalar, DecimalScalar } from '../scalars';

@InputType('CreateContractInput', { description: 'A purchase contract with exactly one counterparty: familyFarmerId or organizationId (art. 3º §2 II).' })
export class CreateContractInput {
  @Field(() => ID, { description: 'Producer that buys (a PRODUCER: its own).' }) producerId: string;
  @Field(() => ID, { nullable: true, description: 'Family farmer counterparty; give this or organizationId.' }) familyFarmerId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Cooperative or association counterparty; give this or familyFarmerId.' }) organizationId?: string | null;
  @Field(() => DateScalar, { description: 'Date of signature.' }) signedOn: string;
  @Field(() => DateScalar, { description: 'First day covered.' }) validFrom: string;
  @Field(() => DateScalar, { description: 'Last day covered (inclusive); not before validFrom.' }) validUntil: string;
  @Field(() => Feedstock, { description: 'Raw material contracted.' }) feedstock: Feedstock;
  @Field(() => DecimalScalar, { description: 'Quantity in kg, greater than zero.' }) quantityKg: Decimal;
  @Field(() => DecimalScalar, { description: 'Price per kg in reais, greater than zero.' }) pricePerKg: Decimal;
  @Field({ description: 'Technical assistance and training assured (art. 3º §2 III).' }) technicalAssistance: boolean;
}
