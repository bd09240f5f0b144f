import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock, Region, SealBaseRule, SealComplianceModel } from '../../law/types';
import { MinimumPriceType } from '../minimum-price/minimum-price.type';
import { DateScalar, DecimalScalar, Money } from '../scalars';
import { FindingType } from '../types/common';
import { SeloSpendingKind } from './purchase-selo.type';
import { SealAppliedFactorType } from './seal-factor.type';

export enum ExcludedItemSource { PURCHASE = 'PURCHASE', FOMENTO_EXPENSE = 'FOMENTO_EXPENSE' }
registerEnumType(ExcludedItemSource, {
  name: 'ExcludedItemSource',
  description: 'Which record an excluded item is: a Purchase or a FomentoExpense (their ids are separate sequences).',
  valuesConfig: {
    PURCHASE: { description: 'A purchase from a family farmer or organization (art. 3º §2 I a, b).' },
    FOMENTO_EXPENSE: { description: 'A fomento expense (art. 3º §2 I c).' },
  },
});

@ObjectType('ContractConformity', {
  description: 'Whether a contract meets art. 3º §2 II–III of Decreto 10.527/2020: signed before the first purchase it covers, price per kg at or above the PGPAF minimum price in force on the signing date (Decreto 5.996/2006), technical assistance assured.',
})
export class ContractConformityType {
  @Field({ description: 'Every condition holds: purchases it covers may count for the Selo.' }) conforming: boolean;
  @Field(() => [FindingType], { description: 'Each condition that fails: NO_PRIOR_CONTRACT, PRICE_BELOW_MINIMUM, NO_TECHNICAL_ASSISTANCE.' }) findings: FindingType[];
  @Field(() => MinimumPriceType, { nullable: true, description: 'The PGPAF minimum price in force on the signing date for the feedstock; null where none is (the price condition then does not apply).' })
  minimumPrice: MinimumPriceType | null;
}

@ObjectType('ExcludedItem', { description: 'A purchase from a family farmer or organization, or a fomento expense, that does not count for the Selo, with every reason (docs/LAW.md).' })
export class ExcludedItemType {
  @Field(() => ID, { description: 'Purchase or FomentoExpense id: every purchase from a family farmer or organization, and every fomento expense, that does not count.' }) id: string;
  @Field(() => ExcludedItemSource, { description: 'Whether id names a Purchase or a FomentoExpense.' }) source: ExcludedItemSource;
  @Money() @Field(() => DecimalScalar, { description: 'Acquisition cost of the purchase, or amount of the fomento expense, in reais (as recorded).' }) amount: Decimal;
  @Field(() => [FindingType], { description: 'Every reason it does not count.' }) findings: FindingType[];
}

export enum SealComplianceStatus { COMPLIANT = 'COMPLIANT', NOT_COMPLIANT = 'NOT_COMPLIANT', INCOMPLETE = 'INCOMPLETE', NOT_ESTABLISHED = 'NOT_ESTABLISHED' }
registerEnumType(SealComplianceStatus, {
  name: 'SealComplianceStatus',
  description: 'The year\'s verdict over every requirement in force (docs/LAW.md).',
  valuesConfig: {
    COMPLIANT: { description: 'Every requirement is met.' },
    NOT_COMPLIANT: { description: 'At least one requirement is not met.' },
    INCOMPLETE: { description: 'None fails, but the weighted total is incomplete: items await a factor not published (WEIGHTING_FACTOR_NOT_PUBLISHED; minimumShare.awaitingFactor says how much actual spending).' },
    NOT_ESTABLISHED: { description: 'None fails, but one cannot be judged yet: the minimum weighted percentage is not published (MINIMUM_NOT_PUBLISHED).' },
  },
});

@ObjectType('SealSpendingItem', {
  description: 'Counted Selo spending that shares every fact its weighing looks at (kind, region on its dates, product, organization profile, parameters in force): its actual value, each factor applied and its weighted value. Purchase.selo shows the same for one purchase.',
})
export class SealSpendingItemType {
  @Field(() => ExcludedItemSource, { description: 'Purchases or fomento expenses.' }) source: ExcludedItemSource;
  @Field(() => SeloSpendingKind, { description: 'Spending (a), (b) or (c) of art. 3º §2 I.' }) kind: SeloSpendingKind;
  @Field(() => Int, { description: 'How many purchases or fomento expenses.' }) count: number;
  @Field(() => Region, { description: 'Region of the spending: origin municipality of an acquisition, municipality of fomento.' }) region: Region;
  @Field({ description: 'That municipality lies in the Semiárido on the item\'s dates.' }) semiarid: boolean;
  @Field({ description: 'North, Northeast or Semiárido: part of the priority-region spending (requirement 2, on actual values).' }) priorityRegion: boolean;
  @Field(() => Feedstock, { nullable: true, description: 'The product of an acquisition (factor f); null for fomento.' }) product: Feedstock | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Of an acquisition from an organization: family-farmer members / members (factors a, b), 6 decimals; else null.' }) organizationShare: Decimal | null;
  @Field(() => DateScalar, { description: 'First day of the run of days whose parameters weigh it.' }) from: string;
  @Money() @Field(() => DecimalScalar, { description: 'Actual value spent, in reais, to the centavo.' }) actual: Decimal;
  @Field(() => [SealAppliedFactorType], { description: 'Each factor applied, by alínea (weighted model); empty under the flat model.' }) factors: SealAppliedFactorType[];
  @Field(() => DecimalScalar, { nullable: true, description: 'Product of the factors (1 when none applies); null while one of them has no published figure (alínea a), never read as 1.' }) weight: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'actual × weight, to the centavo; null while weight is.' }) weighted: Decimal | null;
  @Field(() => [FindingType], { description: 'Findings that do not exclude it: DAP_ISSUED_AFTER_CUTOFF, PURCHASE_BELOW_MINIMUM_PRICE, WEIGHTING_FACTOR_NOT_PUBLISHED; from 2024, ATER_COST_AS_DECLARED on fomento with technical-assistance expenses (how many of its expenses, and their amount).' }) findings: FindingType[];
}

@ObjectType('SealCountedItem', {
  description: 'One purchase or fomento expense that counts toward the Selo year (Decreto 10.527/2020, art. 3º §2º I a–c): its id, actual value, each factor applied by alínea and its weighted value.',
})
export class SealCountedItemType {
  @Field(() => ID, { description: 'The id of the Purchase or FomentoExpense (see source).' }) id: string;
  @Field(() => ExcludedItemSource, { description: 'Which record the id is.' }) source: ExcludedItemSource;
  @Field(() => SeloSpendingKind, { description: 'Spending (a), (b) or (c) of art. 3º §2 I.' }) kind: SeloSpendingKind;
  @Money() @Field(() => DecimalScalar, { description: 'Actual value (cost or amount as recorded), to the centavo.' }) actual: Decimal;
  @Field(() => [SealAppliedFactorType], { description: 'Each factor applied, by alínea (weighted model); empty under the flat model.' }) factors: SealAppliedFactorType[];
  @Field(() => DecimalScalar, { nullable: true, description: 'Product of the factors (1 when none applies); null while one has no published figure (alínea a).' }) weight: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'actual × weight, to the centavo; null while weight is.' }) weighted: Decimal | null;
  @Field({ description: 'Part of the priority-region spending (requirement 2).' }) priorityRegion: boolean;
  @Field(() => [FindingType], { description: 'Findings that do not exclude it: those of its item (SealSpendingItem.findings); ATER_COST_AS_DECLARED only on a technical-assistance fomento expense.' }) findings: FindingType[];
}

@ObjectType('SealCountedItemPage', { description: 'A page of the counted purchases and fomento expenses of a Selo year: purchases first, then fomento, each by id.' })
export class SealCountedItemPageType {
  @Field(() => Int, { description: 'How many rows count in the year.' }) totalCount: number;
  @Field(() => Int, { description: 'Rows skipped before this page.' }) offset: number;
  @Field(() => [SealCountedItemType], { description: 'The page.' }) items: SealCountedItemType[];
}

@ObjectType('SealMinimumShare', { description: 'Requirement 1: (weighted) counted spending / base ≥ the minimum share. Under the weighted model the minimum is the minimum weighted percentage of Portaria MDA nº 28/2024 (p. 39), open until an ADMIN publishes it.' })
export class SealMinimumShareType {
  @Field(() => DecimalScalar, { nullable: true, description: 'The minimum in force on 31 December (6 decimals); null while not published (MINIMUM_NOT_PUBLISHED).' }) requiredShare: Decimal | null;
  @Field({ description: 'Legal basis of the minimum (or of the provision that has none published yet).' }) legalBasis: string;
  @Field(() => DecimalScalar, { description: 'weightedTotal / base (0 when the base is zero).' }) achievedShare: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'The counted spending after weighting, to the centavo (countedTotal); items awaiting a factor are not in it.' }) weightedTotal: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Actual spending of the counted items whose weight awaits a factor not published (alínea a): not in weightedTotal.' }) awaitingFactor: Decimal;
  @Field({ description: 'No counted item awaits a factor: weightedTotal is complete.' }) weightedTotalComplete: boolean;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'requiredShare × base in weighted reais; null while the minimum is not published.' }) requiredAmount: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Art. 58: the balances of earlier evaluations brought in, in weighted reais (a surplus counts toward the minimum, a deficit adds to it); 0 when none; null while one cannot be established.' }) balanceIn: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Weighted reais still missing (requiredAmount − weightedTotal − balanceIn), rounded up to the centavo; 0 when met; null while the minimum (or a balance brought in) is not known.' }) shortfall: Decimal | null;
  @Field(() => Boolean, { nullable: true, description: 'Met; null while the minimum is not published.' }) compliant: boolean | null;
}

@ObjectType('SealPriorityRegionRequirement', { description: 'Requirement 2 (Portaria Interministerial MME/MDA nº 2/2023): the actual (unweighted) counted spending in the North, Northeast and Semiárido / the actual counted total ≥ 10% (2024), 15% (2025), 20% (from 2026). None before 2024.' })
export class SealPriorityRegionRequirementType {
  @Field(() => DecimalScalar, { nullable: true, description: 'The year\'s minimum; null before 2024 (no such requirement).' }) requiredShare: Decimal | null;
  @Field({ description: 'Legal basis of the minimum.' }) legalBasis: string;
  @Field(() => DecimalScalar, { description: 'amount / actualTotal (0 when nothing counted).' }) share: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Actual counted spending in the priority region, to the centavo.' }) amount: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Actual counted spending, to the centavo.' }) actualTotal: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Actual reais that, spent in the priority region, would reach the minimum: (requiredShare × actualTotal − amount) / (1 − requiredShare), rounded up to the centavo; 0 when met.' }) shortfall: Decimal;
  @Field({ description: 'Met (always before 2024).' }) compliant: boolean;
}

@ObjectType('SealBalanceIn', { description: 'The balance of an earlier year\'s evaluation counting toward this year (Portaria MDA nº 28/2024, art. 58).' })
export class SealBalanceInType {
  @Field(() => Int, { description: 'The evaluated year.' }) fromYear: number;
  @Field(() => DateScalar, { description: 'The day its result was communicated; it counts toward the year after.' }) communicatedOn: string;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Weighted reais, to the centavo: positive a surplus counting toward the minimum, negative a deficit to make up; null while the minimum of its year is not published (BALANCE_NOT_ESTABLISHED).' }) amount: Decimal | null;
  @Field(() => DateScalar, { description: 'A deficit must be made up by this day: 31 December of the year after the communication.' }) deadline: string;
  @Field({ description: 'Legal basis.' }) legalBasis: string;
}

@ObjectType('SealBalanceOut', { description: 'The year\'s own balance leaving it (Portaria MDA nº 28/2024, art. 58): weighted spending + balance brought in − the spending the minimum requires.' })
export class SealBalanceOutType {
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Weighted reais, to the centavo: a surplus (positive) or a deficit (negative); null while the minimum is not published.' }) amount: Decimal | null;
  @Field(() => DateScalar, { nullable: true, description: 'The day the year\'s evaluation was communicated (recordSealEvaluation), as known on asKnownOn; null until then.' }) communicatedOn: string | null;
  @Field(() => Int, { nullable: true, description: 'The year it counts toward: the year after the communication; null until communicated.' }) toYear: number | null;
  @Field({ description: 'Legal basis: the version of selo-balance-carry saying this year\'s balance carries.' }) legalBasis: string;
}

@ObjectType('SealBalance', { description: 'Balances of the evaluation (Portaria MDA nº 28/2024, art. 58): a year\'s surplus counts toward the year after its result is communicated, a deficit may be made up until the end of that year. Which years\' balances carry is law data (selo-balance-carry; shipped: 2024).' })
export class SealBalanceType {
  @Field(() => [SealBalanceInType], { description: 'The balances of earlier evaluations counting toward this year.' }) broughtIn: SealBalanceInType[];
  @Field(() => SealBalanceOutType, { nullable: true, description: 'This year\'s own balance, where its balance carries; null otherwise.' }) carriedOut: SealBalanceOutType | null;
  @Field({ description: 'Legal basis.' }) legalBasis: string;
}

@ObjectType('SealTechnicalAssistance', { description: 'Requirement 3 from 2024: technical assistance and training (Decreto 10.527/2020, art. 3º §2º III) are the producer\'s obligation: a contract without them gives a finding of the year, its purchases still count.' })
export class SealTechnicalAssistanceType {
  @Field({ description: 'Every contract of the year\'s purchases from family farming assures technical assistance.' }) compliant: boolean;
  @Field(() => [ID], { description: 'The contracts that do not, by id.' }) contractIds: string[];
  @Field({ description: 'Legal basis.' }) legalBasis: string;
}

@ObjectType('SealCompliance', {
  description: 'The Selo family-farming targets of one producer for one calendar year (Decreto 10.527/2020, art. 3º §2 I and §3º; Portaria Interministerial MME/MDA nº 2/2023; from 2024 Portaria MDA nº 28/2024, weighted). A year in progress is computed from the records so far. Money is shown to the centavo (half-even; shortfall rounded up), shares half-even to 6 decimals; comparisons use unrounded figures.',
})
export class SealComplianceType {
  @Field(() => Int, { description: 'Calendar year.' }) year: number;
  @Field(() => DateScalar, { description: 'The parameter versions used are those published by this date (docs/LAW.md).' }) asKnownOn: string;
  @Money() @Field(() => DecimalScalar, { description: 'Value of own biodiesel sold in the year (own production, every market; art. 3º §3º II).' }) salesRevenue: Decimal;
  @Field(() => SealBaseRule, { description: 'What the base is made of, by the wording in force for the year: RAW_MATERIAL_ACQUISITIONS (original art. 3º §3º II, to 2020–2021 as known before Decreto 10.708/2021), BIODIESEL_SOLD (§3º II from Decreto 10.708/2021), DOMESTIC_SALES (from 2024, Portaria MDA nº 28/2024).' }) baseRule: SealBaseRule;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Under RAW_MATERIAL_ACQUISITIONS: the cost of the raw material for biodiesel acquired in the year (not own production), the value the base starts from; else null.' }) rawMaterialAcquisitions: Decimal | null;
  @Money() @Field(() => DecimalScalar, { description: 'Excluded from the base for exports (art. 3º §3 III): under BIODIESEL_SOLD salesRevenue × exported volume / total volume, under RAW_MATERIAL_ACQUISITIONS the same share of the acquisitions, under DOMESTIC_SALES the value of the export sales.' }) exportedValue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'The base of the minimum share: (salesRevenue, or rawMaterialAcquisitions under the original wording) − exportedValue; from 2024 the gross value of own biodiesel sold on the domestic market.' }) base: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Counted spending (a): family-farming raw material for biodiesel, under a conforming prior contract from an eligible supplier (art. 3º §2 I a, II), before weighting.' }) familyFarmingAcquisitions: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Counted spending (b): other family-farming products bought in the priority region under a conforming prior contract (art. 3º §2 I b, II), before weighting.' }) otherProductAcquisitions: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Counted spending (c): fomento in the priority region (art. 3º §2 I c; art. 2º VII), before weighting.' }) fomento: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum after the weighting factors in force: (a), (b) and (c), each times the factors in force on its dates (weighted model: Portaria MDA nº 28/2024; flat model: the factor of its kind).' }) countedTotal: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Actual (unweighted) counted spending in the North, Northeast and Semiárido: (a) by origin municipality, all of (b) and (c) (requirement 2).' }) priorityRegionAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'countedTotal / base (0 when the base is zero, with the finding ZERO_BASE): under the weighted model, the achieved weighted share.' }) achievedShare: Decimal;
  @Field(() => DecimalScalar, { nullable: true, description: 'Minimum share in force on 31 December of the year: the plant region\'s (flat model, art. 3º §3º I) or the minimum weighted percentage (weighted model); null while the latter is not published (MINIMUM_NOT_PUBLISHED).' }) requiredShare: Decimal | null;
  @Field({ description: 'Legal basis of requiredShare.' }) requiredShareLegalBasis: string;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Reais still to spend to reach requiredShare (in counted, weighted reais), rounded up to the centavo; 0 when reached; null while the minimum is not published or, short of it, items await a factor.' }) shortfall: Decimal | null;
  @Field(() => Boolean, { nullable: true, description: 'Requirement 1: countedTotal / base ≥ requiredShare; null while it cannot be judged (minimum not published, or short of it with items awaiting a factor).' }) minimumShareMet: boolean | null;
  @Field(() => DecimalScalar, { description: 'Part of the actual counted spending in the priority region: priorityRegionAmount / actualTotal (0 when nothing counted).' }) priorityRegionShare: Decimal;
  @Field(() => DecimalScalar, { description: 'Minimum priority-region part for the year (Portaria Interministerial MME/MDA nº 2/2023: 10% 2024, 15% 2025, 20% from 2026); 0 before 2024, when there is none.' }) requiredPriorityRegionShare: Decimal;
  @Field({ description: 'Legal basis of requiredPriorityRegionShare.' }) requiredPriorityRegionShareLegalBasis: string;
  @Field({ description: 'Requirement 2: priorityRegionShare ≥ requiredPriorityRegionShare.' }) priorityRegionShareMet: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Every requirement met (status COMPLIANT); false when one is not; null while none fails and one cannot be judged (status INCOMPLETE or NOT_ESTABLISHED).' }) compliant: boolean | null;
  @Field(() => SealComplianceModel, { description: 'FLAT (up to 2023; 2024 as known before 2024-06-28) or WEIGHTED (from 2024, Portaria MDA nº 28/2024).' }) model: SealComplianceModel;
  @Field({ description: 'Legal basis of the model.' }) modelLegalBasis: string;
  @Money() @Field(() => DecimalScalar, { description: 'Counted spending (a) + (b) + (c) as spent, before weighting.' }) actualTotal: Decimal;
  @Field(() => SealComplianceStatus, { description: 'COMPLIANT, NOT_COMPLIANT; while none fails and one cannot be judged, INCOMPLETE (items await a factor) or NOT_ESTABLISHED (the minimum weighted percentage is not published).' }) status: SealComplianceStatus;
  @Field(() => SealMinimumShareType, { description: 'Requirement 1, with requiredShare and compliant null while the minimum is not published.' }) minimumShare: SealMinimumShareType;
  @Field(() => SealPriorityRegionRequirementType, { description: 'Requirement 2, on actual values.' }) priorityRegion: SealPriorityRegionRequirementType;
  @Field(() => SealTechnicalAssistanceType, { nullable: true, description: 'Requirement 3 (weighted model); null under the flat model, where a contract without technical assistance is the finding NO_TECHNICAL_ASSISTANCE of the year alone (its purchases still count).' }) technicalAssistance: SealTechnicalAssistanceType | null;
  @Field(() => SealBalanceType, { nullable: true, description: 'Balances brought in and carried out (weighted model, Portaria MDA nº 28/2024, art. 58); null under the flat model.' }) balance: SealBalanceType | null;
  @Field(() => [SealSpendingItemType], { description: 'Every counted item: its actual value, each factor applied and its weighted value; purchases first.' }) spending: SealSpendingItemType[];
  /** SealComplianceResolver.excluded: a page of them, or all. */
  excluded: ExcludedItemType[];
  @Field(() => [FindingType], { description: 'Findings about the year: ZERO_BASE, NO_COUNTED_SPENDING, MINIMUM_SHARE_NOT_REACHED, PRIORITY_REGION_SHARE_NOT_REACHED, MINIMUM_NOT_PUBLISHED, WEIGHTING_FACTOR_NOT_PUBLISHED, PURCHASE_BELOW_MINIMUM_PRICE, DAP_ISSUED_AFTER_CUTOFF (how many counted purchases), ATER_COST_AS_DECLARED (from 2024: how many counted technical-assistance fomento expenses, and their amount, counted as recorded), NO_TECHNICAL_ASSISTANCE (the producer\'s obligation, naming the contracts without it).' }) findings: FindingType[];
}
