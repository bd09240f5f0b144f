import { EntityManager } from 'typeorm';
import { Actor } from '../services/actor';
import { EnumNames } from '../formats/brazilian';
import { AuditRecord } from '../services/transaction';
import { ImportLineError } from './import-error';
import { MAX_REPORTED_PROBLEMS } from '../services/problems';
import { SemiaridEdition } from '../services/semiarid-membership';

/**
 * One column: header names (case, accents, punctuation ignored; English and Portuguese) and what
 * its cells hold, read in the file's locale before the row's checks.
 */
export interface ColumnSpec {
  name: string;
  required: boolean;
  aliases?: string[];
  /** Portuguese names: a header written with them tells a Brazilian file (locale pt-BR). */
  portuguese?: string[];
  type?: 'text' | 'decimal' | 'date' | EnumNames;
}

/** A row by column name, its cells read into the API's notation; a blank cell is absent. */
export type CsvRow = Record<string, string | undefined>;

/** The typed values of one staging row, in the order of `stagingColumns`; null = NULL. */
export type StagingValues = Array<string | number | boolean | null>;

/**
 * What the importer needs to know about one kind of file: its columns, how one row is checked
 * (with the validation the GraphQL mutation applies to one item), the staging table it is copied
 * into, the checks against stored data (SQL, every offending line) and the final INSERT … SELECT.
 */
export interface ImportKind {
  name: 'purchases' | 'sales' | 'farmers' | 'municipalities' | 'semiarid';
  /** Whether the file belongs to one producer (`--producer ID`, `?producer=ID`). */
  producerScoped: boolean;
  /** Whether the file is one edition of an official list (`--act`, `--valid-from`, `--valid-until`). */
  edition?: boolean;
  columns: ColumnSpec[];
  /** Column definitions of the staging table after `line int` (names and types). */
  stagingColumns: Array<[string, string]>;
  /** The row-local checks (no database); throws BadInputError/ConflictError naming `.<column>`. */
  toStaging(row: CsvRow, producerId: string | null): StagingValues;
  /** Who may import this kind (throws ForbiddenError/NotFoundError). */
  authorize(actor: Actor, producerId: string | null): void;
  /** The checks against stored data: every offending line (up to MAX_REPORTED_PROBLEMS a check). */
  check(em: EntityManager, producerId: string | null): Promise<ImportLineError[]>;
  /** Write the staged rows; returns the counts and the audit entry of the import. */
  write(em: EntityManager, producerId: string | null, rows: number, edition: SemiaridEdition | null): Promise<{ counts: Record<string, number>; audit: AuditRecord[] }>;
}

/** The staging table of an import: temporary, private to the transaction. */
export const STAGING = 'import_stage';

/** Runs every check and returns all their failures (each check's first MAX_REPORTED_PROBLEMS lines). */
export async function failures(checks: Array<() => Promise<ImportLineError[] | ImportLineError | null>>): Promise<ImportLineError[]> {
  const found: ImportLineError[] = [];
  for (const c of checks) {
    const failure = await c();
    if (Array.isArray(failure)) found.push(...failure);
    else if (failure) found.push(failure);
  }
  return found;
}

/** A row a check selected: its line and the values its message names. */
export interface OffendingRow {
  line: number;
  [column: string]: unknown;
}

/**
 * One check as one statement: `sql` selects the offending rows of the staging table with their
 * `line` (and whatever `message` needs); the first MAX_REPORTED_PROBLEMS by line are reported.
 */
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
