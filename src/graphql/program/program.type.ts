import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Decimal } from '../../law/decimal';
import { Feedstock, Region } from '../../law/types';
import { DateScalar, DecimalScalar, Money } from '../scalars';
import { FindingType } from '../types/common';
import { ProducerType } from '../producer/producer.type';
import { SealComplianceType } from '../compliance/compliance.type';
import { SeloSpendingKind } from '../compliance/purchase-selo.type';

export enum ProgramStanding { REGULAR = 'REGULAR', SUSPENDED = 'SUSPENDED', CANCELLED = 'CANCELLED', EXPIRED = 'EXPIRED', NONE = 'NONE' }
registerEnumType(ProgramStanding, {
  name: 'ProgramStanding',
  description: 'A producer\'s Selo standing on a day (Decreto 10.527/2020, art. 4º I, III and V; art. 6º §2º), as Producer.sealStanding decides it.',
  valuesConfig: {
    REGULAR: { description: 'A grant covers the day, not suspended nor cancelled.' },
    SUSPENDED: { description: 'No grant regular; one is suspended on the day.' },
    CANCELLED: { description: 'No grant regular; one was cancelled on or before the day.' },
    EXPIRED: { description: 'No grant regular; the latest one\'s validity ended before the day.' },
    NONE: { description: 'No grant on or before the day.' },
  },
});

export enum ProgramCompliance { COMPLIANT = 'COMPLIANT', SHORT = 'SHORT', NOT_DETERMINABLE = 'NOT_DETERMINABLE' }
registerEnumType(ProgramCompliance, {
  name: 'ProgramCompliance',
  description: 'A producer\'s year of family-farming targets (Decreto 10.527/2020, art. 3º §2 I–III and §3º; Portaria MDA nº 28/2024), from its sealCompliance.status.',
  valuesConfig: {
    COMPLIANT: { description: 'Every requirement met (status COMPLIANT).' },
    SHORT: { description: 'A requirement not met (status NOT_COMPLIANT).' },
    NOT_DETERMINABLE: { description: 'Not yet determinable: no requirement fails, and one is not established — the minimum weighted percentage is not published (Portaria MDA nº 28/2024, p. 39; status NOT_ESTABLISHED), or items await a weighting factor not published (status INCOMPLETE).' },
  },
});

@ObjectType('ProgramStandingCount', { description: 'How many producers hold a standing on 31 December.' })
export class ProgramStandingCountType {
  @Field(() => ProgramStanding, { description: 'The standing.' }) standing: ProgramStanding;
  @Field(() => Int, { description: 'Producers in it.' }) producers: number;
}

@ObjectType('ProgramComplianceCount', { description: 'How many producers\' years are compliant, short, or not yet determinable.' })
export class ProgramComplianceCountType {
  @Field(() => ProgramCompliance, { description: 'The verdict.' }) compliance: ProgramCompliance;
  @Field(() => Int, { description: 'Producers with it.' }) producers: number;
}

@ObjectType('ProgramSpending', { description: 'The family-farming spending of all producers (Decreto 10.527/2020, art. 3º §2 I a–c and §3º): each figure the sum of the producers\' sealCompliance figures, as shown (to the centavo).' })
export class ProgramSpendingType {
  @Money() @Field(() => DecimalScalar, { description: 'Sum of sealCompliance.salesRevenue (art. 3º §3º II).' }) salesRevenue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum of sealCompliance.base (art. 3º §3º II–III).' }) base: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum of sealCompliance.familyFarmingAcquisitions (art. 3º §2 I a), before weighting.' }) familyFarmingAcquisitions: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum of sealCompliance.otherProductAcquisitions (art. 3º §2 I b), before weighting.' }) otherProductAcquisitions: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum of sealCompliance.fomento (art. 3º §2 I c), before weighting.' }) fomento: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum of sealCompliance.actualTotal: the counted spending as spent.' }) actualTotal: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum of sealCompliance.countedTotal: the counted spending after the weighting factors in force (Portaria MDA nº 28/2024 from 2024).' }) weightedTotal: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum of sealCompliance.priorityRegionAmount: actual counted spending in the North, Northeast and Semiárido.' }) priorityRegionAmount: Decimal;
  @Field(() => DecimalScalar, { description: 'The program\'s priority-region share: priorityRegionAmount / actualTotal (0 when nothing counted), 6 decimals.' }) priorityRegionShare: Decimal;
}

@ObjectType('ProgramSpendingSplit', { description: 'Counted spending of one kind, region or feedstock: the sum of the producers\' sealCompliance.spending items of it, as shown.' })
export class ProgramSpendingSplitType {
  @Money() @Field(() => DecimalScalar, { description: 'Actual value spent, in reais.' }) actual: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'After the weighting factors in force, in reais.' }) weighted: Decimal;
  @Field(() => Int, { description: 'Purchases and fomento expenses.' }) count: number;
}

@ObjectType('ProgramSpendingByKind', { description: 'Counted spending by alínea of art. 3º §2 I (Decreto 10.527/2020).' })
export class ProgramSpendingByKindType extends ProgramSpendingSplitType {
  @Field(() => SeloSpendingKind, { description: 'Alínea a, b or c.' }) kind: SeloSpendingKind;
}

@ObjectType('ProgramSpendingByRegion', { description: 'Counted spending by region of origin (acquisitions) or of the fomento\'s municipality.' })
export class ProgramSpendingByRegionType extends ProgramSpendingSplitType {
  @Field(() => Region, { description: 'The region.' }) region: Region;
}

@ObjectType('ProgramSpendingByFeedstock', { description: 'Counted spending by product bought (Portaria MDA nº 28/2024, factor f).' })
export class ProgramSpendingByFeedstockType extends ProgramSpendingSplitType {
  @Field(() => Feedstock, { nullable: true, description: 'The product; null for fomento.' }) feedstock: Feedstock | null;
}

@ObjectType('ProgramSpendingByState', { description: 'Counted spending, as spent, by state of origin (acquisitions) or of the fomento\'s municipality: the items the producers\' sealCompliance counts, summed by grouped SQL. Weighting is per item group and not by state, so only the actual value is given.' })
export class ProgramSpendingByStateType {
  @Field({ description: 'UF, two letters.' }) state: string;
  @Field(() => Region, { description: 'Its region.' }) region: Region;
  @Money() @Field(() => DecimalScalar, { description: 'Actual value spent, in reais.' }) actual: Decimal;
  @Field(() => Int, { description: 'Purchases and fomento expenses.' }) count: number;
}

@ObjectType('ProgramFamiliesByState', { description: 'Distinct family farmers sold to directly, by the state they live in.' })
export class ProgramFamiliesByStateType {
  @Field({ description: 'UF, two letters.' }) state: string;
  @Field(() => Int, { description: 'Distinct family farmers.' }) familyFarmers: number;
}

@ObjectType('ProgramFamiliesByMunicipality', { description: 'Distinct family farmers sold to directly, by the municipality they live in.' })
export class ProgramFamiliesByMunicipalityType {
  @Field({ description: 'IBGE code, 7 digits.' }) ibgeCode: string;
  @Field({ description: 'Municipality.' }) name: string;
  @Field({ description: 'UF, two letters.' }) state: string;
  @Field(() => Int, { description: 'Distinct family farmers.' }) familyFarmers: number;
}

@ObjectType('ProgramFamilies', { description: 'Families served (Decreto 10.527/2020, art. 2º IV–V): the family farmers with counted purchases, and the organizations sold through.' })
export class ProgramFamiliesType {
  @Field(() => Int, { description: 'Distinct family farmers with a counted purchase of the year (sold directly).' }) familyFarmers: number;
  @Field(() => Int, { description: 'Distinct cooperatives and associations with a counted purchase of the year.' }) organizations: number;
  @Field(() => Int, { description: 'Their family-farmer members as declared in force on 31 December (art. 4º VI): declared counts, not named farmers, so they may include farmers also sold to directly and are not added to familyFarmers.' }) organizationFamilyFarmerMembers: number;
  @Field(() => [ProgramFamiliesByStateType], { description: 'familyFarmers by state.' }) byState: ProgramFamiliesByStateType[];
  @Field(() => [ProgramFamiliesByMunicipalityType], { description: 'familyFarmers by municipality.' }) byMunicipality: ProgramFamiliesByMunicipalityType[];
}

@ObjectType('ProgramStandingChange', { description: 'A producer whose Selo standing on 31 December differs from the year before\'s.' })
export class ProgramStandingChangeType {
  @Field(() => ProducerType, { description: 'The producer.' }) producer: ProducerType;
  @Field(() => ProgramStanding, { description: 'Standing on 31 December of the year before.' }) before: ProgramStanding;
  @Field(() => ProgramStanding, { description: 'Standing on 31 December of the year.' }) after: ProgramStanding;
  @Field(() => FindingType, { description: 'Why it stands so now (as Producer.sealStanding gives it).' }) reason: FindingType;
}

@ObjectType('ProgramProducer', { description: 'One producer in the program\'s year.' })
export class ProgramProducerType {
  @Field(() => ProducerType, { description: 'The producer.' }) producer: ProducerType;
  @Field(() => ProgramStanding, { description: 'Selo standing on 31 December.' }) standing: ProgramStanding;
  @Field(() => ProgramCompliance, { description: 'Its year\'s verdict.' }) compliance: ProgramCompliance;
  @Field(() => SealComplianceType, { description: 'Its sealCompliance for the year, as known on the overview\'s asKnownOn: the figures summed into the overview.' }) sealCompliance: SealComplianceType;
}

@ObjectType('ProgramYear', { description: 'One year of the program in a series: the headline figures of its programOverview.' })
export class ProgramYearType {
  @Field(() => Int, { description: 'Calendar year.' }) year: number;
  @Field(() => Int, { description: 'Producers recorded.' }) producerCount: number;
  @Field(() => [ProgramStandingCountType], { description: 'Producers by standing on 31 December of the year.' }) byStanding: ProgramStandingCountType[];
  @Field(() => [ProgramComplianceCountType], { description: 'Producers by verdict of the year.' }) byCompliance: ProgramComplianceCountType[];
  @Field(() => ProgramSpendingType, { description: 'The year\'s spending.' }) spending: ProgramSpendingType;
  @Field(() => Int, { description: 'Distinct family farmers sold to directly.' }) familyFarmers: number;
  @Field(() => Int, { description: 'Producers whose standing changed since 31 December of the year before.' }) standingChanges: number;
}

@ObjectType('ProgramOverview', {
  description: 'The Selo Biocombustível Social program as a whole for a calendar year (Decreto 10.527/2020, arts. 2º–4º; Portaria MDA nº 28/2024): every producer\'s Selo standing on 31 December and its year of family-farming targets, summed. Every figure is the sum of the producers\' sealCompliance (same service, same asKnownOn), so the two never disagree. ADMIN and AUDITOR only.',
})
export class ProgramOverviewType {
  @Field(() => Int, { description: 'Calendar year.' }) year: number;
  @Field(() => DateScalar, { description: 'The parameter versions used are those published by this date.' }) asKnownOn: string;
  @Field(() => DateScalar, { description: '31 December of the year: the day the standing is read on (art. 6º §2º).' }) on: string;
  @Field(() => Int, { description: 'Producers recorded.' }) producerCount: number;
  @Field(() => [ProgramStandingCountType], { description: 'Producers by Selo standing on 31 December, every standing listed (art. 4º I, III, V).' }) byStanding: ProgramStandingCountType[];
  @Field(() => [ProgramComplianceCountType], { description: 'Producers by verdict of the year (art. 3º §2 I–III, §3º), every verdict listed.' }) byCompliance: ProgramComplianceCountType[];
  @Field(() => ProgramSpendingType, { description: 'The family-farming spending of all producers.' }) spending: ProgramSpendingType;
  @Field(() => [ProgramSpendingByKindType], { description: 'Counted spending by alínea of art. 3º §2 I.' }) byKind: ProgramSpendingByKindType[];
  @Field(() => [ProgramSpendingByRegionType], { description: 'Counted spending by region.' }) byRegion: ProgramSpendingByRegionType[];
  @Field(() => [ProgramSpendingByStateType], { description: 'Counted spending, as spent, by state.' }) byState: ProgramSpendingByStateType[];
  @Field(() => [ProgramSpendingByFeedstockType], { description: 'Counted spending by product.' }) byFeedstock: ProgramSpendingByFeedstockType[];
  @Field(() => ProgramFamiliesType, { description: 'Families served.' }) families: ProgramFamiliesType;
  @Field(() => [ProgramStandingChangeType], { description: 'Producers whose standing on 31 December differs from that on 31 December of the year before.' }) standingChanges: ProgramStandingChangeType[];
  @Field(() => [ProgramProducerType], { description: 'Every producer, by id: its standing, verdict and sealCompliance.' }) producers: ProgramProducerType[];
}
