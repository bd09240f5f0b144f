import { Extensions } from 'type-graphql';
import { Keyset } from '../../services/pagination';

/** An entity class of src/domain/ (TypeORM's metadata is looked up by it). */
export type EntityClass = abstract new (...args: never[]) => object;

/** A property to order rows by, ascending; `nulls: 'first'` puts its nulls first (PostgreSQL puts them last). */
export type OrderKey = string | { property: string; nulls: 'first' };

/**
 * Arguments of a root list that narrow it to the rows whose property equals the argument's value
 * (argument name → property): an argument given as null narrows nothing.
 */
export type Filters = Readonly<Record<string, string>>;

/**
 * How a read-schema field is read: which entity it leads to and through which key; tables and
 * columns come from TypeORM's metadata. Unannotated fields are the entity's property; computed
 * ones keep their resolvers.
 */
export type SqlRead =
  /** A to-one relation: the row of `entity` whose primary key is the parent's property `fk`. */
  | { kind: 'one'; entity: EntityClass; fk: string }
  /** A list: the rows of `entity` whose property `fk` is the parent's primary key, by `order`. */
  | { kind: 'many'; entity: EntityClass; fk: string; order: readonly OrderKey[] }
  /**
   * A connection of the parent's records: the rows of `entity` whose property `fk` is the
   * parent's primary key, paged by `keyset` (`first`, `after`; `from` and `to` bound a dated
   * keyset's date).
   */
  | { kind: 'page'; entity: EntityClass; fk: string; keyset: Keyset }
  /** A root connection over a whole table, paged by `keyset` (`first`, `after`), narrowed by `filters`. */
  | { kind: 'list'; entity: EntityClass; keyset: Keyset; filters?: Filters }
  /** A root list of a whole table's rows by `order`, narrowed by `filters` (any other argument given is left to the resolver). */
  | { kind: 'rows'; entity: EntityClass; order: readonly OrderKey[]; filters?: Filters; inForce?: InForce }
  /** A root lookup: the row of `entity` whose primary key is the argument `arg`. */
  | { kind: 'lookup'; entity: EntityClass; arg: string }
  /**
   * A root list of one producer's records: the rows of `entity` whose property `fk` is the
   * argument `arg`, by `order` (an unknown or unseen producer is answered by the resolver).
   */
  | { kind: 'records'; entity: EntityClass; arg: string; fk: string; order: readonly OrderKey[] }
  /**
   * A Boolean computed by SQL from the row aliased `q` (a fact derived on a date, e.g. the priority
   * region today): `sql(q, today)` is the expression, `today` the placeholder of the day the
   * statement is made. Written by the services (no SQL in resolvers).
   */
  | { kind: 'value'; sql: (q: string, today: string) => string };

/**
 * Dated versions of the law: given the argument `on`, a `rows` list holds, for each value of the
 * property (or properties) `per`, the version in force on that date as known on the argument `asKnownOn` (default
 * today), as src/services/facts/in-force.sql.ts chooses it (the twin of src/law/dated.ts inForce).
 */
export interface InForce { on: string; asKnownOn: string; per: string | readonly string[]; validFrom: string; validUntil: string; publishedOn: string }

export const SQL_READ = 'sqlRead';

/** Annotates a query or field resolver with how it is read (see SqlRead). */
export function Sql(read: SqlRead): MethodDecorator & PropertyDecorator {
  return Extensions({ [SQL_READ]: read }) as MethodDecorator & PropertyDecorator;
}

/** The root kinds: a field of the query type annotated with one of them is answered by one statement. */
export const ROOT_KINDS: ReadonlySet<SqlRead['kind']> = new Set(['list', 'rows', 'lookup', 'records']);

/** The annotation of a GraphQL field, if any. */
export function sqlReadOf(field: { extensions?: Readonly<Record<string, unknown>> | null }): SqlRead | undefined {
  return field.extensions?.[SQL_READ] as SqlRead | undefined;
}
