import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock, PurchasePurpose, SupplierKind, RecordState } from '../../law/types';
import { CreditProduct, CreditSupplier, RevenueGroup } from '../../services/credit.service';
import { connectionOf } from '../types/connection';
import '../credits/credit.enums';
import { DateScalar, DecimalScalar, Money, Quantity } from '../scalars';

@ObjectType('Purchase', { simpleResolvers: true, description: 'A lot of raw material acquired or produced by a producer (Decreto 10.527/2020, art. 3º §2 I; art. 6º §§3º–4º).' })
export class PurchaseType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => DateScalar, { description: 'Date of acquisition.' }) purchasedOn: string;
  @Field(() => DateScalar, { description: "Date the raw material was used in production (art. 6º §3: 'utilizadas no período'). Defaults to purchasedOn." }) consumedOn: string;
  @Field(() => Feedstock, { description: 'Raw material species.' }) feedstock: Feedstock;
  @Quantity() @Field(() => DecimalScalar, { description: 'Quantity in kg.' }) quantityKg: Decimal;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Acquisition cost in reais; null for OWN_PRODUCTION (valued per art. 6º §4).' }) cost: Decimal | null;
  @Field(() => SupplierKind, { description: 'Who supplied the lot.' }) supplierKind: SupplierKind;
  @Field(() => String, { nullable: true, description: 'Name of the supplier, required for THIRD_PARTY.' }) supplierName: string | null;
  @Field(() => String, { nullable: true, description: 'The supplier\'s CNPJ or CPF, digits only, as recorded (EFD-Contribuições C191/C195 field 02); null: not recorded.' }) supplierDocument: string | null;
  @Field(() => PurchasePurpose, { description: 'Raw material for biodiesel (art. 3º §2 I a) or another product (I b).' }) purpose: PurchasePurpose;
  @Field(() => String, { nullable: true, description: 'Caller-chosen key; a second record with the same key for the same producer is a CONFLICT.' }) externalId: string | null;
  @Field(() => String, { nullable: true, description: 'The NF-e access key of the document that records it, if given: cancelDocument with this key cancels it.' }) invoiceKey: string | null;
  @Field(() => Int, { nullable: true, description: 'The item\'s number in its NF-e (nItem), for a purchase imported from the note.' }) invoiceItem: number | null;
  @Field(() => String, { nullable: true, description: 'The NF-e item\'s PIS/Cofins CST (tax situation code), for a purchase imported from the note.' }) pisCofinsCst: string | null;
  @Field(() => String, { nullable: true, description: 'The supplier\'s Cofins CST where it differs from pisCofinsCst; null: the same.' }) cofinsCst: string | null;
  @Field(() => CreditSupplier, { nullable: true, description: 'Who sold, for the credit, as recorded (Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 3º I); null: taken from supplierKind where it says, else the credit awaits it.' }) creditSupplier: CreditSupplier | null;
  @Field(() => CreditProduct, { nullable: true, description: 'What was bought, for the credit, as recorded; null: taken from the feedstock where it says.' }) creditProduct: CreditProduct | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'ICMS included in the cost, excluded from the credit\'s base (art. 3º § 2º III); null: not recorded.' }) icmsValue: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Imports: PIS/Pasep-Importação actually paid (Lei 10.865/2004, art. 15 § 1º).' }) importPisPaid: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Imports: Cofins-Importação actually paid (Lei 10.865/2004, art. 15 § 1º).' }) importCofinsPaid: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'The CBS the invoice states (vCBS), the credit of an acquisition from 2027 (LC 214/2025, art. 47); null: not recorded.' }) cbsValue: Decimal | null;
  @Field(() => RevenueGroup, { nullable: true, description: 'Under direct allocation, the revenue the input served (art. 3º § 8º I), as recorded.' }) creditRevenueGroup: RevenueGroup | null;
  @Field(() => RecordState, { description: 'ACTIVE, or CANCELLED with its NF-e (cancelDocument): a cancelled record is kept but counted by no computation.' }) state: RecordState;
  @Field(() => Int, { description: 'Raised by each correction; a correction names it as expectedVersion (else CONFLICT VERSION_MISMATCH).' }) version: number;
}

export const PurchaseConnection = connectionOf(PurchaseType, 'Purchase');
