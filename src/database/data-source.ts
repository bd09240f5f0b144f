import { types } from 'pg';
import { DataSource, Logger } from 'typeorm';
import { entities } from '../domain';
import { InitialSchema1764700000000 } from './migrations/1764700000000-initial-schema';
import { TaxPeriod1765000000000 } from './migrations/1765000000000-tax-period';
import { LawVersionsAppendOnly1764900000000 } from './migrations/1764900000000-law-versions-append-only';
import { ProducerRowSecurity1765100000000 } from './migrations/1765100000000-producer-row-security';
import { BiodieselImport1765300000000 } from './migrations/1765300000000-biodiesel-import';
import { LawRevision1765400000000 } from './migrations/1765400000000-law-revision';
import { SemiaridMembership1765500000000 } from './migrations/1765500000000-semiarid-membership';
import { ProducerEstablishments1765600000000 } from './migrations/1765600000000-producer-establishments';
import { SealEvaluation1765800000000 } from './migrations/1765800000000-seal-evaluation';
import { OrganizationMembership1765910000000 } from './migrations/1765910000000-organization-membership';
import { PurchaseContractDate1765920000000 } from './migrations/1765920000000-purchase-contract-date';
import { AuditEntryProducerRead1765930000000 } from './migrations/1765930000000-audit-entry-producer-read';
import { Credits1766400000000 } from './migrations/1766400000000-credits';
import { MinimumPriceScope1765940000000 } from './migrations/1765940000000-minimum-price-scope';
import { NfeKeyAlphanumeric1766310000000 } from './migrations/1766310000000-nfe-key-alphanumeric';
import { RecordState1766320000000 } from './migrations/1766320000000-record-state';
import { RecordReturn1766330000000 } from './migrations/1766330000000-record-return';
import { PurchaseNfeItem1766340000000 } from './migrations/1766340000000-purchase-nfe-item';
import { CountedPurchase1766410000000 } from './migrations/1766410000000-counted-purchase';
import { ReturnOriginalItem1766420000000 } from './migrations/1766420000000-return-original-item';
import { IncidenceElection1766430000000 } from './migrations/1766430000000-incidence-election';
import { SupplierDocument1766440000000 } from './migrations/1766440000000-supplier-document';
import { RecordMark1766450000000 } from './migrations/1766450000000-record-mark';
import { PurchaseInvoiceItem1766460000000 } from './migrations/1766460000000-purchase-invoice-item';
import { PurchaseCbs1766470000000 } from './migrations/1766470000000-purchase-cbs';
import { ProgramYearPart1766480000000 } from './migrations/1766480000000-program-year-part';
import { ProgramYearAsked1766490000000 } from './migrations/1766490000000-program-year-asked';
import { ProgramYearPartByCode1766500000000 } from './migrations/1766500000000-program-year-part-by-code';
import { PurchaseCofinsCst1766510000000 } from './migrations/1766510000000-purchase-cofins-cst';
import { RecordMarkSupplier1766520000000 } from './migrations/1766520000000-record-mark-supplier';

// Calendar dates stay 'YYYY-MM-DD' strings: a JS Date at midnight would carry a time zone.
types.setTypeParser(types.builtins.DATE, (value) => value);

export const migrations = [InitialSchema1764700000000, LawVersionsAppendOnly1764900000000, TaxPeriod1765000000000, ProducerRowSecurity1765100000000, BiodieselImport1765300000000, LawRevision1765400000000,
  SemiaridMembership1765500000000, ProducerEstablishments1765600000000, SealEvaluation1765800000000,
  OrganizationMembership1765910000000, PurchaseContractDate1765920000000, AuditEntryProducerRead1765930000000,
  MinimumPriceScope1765940000000,
  NfeKeyAlphanumeric1766310000000, RecordState1766320000000, RecordReturn1766330000000,
  PurchaseNfeItem1766340000000,
  Credits1766400000000, CountedPurchase1766410000000, ReturnOriginalItem1766420000000, IncidenceElection1766430000000, SupplierDocument1766440000000,
  RecordMark1766450000000, PurchaseInvoiceItem1766460000000, PurchaseCbs1766470000000,
  ProgramYearPart1766480000000, ProgramYearAsked1766490000000, ProgramYearPartByCode1766500000000,
  PurchaseCofinsCst1766510000000, RecordMarkSupplier1766520000000];

export interface DataSourceOptions {
  url: string;
  /** Connections in the pool. */
  poolSize?: number;
  logging?: boolean;
  /** A TypeORM logger (tests count SQL statements with one). */
  logger?: Logger;
  /** PostgreSQL's statement_timeout for every connection (the API sets its request timeout). */
  statementTimeoutMs?: number;
  /** How the connections are named in pg_stat_activity. */
  applicationName?: string;
}

/** The application's DataSource. Schema changes go through migrations only, never `synchronize`. */
export function createDataSource({ url, poolSize = 10, logging = false, logger, statementTimeoutMs, applicationName = 'selo-api' }: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    logging: logger ? ['query'] : logging,
    ...(logger ? { logger } : {}),
    extra: {
      max: poolSize,
      // Fail fast while the database is unreachable instead of queueing requests forever.
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
      application_name: applicationName,
      // No JIT compilation: the API's statements are aggregates over one producer's month or year
      // (10⁵–10⁶ rows), where compiling took most of the time (0.6 s of a 0.77 s tax month, see
      // docs/PERFORMANCE.md); the plans stay the same.
      // A statement_timeout makes the request timeout real: the database stops working on a
      // request that the server has already answered with a timeout.
      options: `-c jit=off${statementTimeoutMs ? ` -c statement_timeout=${statementTimeoutMs}` : ''}`,
    },
  });
}

/** Connect and bring the schema up to date. */
export async function openDatabase(options: DataSourceOptions): Promise<DataSource> {
  const ds = createDataSource(options);
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  return ds;
}
