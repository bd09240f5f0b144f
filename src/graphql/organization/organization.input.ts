import { Field, InputType, Int } from 'type-graphql';
import { OrganizationKind } from '../../law/types';
import { RegistrationInput } from '../family-farmer/family-farmer.input';
import { CnpjScalar } from '../scalars';

@InputType('CreateOrganizationInput', { description: 'A new cooperative or association with its DAP/CAF jurídica (ADMIN or PRODUCER).' })
export class CreateOrganizationInput {
  @Field(() => CnpjScalar, { description: 'CNPJ, masked or bare; unique.' }) cnpj: string;
  @Field({ description: 'Razão social. At most 500 characters.' }) name: string;
  @Field(() => OrganizationKind, { description: 'Cooperative or association.' }) kind: OrganizationKind;
  @Field({ description: 'IBGE code of the municipality of its seat.' }) municipalityCode: string;
  @Field(() => [RegistrationInput], { description: 'DAP/CAF jurídica registrations (art. 4º VII), possibly none.' }) registrations: RegistrationInput[];
  @Field(() => Int, { description: 'Number of members, greater than zero.' }) members: number;
  @Field(() => Int, { description: 'Members who are family farmers (art. 4º VI): from 0 to members.' }) familyFarmerMembers: number;
}
