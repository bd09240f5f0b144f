import { Field, InputType } from 'type-graphql';
import { DateScalar } from '../scalars';

@InputType('MunicipalityInput', { description: 'A municipality to insert or update by IBGE code.' })
export class MunicipalityInput {
  @Field({ description: '7-digit IBGE code; its first two digits must be a UF.' }) ibgeCode: string;
  @Field({ description: 'Official name. At most 500 characters.' }) name: string;
  @Field({ description: 'In the Semiárido (official Sudene list), from semiaridFrom on. Without semiaridFrom, an undated flag: it changes nothing when it agrees with the membership of today, and otherwise replaces the dated history by an undated membership (true) or none (false). An edition of the official list is loaded by the semiarid import.' }) semiarid: boolean;
  @Field(() => DateScalar, { nullable: true, description: 'The day the flag holds from: from it on, the municipality is (or is not) in the Semiárido; its membership before stays, up to the day before, so the day is from 0001-01-02.' }) semiaridFrom?: string | null;
  @Field(() => String, { nullable: true, description: 'The act the flag cites, e.g. Resolução Condel/Sudene nº 150/2021 (default: the municipality record). At most 255 characters.' }) semiaridAct?: string | null;
}
