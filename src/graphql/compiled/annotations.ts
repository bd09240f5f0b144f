import { Extensions } from 'type-graphql';
import { Keyset } from '../../services/pagination';

export type EntityClass = abstract new (...args: never[]) => object;

/** PostgreSQL puts nulls last unless `nulls: 'first'`. */
export type OrderKey = string | { property: string; nulls: 'first' };

/** Argument → property; null narrows nothing. */
export type Filters = Readonly<Record<string, string>>;

/** Tables and columns come from TypeORM's metadata; computed fields keep their resolvers. */
export type SqlRead =
  | { kind: 'one'; entity: EntityClass; fk: string }
  | { kind: 'many'; entity: EntityClass; fk: string; order: readonly OrderKey[] }
  /** `from` and `to` bound a dated keyset's date. */
  | { kind: 'page'; entity: EntityClass; fk: string; keyset: Keyset }
  | { kind: 'list'; entity: EntityClass; keyset: Keyset; filters?: Filters }
  /** Any other argument is left to the resolver. */
  | { kind: 'rows'; entity: EntityClass; order: readonly OrderKey[]; filters?: Filters; inForce?: InForce }
  | { kind: 'lookup'; entity: EntityClass; arg: string }
  /** An unknown or unseen producer is answered by the resolver. */
  | { kind: 'records'; entity: EntityClass; arg: string; fk: string; order: readonly OrderKey[] }
  /** Written by the services: no SQL in resolvers. */
  | { kind: 'value'; sql: (q: string, today: string) => string };

/** As in-force.sql.ts chooses, the twin of src/law/dated.ts inForce. */
export interface InForce { on: string; asKnownOn: string; per: string | readonly string[]; validFrom: string; validUntil: string; publishedOn: string }

export const SQL_READ = 'sqlRead';

export function Sql(read: SqlRead): MethodDecorator & PropertyDecorator {
  return Extensions({ [SQL_READ]: read }) as MethodDecorator & PropertyDecorator;
}

/** Answered by one statement. */
export const ROOT_KINDS: ReadonlySet<SqlRead['kind']> = new Set(['list', 'rows', 'lookup', 'records']);

export function sqlReadOf(field: { extensions?: Readonly<Record<string, unknown>> | null }): SqlRead | undefined {
  return field.extensions?.[SQL_READ] as SqlRead | undefined;
}
