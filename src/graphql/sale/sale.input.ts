import { Field, ID, InputType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { BiodieselOrigin, Market } from '../../law/types';
import { DateScalar, DecimalScalar } from '../scalars';

@InputType('RecordSaleInput', { description: 'One sale of biodiesel.' })
export class RecordSaleInput {
  @Field(() => ID, { description: 'Producer that sold (a PRODUCER: its own).' }) producerId: string;
  @Field(() => DateScalar, { description: 'Date of sale.' }) soldOn: string;
  @Field(() => DecimalScalar, { description: 'Volume in m³, greater than zero.' }) volumeM3: Decimal;
  @Field(() => DecimalScalar, { description: 'Gross revenue in reais, greater than zero.' }) revenue: Decimal;
  @Field(() => BiodieselOrigin, { nullable: true, defaultValue: BiodieselOrigin.OWN_PRODUCTION, description: 'Own production (default) or imported (art. 6º §5).' })
  origin?: BiodieselOrigin | null;
  @Field(() => Market, { nullable: true, defaultValue: Market.DOMESTIC, description: 'Domestic (default) or export.' }) market?: Market | null;
  @Field(() => String, { nullable: true, description: 'NF-e access key (Ajuste SINIEF 07/2005; NT Conjunta 2025.001): 44 positions, digits but for an alphanumeric issuer CNPJ, model 55, its modulo-11 check digit right; the issuer CNPJ (positions 7 to 20) is the producer\'s or one of its establishments\' (else BAD_USER_INPUT); unique per producer (CONFLICT DUPLICATE).' }) invoiceKey?: string | null;
}
