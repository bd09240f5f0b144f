import { Field, ID, InputType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { FomentoKind } from '../../law/types';
import { DateScalar, DecimalScalar } from '../scalars';

@InputType('RecordFomentoInput', { description: 'One fomento expense (art. 2º VII).' })
export class RecordFomentoInput {
  @Field(() => ID, { description: 'Producer that spent (a PRODUCER: its own).' }) producerId: string;
  @Field(() => DateScalar, { description: 'Date of the spending.' }) spentOn: string;
  @Field(() => FomentoKind, { description: 'What was spent on.' }) kind: FomentoKind;
  @Field(() => DecimalScalar, { description: 'Amount in reais, greater than zero.' }) amount: Decimal;
  @Field({ description: 'IBGE code of the municipality where it was spent (decides the priority region, art. 3º §2 I c).' }) municipalityCode: string;
  @Field(() => ID, { nullable: true, description: 'Cooperative or association that received it, if any.' }) organizationId?: string | null;
  @Field(() => String, { nullable: true, description: 'Free description. At most 2000 characters.' }) description?: string | null;
}
