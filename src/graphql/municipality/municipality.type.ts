import { Field, ObjectType } from 'type-graphql';
import { Region } from '../../law/types';

@ObjectType('Municipality', { simpleResolvers: true, description: 'A municipality (IBGE), where plants stand and raw material is produced.' })
export class MunicipalityType {
  @Field({ description: '7-digit IBGE code.' }) ibgeCode: string;
  @Field({ description: 'Official name.' }) name: string;
  @Field({ description: 'UF, e.g. PE (first two digits of the IBGE code).' }) state: string;
  @Field(() => Region, { description: 'Macro-region (first digit of the IBGE code).' }) region: Region;
  @Field({ description: 'In the Semiárido (Resolução Condel/Sudene nº 150/2021 and later).' }) semiarid: boolean;
  @Field({ description: 'North, Northeast or Semiárido (Decreto 10.527/2020, art. 6º I and III; art. 3º §2 I b, c).' }) priorityRegion: boolean;
}
