import { Field, ID, InputType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock, PurchasePurpose, SupplierKind } from '../../law/types';
import { DateScalar, DecimalScalar } from '../scalars';

@InputType('RecordPurchaseInput', {
  description: 'One lot of raw material. FAMILY_FARMER needs familyFarmerId; COOPERATIVE and ASSOCIATION an organizationId of that kind; THIRD_PARTY a supplierName; OWN_PRODUCTION none of them and no cost.',
})
export class RecordPurchaseInput {
  @Field(() => ID, { description: 'Producer that bought (a PRODUCER: its own).' }) producerId: string;
  @Field(() => DateScalar, { description: 'Date of acquisition.' }) purchasedOn: string;
  @Field(() => DateScalar, { nullable: true, description: 'Date of use in production (art. 6º §3); defaults to purchasedOn, never before it.' }) consumedOn?: string | null;
  @Field(() => Feedstock, { description: 'Raw material species.' }) feedstock: Feedstock;
  @Field(() => DecimalScalar, { description: 'Quantity in kg, greater than zero.' }) quantityKg: Decimal;
  @Field(() => DecimalScalar, { nullable: true, description: 'Acquisition cost in reais, greater than zero; absent for OWN_PRODUCTION (art. 6º §4).' }) cost?: Decimal | null;
  @Field(() => SupplierKind, { description: 'Who supplied the lot.' }) supplierKind: SupplierKind;
  @Field(() => ID, { nullable: true, description: 'The family farmer, for FAMILY_FARMER.' }) familyFarmerId?: string | null;
  @Field(() => ID, { nullable: true, description: 'The cooperative or association, for COOPERATIVE or ASSOCIATION.' }) organizationId?: string | null;
  @Field(() => String, { nullable: true, description: 'Name of the supplier, for THIRD_PARTY. At most 500 characters.' }) supplierName?: string | null;
  @Field({ description: 'IBGE code of the municipality where the raw material was produced (decides the priority region, art. 6º I and III).' }) originMunicipalityCode: string;
  @Field(() => ID, { nullable: true, description: 'Contract of the same producer the lot was bought under (art. 3º §2 II).' }) contractId?: string | null;
  @Field(() => PurchasePurpose, { nullable: true, defaultValue: PurchasePurpose.BIODIESEL_FEEDSTOCK, description: 'Raw material for biodiesel (art. 3º §2 I a) or another product (I b).' })
  purpose?: PurchasePurpose | null;
  @Field(() => String, { nullable: true, description: 'Caller-chosen key, unique per producer (retries of a batch are refused with CONFLICT). At most 255 characters.' }) externalId?: string | null;
  @Field(() => String, { nullable: true, description: 'The NF-e access key of the note that documents the lot (the producer\'s entry note, the farmer\'s producer note or the cooperative\'s note): layout, model 55 and check digit verified (else BAD_USER_INPUT). A note of several items keys several lots; cancelDocument with the key cancels them all.' }) invoiceKey?: string | null;
}
