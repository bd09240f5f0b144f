import { Field, InputType } from 'type-graphql';
import { CnpjScalar } from '../scalars';

@InputType('CreateProducerInput', { description: 'A new producer (ADMIN).' })
export class CreateProducerInput {
  @Field(() => CnpjScalar) cnpj: string;
  @Field() legalName: string;
  @Field({ description: 'IBGE code of the plant municipality: decides the Selo minimum share (art. 3º §3º I).' }) plantMunicipalityCode: string;
  @Field(() => String, { nullable: true }) anpAuthorization?: string | null;
}

@InputType('UpdateProducerInput', { description: 'Fields to change; omitted fields stay.' })
export class UpdateProducerInput {
  @Field(() => String, { nullable: true }) legalName?: string | null;
  @Field(() => String, { nullable: true }) anpAuthorization?: string | null;
  @Field(() => String, { nullable: true }) plantMunicipalityCode?: string | null;
}
