import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { BiodieselOrigin, Feedstock, FomentoKind, Market, PurchasePurpose, RecordState, SupplierKind } from '../../law/types';
import { BiodieselImportType } from '../biodiesel-import/biodiesel-import.type';
import { FomentoExpenseType } from '../fomento/fomento.type';
import { PurchaseType } from '../purchase/purchase.type';
import { SaleType } from '../sale/sale.type';
import { DateScalar, DecimalScalar, Money, Quantity } from '../scalars';
import { TaxPeriodType } from '../tax-period/tax-period.type';
import { CreditProduct, CreditSupplier, RevenueGroup } from '../../services/credit.service';
import '../credits/credit.enums';

const CLOSED_PERIODS = 'The closed tax months the change reached (an ADMIN\'s change only; anyone else\'s is refused with CONFLICT PERIOD_CLOSED): each as it reads now, its snapshot kept, with recomputedDiffers and differences giving the drift of the recomputation from what was closed.';
const EVALUATED_YEARS = 'The Selo years already evaluated (sealEvaluation) that the change reached: an ADMIN\'s change only.';

@ObjectType('RecordReturn', { simpleResolvers: true, description: 'Goods that came back (a return note, finNFe 4): part of a purchase or a sale, counted in the month of the return, not the original\'s (docs/LAW.md, "Returns").' })
export class RecordReturnType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => ID, { nullable: true, description: 'The purchase returned (in part), for goods sent back to the supplier.' }) purchaseId: string | null;
  @Field(() => ID, { nullable: true, description: 'The sale returned (in part), for biodiesel that came back.' }) saleId: string | null;
  @Field(() => DateScalar, { description: 'Date of the return: decides the tax month and the Selo year it reduces.' }) returnedOn: string;
  @Quantity() @Field(() => DecimalScalar, { description: 'Quantity returned: kg of a purchase, m³ of a sale.' }) quantity: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Value returned: of the purchase\'s cost or the sale\'s revenue.' }) value: Decimal;
  @Field({ description: 'The key of the note whose goods came back (refNFe).' }) originalKey: string;
  @Field(() => String, { nullable: true, description: 'The return note\'s own key: cancelDocument with it cancels the return.' }) invoiceKey: string | null;
  @Field(() => Int, { nullable: true, description: 'The original note\'s item number (nItem) of the purchase returned, when known (a purchase imported from its NF-e, or named by it).' }) originalItem: number | null;
  @Field(() => RecordState, { description: 'ACTIVE, or CANCELLED with its note.' }) state: RecordState;
}

@InputType('RecordReturnInput', { description: 'One return: the record it reduces (purchaseId or saleId), the key it is recorded with, and what came back.' })
export class RecordReturnInput {
  @Field({ description: 'The original NF-e\'s key (refNFe): the record must be recorded with it (else BAD_USER_INPUT).' }) originalKey: string;
  @Field(() => ID, { nullable: true, description: 'The purchase returned in part or whole (exactly one of purchaseId, saleId, feedstock).' }) purchaseId?: string | null;
  @Field(() => ID, { nullable: true, description: 'The sale returned in part or whole.' }) saleId?: string | null;
  @Field(() => DateScalar, { description: 'Date of the return, not before the original\'s; its tax month closed or its Selo year evaluated: CONFLICT PERIOD_CLOSED with the month to reopen, unless an ADMIN\'s (closedPeriod shows the drift).' }) returnedOn: string;
  @Field(() => DecimalScalar, { description: 'kg (purchase) or m³ (sale) returned, greater than zero; with earlier returns, at most the original\'s.' }) quantity: Decimal;
  @Field(() => DecimalScalar, { description: 'Value returned in reais, greater than zero; with earlier returns, at most the original\'s cost or revenue.' }) value: Decimal;
  @Field(() => String, { nullable: true, description: 'The return note\'s own key.' }) invoiceKey?: string | null;
  @Field(() => Feedstock, { nullable: true, description: 'Instead of purchaseId: the purchase of this feedstock recorded with originalKey in the caller\'s scope (none: NOT_FOUND).' }) feedstock?: Feedstock | null;
  @Field(() => Int, { nullable: true, description: 'The original note\'s item number (nItem). Required with feedstock only when the key has two or more purchases of it (else BAD_USER_INPUT on this field); with purchaseId it must be the purchase\'s own item.' }) originalItem?: number | null;
}

@ObjectType('DocumentCancellation', { description: 'The records of a cancelled NF-e: kept, audited, counted by no computation from then on.' })
export class DocumentCancellationType {
  @Field({ description: 'The NF-e access key.' }) key: string;
  @Field(() => [PurchaseType], { description: 'Its purchases, now CANCELLED.' }) purchases: PurchaseType[];
  @Field(() => [SaleType], { description: 'Its sales, now CANCELLED.' }) sales: SaleType[];
  @Field(() => [BiodieselImportType], { description: 'Its imports, now CANCELLED.' }) imports: BiodieselImportType[];
  @Field(() => [FomentoExpenseType], { description: 'Its fomento expenses, now CANCELLED.' }) fomentoExpenses: FomentoExpenseType[];
  @Field(() => [RecordReturnType], { description: 'Its returns, now CANCELLED, for a return note.' }) returns: RecordReturnType[];
  @Field(() => [TaxPeriodType], { description: CLOSED_PERIODS }) closedPeriods: TaxPeriodType[];
  @Field(() => [Int], { description: EVALUATED_YEARS }) evaluatedSeloYears: number[];
}

@ObjectType('PurchaseCorrection', { description: 'A purchase corrected (audited with before and after).' })
export class PurchaseCorrectionType {
  @Field(() => PurchaseType, { description: 'The purchase as corrected, its version raised.' }) purchase: PurchaseType;
  @Field(() => [TaxPeriodType], { description: CLOSED_PERIODS }) closedPeriods: TaxPeriodType[];
  @Field(() => [Int], { description: EVALUATED_YEARS }) evaluatedSeloYears: number[];
}

@ObjectType('SaleCorrection', { description: 'A sale corrected (audited with before and after).' })
export class SaleCorrectionType {
  @Field(() => SaleType, { description: 'The sale as corrected, its version raised.' }) sale: SaleType;
  @Field(() => [TaxPeriodType], { description: CLOSED_PERIODS }) closedPeriods: TaxPeriodType[];
  @Field(() => [Int], { description: EVALUATED_YEARS }) evaluatedSeloYears: number[];
}

@InputType('CorrectPurchaseInput', { description: 'The fields of a purchase to correct; an absent field is kept. The result must pass every rule of recordPurchases.' })
export class CorrectPurchaseInput {
  @Field(() => DateScalar, { nullable: true, description: 'Date of acquisition.' }) purchasedOn?: string;
  @Field(() => DateScalar, { nullable: true, description: 'Date of use in production (art. 6º §3), never before purchasedOn.' }) consumedOn?: string;
  @Field(() => Feedstock, { nullable: true, description: 'Raw material species.' }) feedstock?: Feedstock;
  @Field(() => DecimalScalar, { nullable: true, description: 'Quantity in kg, greater than zero.' }) quantityKg?: Decimal;
  @Field(() => DecimalScalar, { nullable: true, description: 'Acquisition cost in reais (null for OWN_PRODUCTION).' }) cost?: Decimal | null;
  @Field(() => SupplierKind, { nullable: true, description: 'Who supplied the lot.' }) supplierKind?: SupplierKind;
  @Field(() => ID, { nullable: true, description: 'The family farmer, for FAMILY_FARMER.' }) familyFarmerId?: string | null;
  @Field(() => ID, { nullable: true, description: 'The cooperative or association, for COOPERATIVE or ASSOCIATION.' }) organizationId?: string | null;
  @Field(() => String, { nullable: true, description: 'Name of the supplier, for THIRD_PARTY.' }) supplierName?: string | null;
  @Field(() => String, { nullable: true, description: 'The supplier\'s CNPJ or CPF, as in recordPurchases.' }) supplierDocument?: string | null;
  @Field({ nullable: true, description: 'IBGE code of the municipality where the raw material was produced.' }) originMunicipalityCode?: string;
  @Field(() => ID, { nullable: true, description: 'Contract of the same producer the lot was bought under.' }) contractId?: string | null;
  @Field(() => PurchasePurpose, { nullable: true, description: 'Raw material for biodiesel or another product.' }) purpose?: PurchasePurpose;
  @Field(() => String, { nullable: true, description: 'The NF-e access key of the note that documents the lot.' }) invoiceKey?: string | null;
  @Field(() => String, { nullable: true, description: 'The supplier\'s PIS/Cofins CST on the document, as in recordPurchases.' }) pisCofinsCst?: string | null;
  @Field(() => String, { nullable: true, description: 'The supplier\'s Cofins CST where it differs from pisCofinsCst, as in recordPurchases.' }) cofinsCst?: string | null;
  @Field(() => CreditSupplier, { nullable: true, description: 'Who sold, for the credit, as in recordPurchases.' }) creditSupplier?: CreditSupplier | null;
  @Field(() => CreditProduct, { nullable: true, description: 'What was bought, for the credit, as in recordPurchases.' }) creditProduct?: CreditProduct | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'ICMS in the cost, excluded from the credit\'s base, as in recordPurchases.' }) icmsValue?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Imports: PIS/Pasep-Importação actually paid, as in recordPurchases.' }) importPisPaid?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Imports: Cofins-Importação actually paid, as in recordPurchases.' }) importCofinsPaid?: Decimal | null;
  @Field(() => RevenueGroup, { nullable: true, description: 'Under DIRECT_ALLOCATION: the revenue the input served, as in recordPurchases.' }) creditRevenueGroup?: RevenueGroup | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'The CBS the invoice states (vCBS), as in recordPurchases.' }) cbsValue?: Decimal | null;
}

@InputType('CorrectSaleInput', { description: 'The fields of a sale to correct; an absent field is kept. The result must pass every rule of recordSales.' })
export class CorrectSaleInput {
  @Field(() => DateScalar, { nullable: true, description: 'Date of sale.' }) soldOn?: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'Volume in m³, greater than zero.' }) volumeM3?: Decimal;
  @Field(() => DecimalScalar, { nullable: true, description: 'Gross revenue in reais, greater than zero.' }) revenue?: Decimal;
  @Field(() => BiodieselOrigin, { nullable: true, description: 'Own production or imported.' }) origin?: BiodieselOrigin;
  @Field(() => Market, { nullable: true, description: 'Domestic or export.' }) market?: Market;
  @Field(() => String, { nullable: true, description: 'NF-e access key, as in recordSales.' }) invoiceKey?: string | null;
}


@ObjectType('ImportCorrection', { description: 'An import corrected (audited with before and after).' })
export class ImportCorrectionType {
  @Field(() => BiodieselImportType, { description: 'The import as corrected, its version raised.' }) biodieselImport: BiodieselImportType;
  @Field(() => [TaxPeriodType], { description: CLOSED_PERIODS }) closedPeriods: TaxPeriodType[];
  @Field(() => [Int], { description: EVALUATED_YEARS }) evaluatedSeloYears: number[];
}

@ObjectType('FomentoCorrection', { description: 'A fomento expense corrected (audited with before and after).' })
export class FomentoCorrectionType {
  @Field(() => FomentoExpenseType, { description: 'The expense as corrected, its version raised.' }) fomentoExpense: FomentoExpenseType;
  @Field(() => [TaxPeriodType], { description: CLOSED_PERIODS }) closedPeriods: TaxPeriodType[];
  @Field(() => [Int], { description: EVALUATED_YEARS }) evaluatedSeloYears: number[];
}

@InputType('CorrectImportInput', { description: 'The fields of an import to correct; an absent field is kept. The result must pass every rule of recordImports.' })
export class CorrectImportInput {
  @Field(() => DateScalar, { nullable: true, description: 'Date of customs clearance.' }) clearedOn?: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'Volume imported, in m³, greater than zero.' }) volumeM3?: Decimal;
  @Field({ nullable: true, description: 'The import declaration\'s number (DI or DUIMP), unique per producer.' }) declarationNumber?: string;
  @Field(() => String, { nullable: true, description: 'The NF-e of the foreign entry, which the importer issues itself: its key names the producer\'s CNPJ or one of its establishments (positions 7 to 20), else BAD_USER_INPUT.' }) invoiceKey?: string | null;
}

@InputType('CorrectFomentoInput', { description: 'The fields of a fomento expense to correct; an absent field is kept. The result must pass every rule of recordFomento.' })
export class CorrectFomentoInput {
  @Field(() => DateScalar, { nullable: true, description: 'Date of the spending.' }) spentOn?: string;
  @Field(() => FomentoKind, { nullable: true, description: 'What was spent on.' }) kind?: FomentoKind;
  @Field(() => DecimalScalar, { nullable: true, description: 'Amount in reais, greater than zero.' }) amount?: Decimal;
  @Field({ nullable: true, description: 'IBGE code of the municipality.' }) municipalityCode?: string;
  @Field(() => ID, { nullable: true, description: 'The organization, if any.' }) organizationId?: string | null;
  @Field(() => String, { nullable: true, description: 'Free description.' }) description?: string | null;
}
