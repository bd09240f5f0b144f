import { Field, InputType, Int } from 'type-graphql';
import { OrganizationKind } from '../../law/types';
import { RegistrationInput } from '../family-farmer/family-farmer.input';
import { CnpjScalar, DateScalar } from '../scalars';

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

@InputType('UpdateOrganizationInput', { description: 'What changes of a cooperative or association (ADMIN or PRODUCER). Member counts are a history: new counts are appended as a declaration of membersDeclaredOn, the earlier ones kept for the dates before it (art. 4º VI).' })
export class UpdateOrganizationInput {
  @Field(() => String, { nullable: true, description: 'New razão social. At most 500 characters.' }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'IBGE code of the municipality of its new seat.' }) municipalityCode?: string | null;
  @Field(() => Int, { nullable: true, description: 'Number of members declared, greater than zero (with familyFarmerMembers).' }) members?: number | null;
  @Field(() => Int, { nullable: true, description: 'Members who are family farmers declared, from 0 to members (with members).' }) familyFarmerMembers?: number | null;
  @Field(() => DateScalar, { nullable: true, description: 'The day the counts were declared (default today): habilitation on that day and after uses them, until a later declaration.' }) membersDeclaredOn?: string | null;
}
