import { FieldNode, FragmentDefinitionNode, GraphQLField, GraphQLObjectType } from 'graphql';
import type { EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { Producer } from '../../domain';
import { PRODUCER_TABLES } from '../../database/migrations/1765100000000-producer-row-security';
import { Actor } from '../../services/actor';
import { isId } from '../../services/record-batch';
import { hasOwnResolver } from '../scalars';
import { EntityClass, OrderKey } from './annotations';

/** What a compilation takes and gives, and the pieces of SQL text the compiler's parts share. */

export interface CompiledStatement {
  /** One row, one column `data`: the field's JSON text, or SQL NULL when the resolver must answer. */
  sql: string;
  /** The producer a PRODUCER's statement is confined to by row-level security, or null. */
  producerScope: string | null;
  /**
   * Computed fields in the tree (answered by their resolvers, for all the rows of the page at
   * once): the statement writes, in place of each one's value, the JSON string
   * `"<marker>:<hole index>:<primary key of the row>:<the row's columns>"` (RowMapper.textArray's
   * JSON array, in base64).
   */
  holes: Hole[];
  /** Random per statement with computed fields (no stored text can contain it); empty without any. */
  marker: string;
}

/** A computed field under rows of `entity` (objects of `parentType`), selected by `nodes`. */
export interface Hole {
  parentType: GraphQLObjectType;
  entity: EntityClass;
  nodes: readonly FieldNode[];
  key: string;
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
}

/** Thrown inside the compiler when the selection is not one it translates. */
export class Decline extends Error {}

const RESPONSE_KEY = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** Keys of one object: a bound on the statement's size (wider selections execute normally). */
const MAX_KEYS = 64;
/** The producer's column of each table a PRODUCER sees only its own rows of. */
export const SCOPED_TABLES = new Map<string, string>(PRODUCER_TABLES);

/**
 * A field its resolver computes: one with a resolver of its own (the object types' stored
 * properties have none: simpleResolvers, or only the reading at a scale of scalars.ts) or with
 * arguments, and no annotation.
 */
export function isComputed(def: GraphQLField<unknown, unknown>, meta: EntityMetadata): boolean {
  return hasOwnResolver(def) || def.args.length > 0 || !meta.findColumnWithPropertyName(def.name);
}

/** An id as the database writes it back: the services match ids as text. */
export function isCanonicalId(id: string): boolean {
  return isId(id) && (id === '0' || !id.startsWith('0'));
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

/** The entity that a records list's `fk` names: the producer (the only owner of records lists). */
export function ownerOf(meta: EntityMetadata, fk: string): EntityClass {
  const column = columnOf(meta, fk);
  if (SCOPED_TABLES.get(meta.tableName) !== column.databaseName) throw new Error(`compiled reads: ${meta.name}.${fk} does not name the producer`);
  return Producer;
}

/**
 * The JSON text of an object of `type` with the response keys of `fields`, in their order:
 * __typename is the type's name, every other field the JSON text `value` gives for it (which
 * declines what it does not know).
 */
export function keyed(type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>, value: (name: string, nodes: readonly FieldNode[], key: string) => string): string {
  if (fields.size > MAX_KEYS) throw new Decline();
  const pairs: Array<[string, string]> = [];
  for (const [key, nodes] of fields) {
    if (!RESPONSE_KEY.test(key)) throw new Decline();
    const name = nodes[0].name.value;
    // Type names are GraphQL names: nothing to escape.
    pairs.push([key, name === '__typename' ? `'"${type.name}"'` : value(name, nodes, key)]);
  }
  if (pairs.length === 0) return `'{}'`;
  // As JSON.stringify writes it: no spaces; keys are GraphQL names (RESPONSE_KEY), nothing to escape.
  return pairs.map(([key, v], i) => `'${i === 0 ? '{' : ','}"${key}":' || ${v}`).join(' || ') + ` || '}'`;
}
