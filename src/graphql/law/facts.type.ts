import { Field, ObjectType } from 'type-graphql';
import { DateScalar } from '../scalars';
import { SealGrantType } from '../seal/seal.type';
import { FindingType } from '../types/common';

@ObjectType('SealStanding', { description: 'Whether the producer holds the Selo in regular standing on a date (Decreto 10.527/2020, art. 6º §2º; art. 4º I, III, V).' })
export class SealStandingType {
  @Field(() => DateScalar, { description: 'The date asked about.' }) on: string;
  @Field({ description: 'Holds the Selo em situação regular on that date (art. 6º §2): a grant covers it, not suspended, not cancelled.' }) regular: boolean;
  @Field(() => SealGrantType, { nullable: true, description: 'The grant that makes it regular, or the one that explains why not (cancelled, suspended, expired).' }) grant: SealGrantType | null;
  @Field(() => FindingType, { description: 'Why: SEAL_REGULAR, SEAL_SUSPENDED, SEAL_CANCELLED, SEAL_EXPIRED or NO_SEAL_GRANT.' }) reason: FindingType;
}

@ObjectType('Habilitation', { description: 'Whether an organization is habilitated on a date (Decreto 10.527/2020, art. 4º VI and VII).' })
export class HabilitationType {
  @Field(() => DateScalar, { description: 'The date asked about.' }) on: string;
  @Field({ description: 'A DAP/CAF jurídica valid on the date and a family-farmer share at or above the minimum in force.' }) habilitated: boolean;
  @Field(() => [FindingType], { description: 'What fails (REGISTRATION_NOT_VALID, MEMBER_SHARE_BELOW_MINIMUM) and warnings (DAP_ISSUED_AFTER_CUTOFF).' }) findings: FindingType[];
}

@ObjectType('FarmerEligibility', { description: 'Whether a family farmer holds a DAP or CAF valid on a date (Decreto 10.527/2020, art. 2º IV).' })
export class FarmerEligibilityType {
  @Field(() => DateScalar, { description: 'The date asked about.' }) on: string;
  @Field({ description: 'A DAP or CAF is valid on the date (validFrom and validUntil inclusive).' }) eligible: boolean;
  @Field(() => [FindingType], { description: 'REGISTRATION_NOT_VALID when none is valid; DAP_ISSUED_AFTER_CUTOFF for a DAP starting after 2022-10-31 (Portaria MAPA 174/2022).' }) findings: FindingType[];
}
