import { Field, ID, Int, ObjectType } from 'type-graphql';
import { connectionOf } from '../types/connection';
import { CnpjScalar } from '../scalars';

@ObjectType('Producer', { simpleResolvers: true, description: 'A biodiesel producer (Decreto 10.527/2020, art. 2º III).' })
export class ProducerType {
  @Field(() => ID, { description: 'Identifier of the producer in this system.' }) id: string;
  @Field(() => CnpjScalar, { description: 'CNPJ, bare, 14 characters, upper case.' }) cnpj: string;
  @Field({ description: 'Razão social.' }) legalName: string;
  @Field(() => String, { nullable: true, description: 'ANP authorization of the plant.' }) anpAuthorization: string | null;
  @Field(() => [CnpjScalar], { description: 'CNPJs of its other establishments (recorded by an ADMIN): a sale\'s or an import\'s NF-e key must name the producer\'s CNPJ or one of these as its issuer (positions 7 to 20 of the key).' }) establishments: string[];
  @Field(() => Int, { description: 'Optimistic-locking version: pass it as expectedVersion to updateProducer.' }) version: number;
}

export const ProducerConnection = connectionOf(ProducerType, 'Producer');
