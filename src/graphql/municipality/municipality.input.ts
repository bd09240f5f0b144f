import { Field, InputType } from 'type-graphql';

@InputType('MunicipalityInput', { description: 'A municipality to insert or update by IBGE code.' })
export class MunicipalityInput {
  @Field({ description: '7-digit IBGE code; its first two digits must be a UF.' }) ibgeCode: string;
  @Field({ description: 'Official name. At most 500 characters.' }) name: string;
  @Field({ description: 'In the Semiárido (official Sudene list).' }) semiarid: boolean;
}
