import { FieldNode, FragmentDefinitionNode, GraphQLField } from 'graphql';
import type { EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { Producer } from '../../domain';
import type { IsoDate } from '../../law/dates';
import { Actor } from '../../services/actor';
import type { ReadStatement } from '../../services/compiled-read.service';
import { PRODUCER_COLUMN } from '../../services/producer-tables';
import { hasOwnResolver } from '../scalars';
import { EntityClass, OrderKey } from './annotations';
import { ownResolverOf } from './answers';

/** What a compilation takes and gives, and the pieces of SQL text the compiler's parts share. */

export interface CompiledStatement extends ReadStatement {
  /** The objects graphql-js resolves, from the statement's `data` (not null). */
  objects(data: unknown): unknown;
}

/**
 * A value the statement writes (`sql`, a JSON expression) and how its JSON becomes what
 * graphql-js resolves (`read`).
 */
export interface Part {
  sql: string;
  read(json: unknown): unknown;
}

export interface RootField {
  field: GraphQLField<unknown, unknown>;
  nodes: readonly FieldNode[];
  fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  /** Coerced variable values. */
  variables: Readonly<Record<string, unknown>>;
  /** Coerced argument values of the root field. */
  args: Readonly<Record<string, unknown>>;
  actor: Actor;
  /** The request's day (Context.today): `asKnownOn`'s default and the day of the SQL-computed facts. */
  today: IsoDate;
}

/** Thrown inside the compiler when the selection is not one it translates. */
export class Decline extends Error {}

/** Keys of one object: a bound on the statement's size (wider selections execute normally). */
export const MAX_KEYS = 64;
/** PostgreSQL's bound on a function's arguments (json_build_array). */
export const MAX_ARGUMENTS = 100;

/**
 * A field its resolver computes: one with a resolver of its own (the object types' stored
 * properties have none: simpleResolvers, or only the reading at a scale of scalars.ts) or with
 * arguments, and no annotation.
 */
export function isComputed(def: GraphQLField<unknown, unknown>, meta: EntityMetadata): boolean {
  return hasOwnResolver({ resolve: ownResolverOf(def) }) || def.args.length > 0 || !meta.findColumnWithPropertyName(def.name);
}

export function joinSql(joins: string[]): string {
  return joins.map((j) => `\n       ${j}`).join('');
}

export function columnOf(meta: EntityMetadata, property: string): ColumnMetadata {
  const column = meta.findColumnWithPropertyName(property);
  if (!column) throw new Error(`compiled reads: ${meta.name} has no property ${property}`);
  return column;
}

export function orderProperty(key: OrderKey): string {
  return typeof key === 'string' ? key : key.property;
}

/** `ORDER BY` terms of rows of `meta` aliased `c`, as the services order them. */
export function orderSql(meta: EntityMetadata, c: string, order: readonly OrderKey[]): string {
  return order.map((k) => `${c}.${columnOf(meta, orderProperty(k)).databaseName}${typeof k === 'string' ? '' : ' NULLS FIRST'}`).join(', ');
}

/** The producer's column of a table a PRODUCER sees only its own rows of. */
export function producerColumnOf(meta: EntityMetadata): string | undefined {
  return PRODUCER_COLUMN.get(meta.tableName);
}

/** The entity that a records list's `fk` names: the producer (the only owner of records lists). */
export function ownerOf(meta: EntityMetadata, fk: string): EntityClass {
  const column = columnOf(meta, fk);
  if (producerColumnOf(meta) !== column.databaseName) throw new Error(`compiled reads: ${meta.name}.${fk} does not name the producer`);
  return Producer;
}

/** A JSON array of `parts` (json_build_array takes at most MAX_ARGUMENTS). */
export function arraySql(parts: readonly string[]): string {
  if (parts.length > MAX_ARGUMENTS) throw new Decline();
  return `json_build_array(${parts.join(', ')})`;
}
