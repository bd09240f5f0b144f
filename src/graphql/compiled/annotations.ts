import { Extensions } from 'type-graphql';
import { Keyset } from '../../services/pagination';

/** An entity class of src/domain/ (TypeORM's metadata is looked up by it). */
export type EntityClass = abstract new (...args: never[]) => object;

/**
 * How a field of the read schema is read from the database, written on the field itself (the
 * query, or the field resolver that reads it otherwise): the table and column metadata come from
 * TypeORM's entity metadata (src/domain/), these annotations only say which entity a field leads
 * to and through which key. A field of an object type that has no annotation and no resolver of
 * its own is the entity's property of the same name. src/graphql/compiled/compiler.ts turns a
 * root field's selection into one SQL statement from these; a field it cannot read from them (a
 * computed one) is answered by the field's resolvers as always.
 */
export type SqlRead =
  /** A to-one relation: the row of `entity` whose primary key is the parent's property `fk`. */
  | { kind: 'one'; entity: EntityClass; fk: string }
  /** A list: the rows of `entity` whose property `fk` is the parent's primary key, by `order`. */
  | { kind: 'many'; entity: EntityClass; fk: string; order: readonly string[] }
  /**
   * A connection of the parent's records: the rows of `entity` whose property `fk` is the
   * parent's primary key, paged by `keyset` (`first`, `after`; `from` and `to` bound a dated
   * keyset's date).
   */
  | { kind: 'page'; entity: EntityClass; fk: string; keyset: Keyset }
  /** A root connection over a whole table, paged by `keyset` (`first`, `after`). */
  | { kind: 'list'; entity: EntityClass; keyset: Keyset }
  /** A root lookup: the row of `entity` whose primary key is the argument `arg`. */
  | { kind: 'lookup'; entity: EntityClass; arg: string }
  /**
   * A root list of one producer's records: the rows of `entity` whose property `fk` is the
   * argument `arg`, by `order` (an unknown or unseen producer is answered by the resolver).
   */
  | { kind: 'records'; entity: EntityClass; arg: string; fk: string; order: readonly string[] }
  /**
   * A Boolean computed by SQL from the row aliased `q` (a fact derived on a date, e.g. the priority
   * region today): `sql(q)` is the expression, evaluated when the statement is compiled.
   */
  | { kind: 'value'; sql: (q: string) => string };

export const SQL_READ = 'sqlRead';

/** Annotates a query or field resolver with how it is read (see SqlRead). */
export function Sql(read: SqlRead): MethodDecorator & PropertyDecorator {
  return Extensions({ [SQL_READ]: read }) as MethodDecorator & PropertyDecorator;
}

/** The annotation of a GraphQL field, if any. */
export function sqlReadOf(field: { extensions?: Readonly<Record<string, unknown>> | null }): SqlRead | undefined {
  return field.extensions?.[SQL_READ] as SqlRead | undefined;
}
