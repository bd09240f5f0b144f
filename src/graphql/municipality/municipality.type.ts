import { Field, ObjectType } from 'type-graphql';
import { Region } from '../../law/types';
import { DateScalar } from '../scalars';

@ObjectType('Municipality', { simpleResolvers: true, description: 'A municipality (IBGE), where plants stand and raw material is produced.' })
export class MunicipalityType {
  @Field({ description: '7-digit IBGE code.' }) ibgeCode: string;
  @Field({ description: 'Official name.' }) name: string;
  @Field({ description: 'UF, e.g. PE (first two digits of the IBGE code).' }) state: string;
  @Field(() => Region, { description: 'Macro-region (first digit of the IBGE code).' }) region: Region;
}

@ObjectType('SemiaridMembership', { simpleResolvers: true, description: 'One interval of a municipality\'s membership of the Semiárido, as the Condel/Sudene act it cites delimited it (Res. 115/2017, 150/2021, 176/2024, …). Both ends inclusive.' })
export class SemiaridMembershipType {
  @Field(() => DateScalar, { nullable: true, description: 'First day in the Semiárido; null for a membership recorded without a date (since before any record).' }) validFrom: string | null;
  @Field(() => DateScalar, { nullable: true, description: 'Last day in the Semiárido; null while open.' }) validUntil: string | null;
  @Field({ description: 'The act that set it, e.g. Resolução Condel/Sudene nº 150/2021.' }) act: string;
}
