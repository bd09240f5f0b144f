import { Field, InputType } from 'type-graphql';
import { RegistrationKind } from '../../law/types';
import { CpfScalar, DateScalar } from '../scalars';

@InputType('RegistrationInput', { description: 'A DAP or CAF (Decreto 10.527/2020, art. 2º IV and V); validUntil must not be before validFrom.' })
export class RegistrationInput {
  @Field(() => RegistrationKind, { description: 'DAP or CAF.' }) kind: RegistrationKind;
  @Field({ description: 'Number as issued. At most 255 characters.' }) number: string;
  @Field(() => DateScalar, { description: 'First day of validity.' }) validFrom: string;
  @Field(() => DateScalar, { description: 'Last day of validity (inclusive), on or after validFrom.' }) validUntil: string;
}

@InputType('CreateFamilyFarmerInput', { description: 'A new family farmer with its DAP/CAF registrations (ADMIN or PRODUCER).' })
export class CreateFamilyFarmerInput {
  @Field(() => CpfScalar, { description: 'CPF, masked or bare; unique.' }) cpf: string;
  @Field({ description: 'Name. At most 500 characters.' }) name: string;
  @Field({ description: 'IBGE code of the municipality where the farmer lives and produces.' }) municipalityCode: string;
  @Field(() => [RegistrationInput], { description: 'DAP/CAF registrations, possibly none.' }) registrations: RegistrationInput[];
}
