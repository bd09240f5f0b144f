import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { FomentoKind, RecordState } from '../../law/types';
import { DateScalar, DecimalScalar, Money } from '../scalars';

@ObjectType('FomentoExpense', { description: 'Fomento spending for family farming (Decreto 10.527/2020, art. 2º VII; counted by art. 3º §2 I c in the priority region).' })
export class FomentoExpenseType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => DateScalar, { description: 'Date of the spending.' }) spentOn: string;
  @Field(() => FomentoKind, { description: 'What was spent on.' }) kind: FomentoKind;
  @Money() @Field(() => DecimalScalar, { description: 'Amount in reais.' }) amount: Decimal;
  @Field(() => String, { nullable: true, description: 'Free description.' }) description: string | null;
  @Field(() => String, { nullable: true, description: 'The NF-e access key of the document that records it, if given: cancelDocument with this key cancels it.' }) invoiceKey: string | null;
  @Field(() => RecordState, { description: 'ACTIVE, or CANCELLED with its NF-e (cancelDocument): a cancelled record is kept but counted by no computation.' }) state: RecordState;
  @Field(() => Int, { description: 'Raised by each correction; a correction names it as expectedVersion (else CONFLICT VERSION_MISMATCH).' }) version: number;
}
