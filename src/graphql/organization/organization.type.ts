import { Field, ID, Int, ObjectType } from 'type-graphql';
import { OrganizationKind } from '../../law/types';
import { connectionOf } from '../types/connection';
import { CnpjScalar, DateScalar, DateTimeScalar } from '../scalars';

@ObjectType('FamilyFarmingOrganization', {
  simpleResolvers: true,
  description: 'A cooperative or association of family farmers (Decreto 10.527/2020, art. 2º V; art. 4º VI and VII).',
})
export class OrganizationType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => CnpjScalar, { description: 'CNPJ, bare, 14 characters, upper case.' }) cnpj: string;
  @Field({ description: 'Razão social.' }) name: string;
  @Field(() => OrganizationKind, { description: 'Cooperative or association.' }) kind: OrganizationKind;
  @Field(() => Int, { description: 'Number of members, as declared last (membershipHistory: every declaration with its date).' }) members: number;
  @Field(() => Int, { description: 'Members who are family farmers with a DAP or CAF (art. 4º VI), as declared last.' }) familyFarmerMembers: number;
}

@ObjectType('MembershipDeclaration', { simpleResolvers: true, description: 'One declaration of an organization\'s members (Decreto 10.527/2020, art. 4º VI): in force from the day declared until a later one.' })
export class MembershipDeclarationType {
  @Field(() => DateScalar, { nullable: true, description: 'The day declared; null for counts recorded without a date (in force since before any record).' }) declaredOn: string | null;
  @Field(() => Int, { description: 'Number of members.' }) members: number;
  @Field(() => Int, { description: 'Members who are family farmers.' }) familyFarmerMembers: number;
  @Field(() => DateTimeScalar, { description: 'When it was recorded.' }) recordedAt: Date;
}

export const OrganizationConnection = connectionOf(OrganizationType, 'FamilyFarmingOrganization');
