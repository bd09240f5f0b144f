import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { MinimumPriceType } from '../minimum-price/minimum-price.type';
import { DateScalar, DecimalScalar } from '../scalars';
import { FindingType } from '../types/common';

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

@ObjectType('ExcludedItem', { description: 'A purchase from a family farmer or organization, or a fomento expense, that does not count for the Selo, with every reason (DESIGN §1.6).' })
export class ExcludedItemType {
  @Field(() => ID, { description: 'Purchase or FomentoExpense id: every purchase from a family farmer or organization, and every fomento expense, that does not count.' }) id: string;
  @Field(() => ExcludedItemSource, { description: 'Whether id names a Purchase or a FomentoExpense.' }) source: ExcludedItemSource;
  @Field(() => DecimalScalar, { description: 'Acquisition cost of the purchase, or amount of the fomento expense, in reais (as recorded).' }) amount: Decimal;
  @Field(() => [FindingType], { description: 'Every reason it does not count.' }) findings: FindingType[];
}

@ObjectType('SealCompliance', {
  description: 'The Selo family-farming targets of one producer for one calendar year (Decreto 10.527/2020, art. 3º §2 I and §3º; Portaria Interministerial MME/MDA nº 2/2023). A year in progress is computed from the records so far. Money is shown to the centavo (half-even; shortfall rounded up), shares half-even to 6 decimals; comparisons use unrounded figures.',
})
export class SealComplianceType {
  @Field(() => Int, { description: 'Calendar year.' }) year: number;
  @Field(() => DateScalar, { description: 'The parameter versions used are those published by this date (DESIGN §1.4).' }) asKnownOn: string;
  @Field(() => DecimalScalar, { description: 'Value of own biodiesel sold in the year (own production, every market; art. 3º §3º II).' }) salesRevenue: Decimal;
  @Field(() => DecimalScalar, { description: 'Revenue proportional to exported volume, excluded from the base (art. 3º §3 III): salesRevenue × exported volume / total volume of own production.' }) exportedValue: Decimal;
  @Field(() => DecimalScalar, { description: 'salesRevenue − exportedValue: the base of the minimum share (art. 3º §3º II–III).' }) base: Decimal;
  @Field(() => DecimalScalar, { description: 'Counted spending (a): family-farming raw material for biodiesel, under a conforming prior contract from an eligible supplier (art. 3º §2 I a, II), before weighting.' }) familyFarmingAcquisitions: Decimal;
  @Field(() => DecimalScalar, { description: 'Counted spending (b): other family-farming products bought in the priority region under a conforming prior contract (art. 3º §2 I b, II), before weighting.' }) otherProductAcquisitions: Decimal;
  @Field(() => DecimalScalar, { description: 'Counted spending (c): fomento in the priority region (art. 3º §2 I c; art. 2º VII), before weighting.' }) fomento: Decimal;
  @Field(() => DecimalScalar, { description: 'Sum after any weighting factors in force: (a), (b) and (c), each times the factor in force on its date.' }) countedTotal: Decimal;
  @Field(() => DecimalScalar, { description: 'Part of countedTotal in the North, Northeast and Semiárido: (a) by origin municipality, all of (b) and (c).' }) priorityRegionAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'countedTotal / base (0 when the base is zero, with the finding ZERO_BASE).' }) achievedShare: Decimal;
  @Field(() => DecimalScalar, { description: 'Minimum share for the producer\'s plant region, in force on 31 December of the year (art. 3º §3º I).' }) requiredShare: Decimal;
  @Field({ description: 'Legal basis of requiredShare.' }) requiredShareLegalBasis: string;
  @Field(() => DecimalScalar, { description: 'Reais still to spend to reach requiredShare (in counted, weighted reais); 0 when reached. Rounded up to the centavo.' }) shortfall: Decimal;
  @Field({ description: 'Requirement 1: countedTotal / base ≥ requiredShare.' }) minimumShareMet: boolean;
  @Field(() => DecimalScalar, { description: 'Part of countedTotal spent in the priority region: priorityRegionAmount / countedTotal (0 when nothing counted).' }) priorityRegionShare: Decimal;
  @Field(() => DecimalScalar, { description: 'Minimum priority-region part for the year (Portaria Interministerial MME/MDA nº 2/2023: 10% 2024, 15% 2025, 20% from 2026).' }) requiredPriorityRegionShare: Decimal;
  @Field({ description: 'Legal basis of requiredPriorityRegionShare.' }) requiredPriorityRegionShareLegalBasis: string;
  @Field({ description: 'Requirement 2: priorityRegionShare ≥ requiredPriorityRegionShare.' }) priorityRegionShareMet: boolean;
  @Field({ description: 'Both requirements met.' }) compliant: boolean;
  @Field(() => [ExcludedItemType], { description: 'Every purchase from a family farmer or organization, and every fomento expense, of the year that does not count, with all its findings; purchases first, by id.' }) excluded: ExcludedItemType[];
  @Field(() => [FindingType], { description: 'Findings about the year: ZERO_BASE, NO_COUNTED_SPENDING, MINIMUM_SHARE_NOT_REACHED, PRIORITY_REGION_SHARE_NOT_REACHED.' }) findings: FindingType[];
}
