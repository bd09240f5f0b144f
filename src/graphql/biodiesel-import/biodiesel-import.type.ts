import { Field, ID, Int, ObjectType } from 'type-graphql';
import { RecordState } from '../../law/types';
import { Decimal } from '../../law/decimal';
import { Finding } from '../../law/findings';
import { connectionOf } from '../types/connection';
import { FindingType } from '../types/common';
import { DateScalar, DecimalScalar, Money, Quantity } from '../scalars';

@ObjectType('BiodieselImport', { simpleResolvers: true, description: 'An import of biodiesel: PIS/Pasep-Importação and Cofins-Importação per m³ on its customs clearance (Decreto 10.527/2020, art. 5º §1º and §3º; art. 6º §5º).' })
export class BiodieselImportType {
  @Field(() => ID, { description: 'Identifier.' }) id: string;
  @Field(() => DateScalar, { description: 'Date of customs clearance (desembaraço aduaneiro): decides the amounts in force and the month.' }) clearedOn: string;
  @Quantity() @Field(() => DecimalScalar, { description: 'Volume imported, in m³.' }) volumeM3: Decimal;
  @Field({ description: 'The import declaration\'s number (DI or DUIMP), unique per producer; stored trimmed, in capitals.' }) declarationNumber: string;
  @Field(() => String, { nullable: true, description: 'The NF-e access key of the document that records it, if given: cancelDocument with this key cancels it.' }) invoiceKey: string | null;
  @Field(() => RecordState, { description: 'ACTIVE, or CANCELLED with its NF-e (cancelDocument): a cancelled record is kept but counted by no computation.' }) state: RecordState;
  @Field(() => Int, { description: 'Raised by each correction; a correction names it as expectedVersion (else CONFLICT VERSION_MISMATCH).' }) version: number;
}

export const BiodieselImportConnection = connectionOf(BiodieselImportType, 'BiodieselImport');

@ObjectType('ImportContribution', { description: 'The PIS/Pasep-Importação and Cofins-Importação of one import: the general amounts per m³ in force on its clearance (Decreto 10.527/2020, art. 5º §1º; R$ 0,00 in the 2026 window, §3º), never the art. 6º amounts (§5º).' })
export class ImportContributionType {
  @Field(() => ID, { description: 'The import (BiodieselImport id).' }) id: string;
  @Field({ description: 'The import declaration\'s number.' }) declarationNumber: string;
  @Field(() => DateScalar, { description: 'Date of customs clearance.' }) clearedOn: string;
  @Quantity() @Field(() => DecimalScalar, { description: 'Volume imported, in m³.' }) volumeM3: Decimal;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'PIS/Pasep-Importação per m³ in force on clearedOn (art. 5º §1º: R$ 26,41); null where PIS/Cofins are extinct (from 2027, EC 132/2023, ADCT art. 126, II).' }) pisPerM3: Decimal | null;
  @Money() @Field(() => DecimalScalar, { nullable: true, description: 'Cofins-Importação per m³ in force on clearedOn (art. 5º §1º: R$ 121,59); null where extinct.' }) cofinsPerM3: Decimal | null;
  @Money() @Field(() => DecimalScalar, { description: 'volumeM3 × pisPerM3, half-even to the centavo for this declaration alone (ABNT NBR 5891); 0 where extinct.' }) pisDue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'volumeM3 × cofinsPerM3, half-even to the centavo for this declaration alone; 0 where extinct.' }) cofinsDue: Decimal;
  @Field({ description: 'The provisions applied: the general amounts\' version (art. 5º §1º, the window of §§2º–4º, or Decreto 7.768/2012 before 2020-10-23) and art. 6º §5º; or the extinction.' }) legalBasis: string;
  @Field(() => [FindingType], { description: 'PUBLICATION_DATE_OPEN where the amounts on clearedOn rest on a law version whose publication date is not in our sources: applied by the date used, or left out only because that date is after asKnownOn (e.g. the extension of the 2026 window to 31/07/2026); the message names the day, the version\'s legal basis and the date used. Empty otherwise.' }) warnings: Finding[];
}

@ObjectType('ImportContributions', { description: 'A month\'s imports of biodiesel and their PIS/Pasep-Importação and Cofins-Importação (Decreto 10.527/2020, art. 5º §1º and §3º): a block of its own, apart from the sales of the domestic market. Computed per m³ whatever the regime of Lei 11.116/2005 (an Interpretation, docs/LAW.md).' })
export class ImportContributionsType {
  @Quantity() @Field(() => DecimalScalar, { description: 'Volume cleared in the month, in m³.' }) volumeM3: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum of the imports\' PIS/Pasep-Importação.' }) pisDue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'Sum of the imports\' Cofins-Importação.' }) cofinsDue: Decimal;
  @Money() @Field(() => DecimalScalar, { description: 'pisDue + cofinsDue.' }) totalDue: Decimal;
  @Field(() => [ImportContributionType], { description: 'Each import of the month, by clearedOn then id.' }) imports: ImportContributionType[];
}
