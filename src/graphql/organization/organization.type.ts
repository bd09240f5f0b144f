import { Field, ID, Int, ObjectType } from 'type-graphql';
import { OrganizationKind } from '../../law/types';
import { connectionOf } from '../types/connection';
import { CnpjScalar } from '../scalars';

@ObjectType('FamilyFarmingOrganization', {
  simpleResolvers: true,
  description: 'A cooperative or association of family farmers (Decreto 10.527/2020, art. 2º V; art. 4º VI and VII).',
})
export class OrganizationType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => CnpjScalar, { description: 'CNPJ, bare, 14 characters, upper case.' }) cnpj: string;
  @Field({ description: 'Razão social.' }) name: string;
  @Field(() => OrganizationKind, { description: 'Cooperative or association.' }) kind: OrganizationKind;
  @Field(() => Int, { description: 'Number of members, as declared.' }) members: number;
  @Field(() => Int, { description: 'Members who are family farmers with a DAP or CAF (art. 4º VI), as declared.' }) familyFarmerMembers: number;
}

export const OrganizationConnection = connectionOf(OrganizationType, 'FamilyFarmingOrganization');
