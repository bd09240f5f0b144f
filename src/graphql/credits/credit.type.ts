import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ApportionmentMethod, CbsCreditKind, ClaimKind, Contribution, CreditKind, CreditStatus, IncidenceRegime, RevenueGroup } from '../../services/credit.service';
import { Decimal } from '../../law/decimal';
import { DateScalar, DecimalScalar, Money } from '../scalars';
import './credit.enums';

@ObjectType('PurchaseCredit', { description: 'The credit of one purchase of the month (Lei 10.637/2002 and Lei 10.833/2003, art. 3º; Lei 10.865/2004, art. 15), or why none, or what it awaits.' })
export class PurchaseCreditType {
  @Field(() => ID, { description: 'The purchase.' }) purchaseId: string;
  @Field(() => CreditStatus, { description: 'Whether the credit is computed.' }) status: CreditStatus;
  @Field(() => CreditKind, { nullable: true, description: 'BASIC or IMPORT; null without a credit.' }) kind: CreditKind | null;
  @Field(() => String, { nullable: true, description: 'Why no credit or what is awaited: NATURAL_PERSON_SUPPLIER, SUSPENDED_IN_NATURA, SUSPENDED_SOYBEAN, SUPPLIER_ZERO_RATE, SUPPLIER_EXEMPT, SUPPLIER_NOT_SUBJECT, SUPPLIER_SUSPENDED, SUPPLIER_NOT_TAXED, PIS_COFINS_EXTINCT, CST_NOT_RECORDED, ICMS_NOT_RECORDED, … (docs/LAW.md, "Credits").' }) reason: string | null;
  @Field(() => String, { nullable: true, description: 'The parameter (credit-choice/…) or purchase field awaited.' }) awaiting: string | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Base: the value net of ICMS (art. 3º § 2º III); for an import, its value.' }) base: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'PIS/Pasep rate as a fraction (1,65% = 0.0165); null for an import (the contribution paid is the credit).' }) pisRate: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Cofins rate as a fraction (7,6% = 0.076).' }) cofinsRate: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'PIS/Pasep credit, half-even to the centavo.' }) pis: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Cofins credit, half-even to the centavo.' }) cofins: Decimal | null;
  @Field(() => String, { nullable: true, description: 'NAT_BC_CRED (table 4.3.7): 01 goods bought for resale, 02 inputs.' }) natBcCred: string | null;
  @Field(() => RevenueGroup, { nullable: true, description: 'Under direct allocation, the revenue the purchase served.' }) allocatedTo: RevenueGroup | null;
  @Field({ description: 'The provisions applied.' }) legalBasis: string;
}

@ObjectType('CbsPurchaseCredit', { description: 'The CBS credit of one purchase of the month from 2027 (LC 214/2025, arts. 47, 168 and 180), or why none, or what it awaits; a return reverses its share, negative, on its day.' })
export class CbsPurchaseCreditType {
  @Field(() => ID, { description: 'The purchase.' }) purchaseId: string;
  @Field(() => DateScalar, { description: 'The day of the acquisition, or of the return that reverses its share.' }) on: string;
  @Field(() => CreditStatus, { description: 'Whether the credit is computed.' }) status: CreditStatus;
  @Field(() => CbsCreditKind, { nullable: true, description: 'ACQUISITION or PRESUMED; null without a credit.' }) kind: CbsCreditKind | null;
  @Field(() => String, { nullable: true, description: 'Why no credit or what is awaited: FUEL_FOR_RESALE, NO_CBS_ON_ACQUISITION, CBS_NOT_RECORDED, PRESUMED_RATE_NOT_PUBLISHED, COST_NOT_RECORDED (docs/LAW.md, "CBS credits").' }) reason: string | null;
  @Field(() => String, { nullable: true, description: 'The purchase field (cbsValue, cost) or parameter (cbs-presumed-credit) awaited.' }) awaiting: string | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'The acquisition\'s value.' }) base: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'The presumed credit\'s percentage, a fraction; null for the CBS paid.' }) rate: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'The credit, half-even to the centavo; negative for a return.' }) amount: Decimal | null;
  @Field({ description: 'The provisions applied.' }) legalBasis: string;
}

@ObjectType('CreditLine', { description: 'A credit of the month in one revenue group: a line of M100/M500 (COD_CRED, table 4.3.6).' })
export class CreditLineType {
  @Field(() => RevenueGroup, { description: 'The revenue it serves.' }) group: RevenueGroup;
  @Field(() => CreditKind, { description: 'Basic, import or presumed.' }) kind: CreditKind;
  @Field({ description: 'COD_CRED: the group digit and the kind\'s two digits (101, 201, 307, …).' }) codCred: string;
  @Money() @Field(() => DecimalScalar, { description: 'Base of the credit (values net of ICMS; revenue for the presumed credit).' }) base: Decimal;
  @Field(() => DecimalScalar, { nullable: true, description: 'PIS/Pasep rate applied, a fraction (the share × 1,65% for the presumed credit); null for imports.' }) pisRate: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Cofins rate applied, a fraction.' }) cofinsRate: Decimal | null;
  @Money() @Field(() => DecimalScalar, { description: 'PIS/Pasep credit.' }) pis: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Cofins credit.' }) cofins: Decimal;
  @Field({ description: 'The provisions applied.' }) legalBasis: string;
}

@ObjectType('CreditReversal', { description: 'A return of a purchase of an earlier month: the credit it reverses, taken from the balance that holds it, by month of origin and COD_CRED (registers 1100/1500 field 17; docs/LAW.md, "Returns").' })
export class CreditReversalType {
  @Field(() => ID, { description: 'The purchase returned.' }) purchaseId: string;
  @Field(() => DateScalar, { description: 'The day of the (last) return.' }) on: string;
  @Field(() => Int, { description: 'Year of the month whose credit is reversed.' }) originYear: number;
  @Field(() => Int, { description: 'Month whose credit is reversed.' }) originMonth: number;
  @Field(() => RevenueGroup, { description: 'The group of that credit.' }) group: RevenueGroup;
  @Field({ description: 'COD_CRED of that credit.' }) codCred: string;
  @Money() @Field(() => DecimalScalar, { description: 'The base reversed, negative.' }) base: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'PIS/Pasep reversed, negative: the base × the rate, rounded once per balance.' }) pis: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Cofins reversed, negative.' }) cofins: Decimal;
}

@ObjectType('PresumedCreditPart', { description: 'The Lei 12.865/2013 art. 31 presumed credit of a day\'s biodiesel revenue (domestic or export, even at R$ 0,00, § 1º).' })
export class PresumedCreditPartType {
  @Field(() => DateScalar, { description: 'The day of the sales.' }) on: string;
  @Field(() => RevenueGroup, { description: 'The group of the revenue.' }) group: RevenueGroup;
  @Money() @Field(() => DecimalScalar, { description: 'The revenue, the base.' }) revenue: Decimal;
  @Field(() => CreditStatus, { description: 'AWAITING_PARAMETER while the share (presumed-credit-biodiesel) is not published.' }) status: CreditStatus;
  @Field(() => DecimalScalar, { nullable: true, description: 'The share of the art. 2º rates (§ 2º); null while not published.' }) share: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'revenue × share × 1,65%; null while awaited.' }) pis: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'revenue × share × 7,6%; null while awaited.' }) cofins: Decimal | null;
  @Field({ description: 'The provisions applied.' }) legalBasis: string;
}

@ObjectType('TaxPeriodCredits', { description: 'The month\'s non-cumulative credits (Lei 10.637/2002 and Lei 10.833/2003, art. 3º), to 31/12/2026.' })
export class TaxPeriodCreditsType {
  @Field(() => [CreditLineType], { description: 'By group and COD_CRED: what the net deducts.' }) lines: CreditLineType[];
  /** MonthCreditsResolver.purchases: a page of them, or all. */
  purchases: PurchaseCreditType[];
  @Field(() => [PresumedCreditPartType], { description: 'The art. 31 presumed credit by day of revenue.' }) presumed: PresumedCreditPartType[];
  @Field(() => [CreditReversalType], { description: 'Returns this month of purchases of earlier months, each reversing the balance of its month of origin and COD_CRED (a return of a purchase of this month nets in `lines`). Empty in months closed before it was kept.' }) reversals: CreditReversalType[];
  @Field(() => ApportionmentMethod, { nullable: true, description: 'The method elected for the year; null when none is on record.' }) method: ApportionmentMethod | null;
  @Field({ description: 'True when the revenue spans groups and no method is elected for the year: the common credits are not in `lines` until one is.' }) awaitingElection: boolean;
  @Field(() => [String], { description: 'The amounts not computed, each with what it awaits (a purchase field, a parameter, the election).' }) awaiting: string[];
  @Field(() => [String], { description: 'Months up to this one whose debit could not be computed (their credits carried whole), and recorded claims the balances no longer support (a record written after the claim): each says by how much, the claim taking what is left of its balance.' }) warnings: string[];
}

@ObjectType('TaxPeriodNet', { description: 'The month\'s net: the debits less the credits, in the order of docs/LAW.md (Lei 10.637/2002, art. 3º § 4º); from 2027 the CBS less the balances offset (LC 214/2025, art. 378 III).' })
export class TaxPeriodNetType {
  @Money() @Field(() => DecimalScalar, { description: 'PIS/Pasep debit (TaxPeriod.pisDue).' }) pisDebit: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Cofins debit (TaxPeriod.cofinsDue).' }) cofinsDebit: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Credits of the month deducted from the PIS/Pasep debit.' }) pisCreditsOfMonthDeducted: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Credits of the month deducted from the Cofins debit.' }) cofinsCreditsOfMonthDeducted: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Balances of earlier months deducted from the PIS/Pasep debit.' }) pisEarlierDeducted: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Balances of earlier months deducted from the Cofins debit.' }) cofinsEarlierDeducted: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'PIS/Pasep payable.' }) pisDue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Cofins payable.' }) cofinsDue: Decimal;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'From 2027: the CBS on biodiesel before offsets; null before 2027 or while its rate is not published.' }) cbsDue: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'From 2027: the month\'s CBS credits (credits.cbsPurchases computed, returns netted; LC 214/2025, arts. 47 and 168); null before 2027.' }) cbsCredits: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'CBS credits, of the month and carried from earlier months, deducted from cbsDue before any offset; null while the CBS is not known.' }) cbsCreditsDeducted: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'CBS credits carried after the month; null before 2027.' }) cbsCreditBalance: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'PIS/Pasep and Cofins balances offset against the CBS left after its credits (LC 214/2025, art. 378 III); null while the CBS is not known.' }) cbsOffset: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'cbsDue − cbsCreditsDeducted − cbsOffset.' }) cbsNetDue: Decimal | null;
  @Money() @Field(() => DecimalScalar, { description: 'PIS/Pasep balances that may be refunded or offset after this month (groups 200/300, quarters ended; Lei 11.116/2005, art. 16).' }) pisRefundable: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Cofins counterpart of pisRefundable.' }) cofinsRefundable: Decimal;
}

@ObjectType('CreditBalance', { description: 'A balance by origin month, group and COD_CRED (registers 1100/1500), with no time limit (Lei 10.637/2002, art. 3º § 4º).' })
export class CreditBalanceType {
  @Field(() => Contribution, { description: 'PIS/Pasep or Cofins.' }) tax: Contribution;
  @Field(() => Int, { description: 'Year of the month of origin.' }) originYear: number;
  @Field(() => Int, { description: 'Month of origin.' }) originMonth: number;
  @Field(() => RevenueGroup, { description: 'The revenue the credit serves.' }) group: RevenueGroup;
  @Field({ description: 'COD_CRED (table 4.3.6).' }) codCred: string;
  @Money() @Field(() => DecimalScalar, { description: 'The credit of the origin month.' }) original: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Deducted from debits so far.' }) deducted: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Consumed by recorded claims.' }) claimed: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Offset against the CBS from 2027 (LC 214/2025, art. 378 III).' }) offsetAgainstCbs: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Consumed by reversed credits (returns of purchases: EFD M110/M510, or 1100/1500 field 17 in a later month).' }) reversed: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'What is left.' }) remaining: Decimal;
  @Field(() => DateScalar, { nullable: true, description: 'The first day it may be refunded in cash (after its quarter; an offset, DCOMP, of COD_CRED 301–304 and 308 needs no wait, Lei 10.637/2002, art. 5º § 1º II); null when it may only be deducted (group 100, and codes the Guia does not list).' }) refundableFrom: string | null;
}

@ObjectType('CreditClaim', { description: 'A PER/DCOMP recorded against a balance (Lei 11.116/2005, art. 16).' })
export class CreditClaimType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => Contribution, { description: 'PIS/Pasep or Cofins.' }) tax: Contribution;
  @Field(() => Int, { description: 'Year of the balance\'s month of origin.' }) originYear: number;
  @Field(() => Int, { description: 'Month of origin.' }) originMonth: number;
  @Field({ description: 'COD_CRED of the balance.' }) codCred: string;
  @Field(() => ClaimKind, { description: 'Refund or offset.' }) kind: ClaimKind;
  @Field(() => DateScalar, { description: 'Day filed.' }) filedOn: string;
  @Money() @Field(() => DecimalScalar, { description: 'Amount claimed.' }) amount: Decimal;
}

@ObjectType('CreditApportionmentElection', { description: 'The method of apportioning common credits for a calendar year (Lei 10.637/2002, art. 3º §§ 8º–9º).' })
export class CreditApportionmentElectionType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => ID, { description: 'The producer.' }) producerId: string;
  @Field(() => Int, { description: 'The calendar year it governs.' }) year: number;
  @Field(() => ApportionmentMethod, { description: 'The method.' }) method: ApportionmentMethod;
  @Field(() => DateScalar, { description: 'Day of the election.' }) electedOn: string;
}

@ObjectType('IncidenceElection', { description: 'The regime of incidence of a calendar year (Lei 10.637/2002 art. 8º; Lei 10.833/2003 art. 10), irrevocable for the year.' })
export class IncidenceElectionType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => ID, { description: 'The producer.' }) producerId: string;
  @Field(() => Int, { description: 'The calendar year it governs.' }) year: number;
  @Field(() => IncidenceRegime, { description: 'The regime.' }) regime: IncidenceRegime;
  @Field(() => DateScalar, { description: 'Day of the election.' }) electedOn: string;
}

@InputType('ElectIncidenceRegimeInput', { description: 'The regime of incidence for a calendar year, once: ADMIN, or the PRODUCER for itself.' })
export class ElectIncidenceRegimeInput {
  @Field(() => ID, { description: 'The producer.' }) producerId: string;
  @Field(() => Int, { description: 'The calendar year (to 2026).' }) year: number;
  @Field(() => IncidenceRegime, { description: 'The regime.' }) regime: IncidenceRegime;
  @Field(() => DateScalar, { description: 'Day of the election.' }) electedOn: string;
}

@InputType('RecordCreditClaimInput', { description: 'A PER/DCOMP against one balance: ADMIN, or the PRODUCER for itself.' })
export class RecordCreditClaimInput {
  @Field(() => ID, { description: 'The producer.' }) producerId: string;
  @Field(() => Contribution, { description: 'PIS/Pasep or Cofins.' }) tax: Contribution;
  @Field(() => Int, { description: 'Year of the balance\'s month of origin.' }) originYear: number;
  @Field(() => Int, { description: 'Month of origin, 1 to 12.' }) originMonth: number;
  @Field({ description: 'COD_CRED of the balance: 201–204, 208, 301–304, 307, 308 may be claimed (Guia Prático, register 1100).' }) codCred: string;
  @Field(() => ClaimKind, { description: 'Refund or offset.' }) kind: ClaimKind;
  @Field(() => DateScalar, { description: 'Day filed: after the quarter of the month of origin.' }) filedOn: string;
  @Field(() => DecimalScalar, { description: 'Amount, above zero and at most the balance left on filedOn.' }) amount: Decimal;
  @Field(() => String, { nullable: true, description: 'The PER/DCOMP number.' }) documentNumber?: string | null;
}

@InputType('ElectCreditApportionmentInput', { description: 'The method of apportioning common credits for a calendar year, once (Lei 10.637/2002, art. 3º § 9º): ADMIN, or the PRODUCER for itself.' })
export class ElectCreditApportionmentInput {
  @Field(() => ID, { description: 'The producer.' }) producerId: string;
  @Field(() => Int, { description: 'The calendar year (to 2026).' }) year: number;
  @Field(() => ApportionmentMethod, { description: 'The method.' }) method: ApportionmentMethod;
  @Field(() => DateScalar, { description: 'Day of the election.' }) electedOn: string;
}
