import { EntityManager } from 'typeorm';
import { Actor } from '../services/actor';
import { EnumNames } from '../formats/brazilian';
import { AuditRecord } from '../services/transaction';
import { ImportLineError } from './import-error';
import { MAX_REPORTED_PROBLEMS } from '../services/problems';
import { SemiaridEdition } from '../services/semiarid-membership';

/** Headers match with case, accents and punctuation ignored. */
export interface ColumnSpec {
  name: string;
  required: boolean;
  aliases?: string[];
  /** A header written with them tells a Brazilian file. */
  portuguese?: string[];
  type?: 'text' | 'decimal' | 'date' | EnumNames;
}

/** A blank cell is absent. */
export type CsvRow = Record<string, string | undefined>;

export type StagingValues = Array<string | number | boolean | null>;

/** A row is checked as the GraphQL mutation checks one item. */
export interface ImportKind {
  name: 'purchases' | 'sales' | 'farmers' | 'municipalities' | 'semiarid';
  producerScoped: boolean;
  edition?: boolean;
  columns: ColumnSpec[];
  stagingColumns: Array<[string, string]>;
  /** No database; errors name `.<column>`. */
  toStaging(row: CsvRow, producerId: string | null): StagingValues;
  authorize(actor: Actor, producerId: string | null): void;
  check(em: EntityManager, producerId: string | null): Promise<ImportLineError[]>;
  write(em: EntityManager, producerId: string | null, rows: number, edition: SemiaridEdition | null): Promise<{ counts: Record<string, number>; audit: AuditRecord[] }>;
}

export const STAGING = 'import_stage';

export async function failures(checks: Array<() => Promise<ImportLineError[] | ImportLineError | null>>): Promise<ImportLineError[]> {
  const found: ImportLineError[] = [];
  for (const c of checks) {
    const failure = await c();
    // One by one: a check of a million-line file may find as many, too many to spread as a call's arguments.
    if (Array.isArray(failure)) for (const f of failure) found.push(f);
    else if (failure) found.push(failure);
  }
  return found;
}

export interface OffendingRow {
  line: number;
  [column: string]: unknown;
}

/** One statement selecting the offending rows with their `line`. */
export function sqlCheck(
  em: EntityManager,
  sql: string,
  params: unknown[],
  failure: (row: OffendingRow) => ImportLineError,
): () => Promise<ImportLineError[]> {
  return async () => {
    const rows: OffendingRow[] = await em.query(`SELECT * FROM (${sql}) offending ORDER BY line LIMIT ${MAX_REPORTED_PROBLEMS}`, params);
    return rows.map(failure);
  };
}
