import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { BiodieselOrigin, Market, RecordState } from '../../law/types';
import { connectionOf } from '../types/connection';
import { DateScalar, DecimalScalar, Money, Quantity } from '../scalars';

@ObjectType('Sale', { simpleResolvers: true, description: 'A sale of biodiesel: the PIS/Cofins base (Lei 11.116/2005, arts. 3º–4º) and the Selo base (Decreto 10.527/2020, art. 3º §3º II–III).' })
export class SaleType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => DateScalar, { description: 'Date of sale: decides the tax period and segment.' }) soldOn: string;
  @Quantity() @Field(() => DecimalScalar, { description: 'Volume sold, in m³ (the base of the per-m³ amounts, Lei 11.116/2005 art. 4º).' }) volumeM3: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Gross revenue in reais (the ad valorem base, Lei 11.116/2005 art. 3º).' }) revenue: Decimal;
  @Field(() => BiodieselOrigin, { description: 'Own production, or imported biodiesel (taxed at GENERAL, art. 6º §5).' }) origin: BiodieselOrigin;
  @Field(() => Market, { description: 'Domestic sale or export (no PIS/Cofins; excluded from the Selo base, art. 3º §3º III).' }) market: Market;
  @Field(() => String, { nullable: true, description: 'NF-e access key (44 positions, the issuer CNPJ possibly alphanumeric) naming the producer or one of its establishments as issuer; unique per producer when given.' }) invoiceKey: string | null;
  @Field(() => RecordState, { description: 'ACTIVE, or CANCELLED with its NF-e (cancelDocument): a cancelled record is kept but counted by no computation.' }) state: RecordState;
  @Field(() => Int, { description: 'Raised by each correction; a correction names it as expectedVersion (else CONFLICT VERSION_MISMATCH).' }) version: number;
}

export const SaleConnection = connectionOf(SaleType, 'Sale');
