import { Field, InputType } from 'type-graphql';
import { CnpjScalar } from '../scalars';

@InputType('CreateProducerInput', { description: 'A new producer (ADMIN).' })
export class CreateProducerInput {
  @Field(() => CnpjScalar, { description: 'CNPJ of the company, masked or bare.' }) cnpj: string;
  @Field({ description: 'Razão social. At most 500 characters.' }) legalName: string;
  @Field({ description: 'IBGE code of the plant municipality: decides the Selo minimum share (art. 3º §3º I).' }) plantMunicipalityCode: string;
  @Field(() => String, { nullable: true, description: 'ANP authorization of the plant. At most 255 characters.' }) anpAuthorization?: string | null;
  @Field(() => [CnpjScalar], { nullable: true, description: 'CNPJs of its other establishments, whose NF-e keys it records too; each of no other producer.' }) establishments?: string[] | null;
}

@InputType('UpdateProducerInput', { description: 'Fields to change; omitted fields stay.' })
export class UpdateProducerInput {
  @Field(() => String, { nullable: true, description: 'New razão social. At most 500 characters.' }) legalName?: string | null;
  @Field(() => String, { nullable: true, description: 'New ANP authorization of the plant. At most 255 characters.' }) anpAuthorization?: string | null;
  @Field(() => String, { nullable: true, description: 'IBGE code of the new plant municipality.' }) plantMunicipalityCode?: string | null;
  @Field(() => [CnpjScalar], { nullable: true, description: 'The CNPJs of its other establishments, replacing the list (ADMIN only, else FORBIDDEN): the NF-e keys a producer records name its CNPJ or one of these (positions 7 to 20). Each of no other producer (CONFLICT DUPLICATE).' }) establishments?: string[] | null;
}
