import { Field, ID, InputType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { DateScalar, DecimalScalar } from '../scalars';

@InputType('RecordImportInput', { description: 'One import of biodiesel (Decreto 10.527/2020, art. 5º §1º).' })
export class RecordImportInput {
  @Field(() => ID, { description: 'Producer that imported (a PRODUCER: its own).' }) producerId: string;
  @Field(() => DateScalar, { description: 'Date of customs clearance; its month must be open.' }) clearedOn: string;
  @Field(() => DecimalScalar, { description: 'Volume in m³, greater than zero.' }) volumeM3: Decimal;
  @Field({ description: 'The import declaration\'s number (DI, e.g. 26/1234567-8, or DUIMP): 5 to 40 letters, digits, "/", "-" or "."; unique per producer (CONFLICT DUPLICATE otherwise).' }) declarationNumber: string;
}
