import { Field, ID, InputType, Int } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock, PurchasePurpose, SupplierKind } from '../../law/types';
import { DateScalar, DecimalScalar } from '../scalars';
import { CreditProduct, CreditSupplier, RevenueGroup } from '../../services/credit.service';
import '../credits/credit.enums';

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
  @Field(() => String, { nullable: true, description: 'The supplier\'s CNPJ (the alphanumeric form included) or CPF, punctuation allowed; checked by its digits. Written as the participant of the EFD-Contribuições C191/C195 (field 02) of a credited acquisition; an NF-e import takes the issuer\'s.' }) supplierDocument?: string | null;
  @Field({ description: 'IBGE code of the municipality where the raw material was produced (decides the priority region, art. 6º I and III).' }) originMunicipalityCode: string;
  @Field(() => ID, { nullable: true, description: 'Contract of the same producer the lot was bought under (art. 3º §2 II).' }) contractId?: string | null;
  @Field(() => PurchasePurpose, { nullable: true, defaultValue: PurchasePurpose.BIODIESEL_FEEDSTOCK, description: 'Raw material for biodiesel (art. 3º §2 I a) or another product (I b).' })
  purpose?: PurchasePurpose | null;
  @Field(() => String, { nullable: true, description: 'Caller-chosen key, unique per producer (retries of a batch are refused with CONFLICT). At most 255 characters.' }) externalId?: string | null;
  @Field(() => String, { nullable: true, description: 'The NF-e access key of the note that documents the lot (the producer\'s entry note, the farmer\'s producer note or the cooperative\'s note): layout, model 55 and check digit verified (else BAD_USER_INPUT). A note of several items keys several lots; cancelDocument with the key cancels them all.' }) invoiceKey?: string | null;
  @Field(() => Int, { nullable: true, description: 'With invoiceKey: the item\'s number in that NF-e (nItem, 1–990). An item is one active purchase: one already recorded (typed, or imported from the note\'s XML) or given twice in the batch is CONFLICT DUPLICATE naming it.' }) invoiceItem?: number | null;
  @Field(() => String, { nullable: true, description: 'The supplier\'s PIS/Cofins CST on the document (tables 4.3.3/4.3.4), two digits: 01, 02, 03, 05 give the credit; 06–09 none (Lei 10.637/2002, art. 3º § 2º II). Absent: a credit that needs it is awaited.' }) pisCofinsCst?: string | null;
  @Field(() => String, { nullable: true, description: 'The supplier\'s Cofins CST where it differs from pisCofinsCst (two digits), the Cofins credit following it and the PIS/Pasep credit pisCofinsCst (each art. 3º § 2º II of Lei 10.637/2002 and Lei 10.833/2003). Absent, or equal to pisCofinsCst: the same CST for both. An NF-e import reads it from the item\'s COFINS group.' }) cofinsCst?: string | null;
  @Field(() => CreditSupplier, { nullable: true, description: 'Who sold, for the credit (Lei 10.637/2002, art. 3º § 3º I). Absent: NATURAL_PERSON for FAMILY_FARMER, COOPERATIVE for COOPERATIVE, COMPANY for ASSOCIATION; THIRD_PARTY awaits it.' }) creditSupplier?: CreditSupplier | null;
  @Field(() => CreditProduct, { nullable: true, description: 'What was bought, for the credit. Absent: from the feedstock (grains and fruit IN_NATURA, SOYBEAN, oils VEGETABLE_OIL, tallow ANIMAL_FAT); OTHER awaits it.' }) creditProduct?: CreditProduct | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'ICMS in the cost, excluded from the credit\'s base (Lei 10.637/2002, art. 3º § 2º III); 0 when none. Absent: the credit is awaited.' }) icmsValue?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Imports (creditSupplier ABROAD): PIS/Pasep-Importação actually paid (Lei 10.865/2004, art. 15 § 1º).' }) importPisPaid?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Imports: Cofins-Importação actually paid, without the additional (Lei 10.865/2004, art. 15 § 1º-A).' }) importCofinsPaid?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'From 2027: the CBS on the acquisition as its invoice states it (vCBS; an import, the CBS paid on it), the credit of LC 214/2025, art. 47; 0 when it bore none. A natural person\'s lot with 0 or none takes the presumed credit of art. 168 (a rural producer not a contributor); absent, any other lot\'s credit is awaited. An NF-e import reads it from the item.' }) cbsValue?: Decimal | null;
  @Field(() => RevenueGroup, { nullable: true, description: 'Under DIRECT_ALLOCATION: the revenue the input served (Lei 10.637/2002, art. 3º § 8º I).' }) creditRevenueGroup?: RevenueGroup | null;
}
