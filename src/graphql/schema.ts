import 'reflect-metadata';
import path from 'node:path';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema, NonEmptyArray } from 'type-graphql';
import { Decimal } from '../law/decimal';
import './types/enums';
import { AuditResolver } from './audit/audit.resolver';
import { BiodieselImportResolver, ProducerImportsResolver } from './biodiesel-import/biodiesel-import.resolver';
import { ContractConformityResolver, ProducerSealComplianceResolver, SealComplianceResolver } from './compliance/compliance.resolver';
import { PurchaseSeloResolver } from './compliance/purchase-selo.resolver';
import { ContractResolver } from './contract/contract.resolver';
import { FamilyFarmerResolver } from './family-farmer/family-farmer.resolver';
import { FomentoResolver } from './fomento/fomento.resolver';
import { FamilyFarmerFactsResolver, OrganizationFactsResolver, ProducerFactsResolver, PurchaseFactsResolver } from './law/facts.resolver';
import { LawParameterVersionResolver, LawResolver } from './law/law.resolver';
import { MinimumPriceResolver } from './minimum-price/minimum-price.resolver';
import { MunicipalityResolver } from './municipality/municipality.resolver';
import { OrganizationResolver } from './organization/organization.resolver';
import { ProducerRecordsResolver } from './producer/producer-records.resolver';
import { ProducerResolver } from './producer/producer.resolver';
import { PurchaseResolver } from './purchase/purchase.resolver';
import { ProducerRegimeElectionsResolver, RegimeElectionResolver } from './regime/regime.resolver';
import { ProducerTaxPeriodResolver, TaxPeriodResolver } from './tax-period/tax-period.resolver';
import { CbsPurchaseCreditResolver, CreditResolver, MonthCreditsResolver, PurchaseCreditResolver, TaxPeriodCreditsResolver } from './credits/credit.resolver';
import { SaleResolver } from './sale/sale.resolver';
import { RecordChangeResolver } from './record-change/record-change.resolver';
import { PurchaseDocumentsResolver, RecordReturnReachResolver, SaleDocumentsResolver } from './record-change/record-documents.resolver';
import { ProducerSealGrantsResolver, SealGrantResolver } from './seal/seal.resolver';
import { DateTimeScalar, DecimalScalar, JsonScalar, scaleDecimals } from './scalars';
import { protectSchema } from './auth/protect';
import { checkArgumentsFirst } from './argument-checks';
import { answerCompiledFields } from './compiled/answers';
import { FindingResolver } from './types/finding.resolver';
import { ProgramOverviewResolver } from './program/program.resolver';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [
  LawResolver, LawParameterVersionResolver,
  FamilyFarmerFactsResolver, OrganizationFactsResolver, ProducerFactsResolver, PurchaseFactsResolver,
  MunicipalityResolver, ProducerResolver, AuditResolver,
  ContractResolver, PurchaseResolver, SaleResolver, FomentoResolver, ProducerRecordsResolver,
  FamilyFarmerResolver, OrganizationResolver, SealGrantResolver, ProducerSealGrantsResolver, RegimeElectionResolver, ProducerRegimeElectionsResolver,
  ProgramOverviewResolver,
  MinimumPriceResolver, SealComplianceResolver, ProducerSealComplianceResolver, ContractConformityResolver, PurchaseSeloResolver,
  RecordChangeResolver, PurchaseDocumentsResolver, SaleDocumentsResolver, RecordReturnReachResolver, TaxPeriodResolver, ProducerTaxPeriodResolver, TaxPeriodCreditsResolver, MonthCreditsResolver, PurchaseCreditResolver, CbsPurchaseCreditResolver, CreditResolver, FindingResolver, BiodieselImportResolver, ProducerImportsResolver,
];

export const SCHEMA_FILE = path.resolve(__dirname, '../../schema.graphql');

let built: Promise<GraphQLSchema> | undefined;

/** The executable schema, built once from the resolvers (the code is the schema). */
export function getSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers,
    scalarsMap: [
      { type: Decimal, scalar: DecimalScalar },
      { type: Date, scalar: DateTimeScalar },
      { type: Object, scalar: JsonScalar },
    ],
    validate: false,
  }).then(describeRoots).then(scaleDecimals).then(checkArgumentsFirst).then(answerCompiledFields).then(protectSchema);
  return built;
}

/** type-graphql gives the root types no description; the schema documents every type. */
function describeRoots(schema: GraphQLSchema): GraphQLSchema {
  const query = schema.getQueryType();
  const mutation = schema.getMutationType();
  if (query) query.description = 'Reads: the records of the Selo Biocombustível Social, the law in force, and the PIS/Pasep-Cofins and Selo computations (Decreto 10.527/2020; Lei 11.116/2005).';
  if (mutation) mutation.description = 'Writes: each one transaction, audited; a rejected mutation (or one bad item of a batch) writes nothing.';
  return schema;
}

/** The schema as SDL, sorted so that diffs show real changes only (`npm run schema` writes it). */
export async function printSchemaFile(): Promise<string> {
  return `# Emitted from the code by \`npm run schema\`; do not edit by hand.\n\n${printSchema(lexicographicSortSchema(await getSchema()))}\n`;
}
