import { Field, ID, ObjectType } from 'type-graphql';
import { RegistrationKind } from '../../law/types';
import { connectionOf } from '../types/connection';
import { CpfScalar, DateScalar } from '../scalars';

@ObjectType('FamilyFarmingRegistration', {
  simpleResolvers: true,
  description: 'A DAP or CAF of a family farmer or of an organization (DAP/CAF jurídica) (Decreto 10.527/2020, art. 2º IV and V; art. 4º VII).',
})
export class FamilyFarmingRegistrationType {
  @Field(() => RegistrationKind, { description: 'DAP (issued until 2022-10-31) or CAF.' }) kind: RegistrationKind;
  @Field({ description: 'Number of the DAP or CAF as issued.' }) number: string;
  @Field(() => DateScalar, { description: 'First day of validity.' }) validFrom: string;
  @Field(() => DateScalar, { description: 'Last day of validity (inclusive).' }) validUntil: string;
}

@ObjectType('FamilyFarmer', { simpleResolvers: true, description: 'A family farmer (Lei 11.326/2006; Decreto 10.527/2020, art. 2º IV).' })
export class FamilyFarmerType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => CpfScalar, { description: 'CPF, 11 digits.' }) cpf: string;
  @Field({ description: 'Name.' }) name: string;
}

export const FamilyFarmerConnection = connectionOf(FamilyFarmerType, 'FamilyFarmer');
