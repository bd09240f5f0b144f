import {
  FieldNode,
  FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  GraphQLField,
  GraphQLObjectType,
  GraphQLSchema,
  isEnumType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { randomBytes } from 'node:crypto';
import { escapeLiteral } from 'pg';
import type { DataSource, EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { Producer } from '../../domain';
import { PRODUCER_TABLES } from '../../database/migrations/1765100000000-producer-row-security';
import { Actor } from '../../services/actor';
import { CursorValues, decodeKeysetCursor, Keyset, keysetAfterSql, keysetCursorSql, keysetOrderSql, pageSize } from '../../services/pagination';
import { isId } from '../../services/record-batch';
import { visibleProducerId } from '../../services/scope';
import { isIsoDate } from '../../law/dates';
import { hasOwnResolver, SQL_JSON, SqlJson, textJson } from '../scalars';
import { EntityClass, SqlRead, sqlReadOf } from './annotations';
import { collectSubfields } from './selection';

/**
 * Reads compiled to SQL (DESIGN §2: the database does the set work). graphql-js executes every
 * field of a result — a page of 20 producers × 50 purchases is about 9,000 of them — and that,
 * not the database, was the cost of such a page. A root field of the read schema annotated with
 * how it is read (annotations.ts) is translated here, from its selection, into one SQL statement
 * of nested subqueries that writes the field's JSON text: the scoping, ordering, cursors, limits
 * and scalar formats of the resolvers, and exactly the text JSON.stringify gives (no spaces, keys
 * in the order of the selection, strings escaped by to_json), so that the server sends it as it
 * is. Tables and columns come from TypeORM's entity metadata; a connection's order and cursor
 * from the keyset its service pages with (src/services/keysets.ts).
 *
 * What it cannot translate — a computed field, an argument the resolvers would refuse, a
 * selection too wide — makes `compile` return null, and the field's resolvers answer it as
 * always, errors included: this path never answers differently, only sooner
 * (test/e2e/compiled-reads.test.ts compares the two byte for byte).
 */

export interface CompiledStatement {
  /** One row, one column `data`: the field's JSON text, or SQL NULL when the resolver must answer. */
  sql: string;
  /** The producer a PRODUCER's statement is confined to by row-level security, or null. */
  producerScope: string | null;
  /**
   * Computed fields in the tree (answered by their resolvers, for all the rows of the page at
   * once): the statement writes, in place of each one's value, the JSON string
   * `"<marker>:<hole index>:<primary key of the row>"`.
   */
  holes: Hole[];
  /** Random per statement: no stored text can contain it. */
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
class Decline extends Error {}

const RESPONSE_KEY = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** Keys of one object: a bound on the statement's size (wider selections execute normally). */
const MAX_KEYS = 64;
const SCOPED_TABLES = new Map<string, string>(PRODUCER_TABLES);

export class ReadCompiler {
  private readonly enumsByName = new WeakMap<object, boolean>();

  constructor(private readonly schema: GraphQLSchema, private readonly dataSource: DataSource) {}

  /** Whether a root field is one this compiler may answer (it has an annotation of a root kind). */
  static isRoot(field: GraphQLField<unknown, unknown>): boolean {
    const read = sqlReadOf(field);
    return read !== undefined && (read.kind === 'list' || read.kind === 'lookup' || read.kind === 'records');
  }

  /**
   * Every annotation of the schema checked against TypeORM's metadata once, at start-up: an
   * entity, a property (`fk`, `order`, an `arg` of the field) or a records list's owner that does
   * not exist throws here, instead of making every request that reaches the field fall back to
   * its resolver.
   */
  static checkAnnotations(schema: GraphQLSchema, dataSource: DataSource): void {
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const read = sqlReadOf(field);
        if (!read || read.kind === 'value') continue;
        const where = `${type.name}.${field.name}`;
        const meta = dataSource.getMetadata(read.entity);
        // A to-one relation's fk is the parent's property, checked where the parent's rows are read.
        if ('fk' in read && read.kind !== 'one') columnOf(meta, read.fk);
        if ('order' in read) read.order.forEach((p) => columnOf(meta, p));
        if (read.kind === 'records') ownerOf(meta, read.fk);
        if ((read.kind === 'lookup' || read.kind === 'records') && !field.args.some((a) => a.name === read.arg)) {
          throw new Error(`compiled reads: ${where} has no argument ${read.arg}`);
        }
        if ((read.kind === 'page' || read.kind === 'list') && !read.keyset.columns.every((c) => meta.columns.some((m) => m.databaseName === c.column))) {
          throw new Error(`compiled reads: ${where}'s keyset names a column ${meta.name} does not have`);
        }
      }
    }
  }

  /** The statement answering a root field, or null when its resolver must. */
  compile(root: RootField): CompiledStatement | null {
    try {
      return new Build(this, root).root();
    } catch (e) {
      if (e instanceof Decline) return null;
      throw e;
    }
  }

  metadata(entity: EntityClass): EntityMetadata {
    return this.dataSource.getMetadata(entity);
  }

  schemaOf(): GraphQLSchema {
    return this.schema;
  }

  /** Whether every value of an enum is stored as its name (so the column's text is its JSON). */
  storedByName(type: object & { getValues(): ReadonlyArray<{ name: string; value: unknown }> }): boolean {
    let ok = this.enumsByName.get(type);
    if (ok === undefined) {
      ok = type.getValues().every((v) => v.value === v.name);
      this.enumsByName.set(type, ok);
    }
    return ok;
  }
}

/** One compilation: the aliases it made. */
class Build {
  private aliases = 0;
  private readonly only: string | null;
  private readonly holes: Hole[] = [];
  private readonly marker = randomBytes(12).toString('hex');

  constructor(private readonly compiler: ReadCompiler, private readonly input: RootField) {
    this.only = visibleProducerId(input.actor);
    // The services compare ids as text ("01" is not "1"); the database would not: such an id is
    // left to them.
    if (this.only !== null && !isCanonicalId(this.only)) throw new Decline();
  }

  root(): CompiledStatement {
    const { field, nodes, args } = this.input;
    const read = sqlReadOf(field);
    if (!read) throw new Decline();
    const type = getNamedType(field.type);
    if (!isObjectType(type)) throw new Decline();
    let sql: string;
    if (read.kind === 'list') {
      const meta = this.compiler.metadata(read.entity);
      const page = this.page(args, read.keyset, false);
      sql = this.connection(type, nodes, meta, read.keyset, page, () => []);
    } else if (read.kind === 'lookup') {
      const meta = this.compiler.metadata(read.entity);
      const key = meta.primaryColumns[0];
      const q = this.alias();
      const joins: string[] = [];
      const object = this.object(type, meta, this.subfields(type, nodes), q, joins);
      sql = `(SELECT ${object} FROM ${meta.tableName} ${q}${joinSql(joins)} WHERE ${[`${q}.${key.databaseName} = ${this.keyLiteral(key, args[read.arg])}`, ...this.scope(meta, q)].join(' AND ')})`;
    } else if (read.kind === 'records') {
      const meta = this.compiler.metadata(read.entity);
      const owner = this.compiler.metadata(ownerOf(meta, read.fk));
      const id = args[read.arg];
      if (typeof id !== 'string' || !isCanonicalId(id)) throw new Decline();
      const o = this.alias();
      // An unknown or unseen owner is the resolver's NOT_FOUND: NULL hands it over.
      const list = this.list(type, meta, read.fk, read.order, nodes, this.literal(id, 'bigint'));
      sql = `CASE WHEN EXISTS (SELECT 1 FROM ${owner.tableName} ${o} WHERE ${[`${o}.${owner.primaryColumns[0].databaseName} = ${this.literal(id, 'bigint')}`, ...this.scope(owner, o)].join(' AND ')}) THEN ${list} END`;
    } else {
      throw new Decline();
    }
    return { sql: `SELECT ${sql} AS data`, producerScope: this.only, holes: this.holes, marker: this.marker };
  }

  private alias(): string {
    return `t${this.aliases++}`;
  }

  private literal(value: string, type: string): string {
    return `${escapeLiteral(value)}::${type}`;
  }

  /** A primary key's value as SQL: a bigint id only if well formed; text keys as the column compares them. */
  private keyLiteral(column: ColumnMetadata, value: unknown): string {
    if (typeof value !== 'string') throw new Decline();
    if (column.type === 'bigint') {
      if (!isCanonicalId(value)) throw new Decline();
      return this.literal(value, 'bigint');
    }
    // Untyped: PostgreSQL reads it as the column's own type (char(n) compares without trailing blanks).
    return escapeLiteral(value);
  }

  /** The SQL filters that confine a PRODUCER to its own records (DESIGN §4), row-level security being the second wall. */
  private scope(meta: EntityMetadata, q: string): string[] {
    const column = SCOPED_TABLES.get(meta.tableName);
    if (this.only === null || column === undefined) return [];
    return [`${q}.${column} = ${this.literal(this.only, 'bigint')}`];
  }

  private subfields(type: GraphQLObjectType, nodes: readonly FieldNode[]) {
    return collectSubfields(this.compiler.schemaOf(), this.input.fragments, this.input.variables, type, nodes);
  }

  private args(field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> {
    try {
      return getArgumentValues(field, node, this.input.variables as Record<string, unknown>);
    } catch {
      throw new Decline();
    }
  }

  /**
   * The JSON text of an object of `type` (rows of `meta` aliased `q`) with the response keys of
   * `fields`, in their order; to-one relations are LEFT JOINs added to `joins`.
   */
  private object(type: GraphQLObjectType, meta: EntityMetadata, fields: Map<string, readonly FieldNode[]>, q: string, joins: string[]): string {
    return keyed(type, fields, (name, nodes, key) => {
      const def = type.getFields()[name];
      if (!def) throw new Decline();
      const read = sqlReadOf(def);
      if (read?.kind === 'value') {
        if (def.args.length > 0 || getNamedType(def.type).name !== 'Boolean') throw new Decline();
        return `coalesce((${read.sql(q)})::text, 'null')`;
      }
      if (!read && isComputed(def, meta)) return this.hole(type, meta, nodes, key, q);
      if (!read) return this.column(def, meta, q);
      const target = getNamedType(def.type);
      if (!isObjectType(target)) throw new Decline();
      return this.relation(read, def, target, nodes, meta, q, joins);
    });
  }

  private relation(read: SqlRead, def: GraphQLField<unknown, unknown>, target: GraphQLObjectType, nodes: readonly FieldNode[], meta: EntityMetadata, q: string, joins: string[]): string {
    const key = meta.primaryColumns[0].databaseName;
    if (read.kind === 'one') {
      if (def.args.length > 0) throw new Decline();
      const targetMeta = this.compiler.metadata(read.entity);
      const targetKey = targetMeta.primaryColumns[0].databaseName;
      const fk = columnOf(meta, read.fk);
      // Joined after a page's LIMIT, one row per row (the key is the target's primary key): a
      // correlated sub-select per row would cost the database twice as much for a page.
      const t = this.alias();
      joins.push(`LEFT JOIN ${targetMeta.tableName} ${t} ON ${[`${t}.${targetKey} = ${q}.${fk.databaseName}`, ...this.scope(targetMeta, t)].join(' AND ')}`);
      return `CASE WHEN ${t}.${targetKey} IS NULL THEN 'null' ELSE ${this.object(target, targetMeta, this.subfields(target, nodes), t, joins)} END`;
    }
    if (read.kind === 'many') {
      if (def.args.length > 0) throw new Decline();
      return this.list(target, this.compiler.metadata(read.entity), read.fk, read.order, nodes, `${q}.${key}`);
    }
    if (read.kind === 'page') {
      const childMeta = this.compiler.metadata(read.entity);
      const fk = columnOf(childMeta, read.fk).databaseName;
      const page = this.page(this.args(def, nodes[0]), read.keyset, true);
      return this.connection(target, nodes, childMeta, read.keyset, page, (c) => [`${c}.${fk} = ${q}.${key}`]);
    }
    throw new Decline();
  }

  /** A JSON array of the rows of `meta` whose `fk` is `parentKey` (SQL), in `order`. */
  private list(type: GraphQLObjectType, meta: EntityMetadata, fk: string, order: readonly string[], nodes: readonly FieldNode[], parentKey: string): string {
    const c = this.alias();
    const joins: string[] = [];
    const object = this.object(type, meta, this.subfields(type, nodes), c, joins);
    const orderBy = order.map((p) => `${c}.${columnOf(meta, p).databaseName}`).join(', ');
    const where = [`${c}.${columnOf(meta, fk).databaseName} = ${parentKey}`, ...this.scope(meta, c)];
    return `(SELECT '[' || coalesce(string_agg(${object}, ',' ORDER BY ${orderBy}), '') || ']' FROM ${meta.tableName} ${c}${joinSql(joins)} WHERE ${where.join(' AND ')})`;
  }

  /**
   * A computed field of rows `q`: its place in the JSON text, filled after the statement by the
   * field's resolver for every row of the page at once (executor.ts).
   */
  private hole(type: GraphQLObjectType, meta: EntityMetadata, nodes: readonly FieldNode[], key: string, q: string): string {
    if (meta.primaryColumns.length !== 1) throw new Decline();
    const index = this.holes.push({ parentType: type, entity: meta.target as EntityClass, nodes, key }) - 1;
    // The marker and the index are hex and digits, and keys are digits: nothing to escape.
    return `'"${this.marker}:${index}:' || ${q}.${meta.primaryColumns[0].databaseName}::text || '"'`;
  }

  /** The JSON text of a column as its GraphQL type serialises it, `null` when the column is null. */
  private column(def: GraphQLField<unknown, unknown>, meta: EntityMetadata, q: string): string {
    const column = meta.findColumnWithPropertyName(def.name);
    if (!column || column.relationMetadata) throw new Decline();
    const ref = `${q}.${column.databaseName}`;
    const type = getNamedType(def.type);
    if (isEnumType(type)) {
      if (!this.compiler.storedByName(type)) throw new Decline();
      return textJson(ref);
    }
    if (!isScalarType(type)) throw new Decline();
    const writer = type.extensions?.[SQL_JSON] as SqlJson | undefined;
    if (writer) return writer(ref, def);
    switch (type.name) {
      // bigint ids are strings (ID): digits only, nothing to escape.
      case 'ID': return column.type === 'bigint' ? `coalesce('"' || ${ref}::text || '"', 'null')` : textJson(`${ref}::text`);
      case 'String': return textJson(ref);
      case 'Int':
      case 'Boolean': return `coalesce(${ref}::text, 'null')`;
      default: throw new Decline();
    }
  }

  private page(args: Readonly<Record<string, unknown>>, keyset: Keyset, bounded: boolean): Page {
    const known = new Set(['first', 'after', ...(bounded ? ['from', 'to'] : [])]);
    if (Object.keys(args).some((k) => !known.has(k))) throw new Decline();
    const from = args.from as string | null | undefined;
    const to = args.to as string | null | undefined;
    if ((from != null || to != null) && keyset.columns[0].kind !== 'date') throw new Decline();
    if ((from != null && !isIsoDate(from)) || (to != null && !isIsoDate(to))) throw new Decline();
    try {
      return { limit: pageSize(args.first as number | null | undefined), after: decodeKeysetCursor(keyset, args.after as string | null | undefined), from: from ?? null, to: to ?? null };
    } catch {
      throw new Decline();
    }
  }

  /**
   * A connection (src/services/pagination.ts toConnection): the first limit + 1 rows after the
   * cursor, numbered; edges are the first `limit`, hasNextPage whether there was one more,
   * hasPreviousPage whether a cursor was given, totalCount the rows of the filters (not the cursor).
   */
  private connection(
    type: GraphQLObjectType,
    nodes: readonly FieldNode[],
    meta: EntityMetadata,
    keyset: Keyset,
    page: Page,
    parent: (c: string) => string[],
  ): string {
    const q = this.alias();
    const dateColumn = keyset.columns[0].kind === 'date' ? keyset.columns[0].column : null;
    const filters = (c: string) => [
      ...parent(c),
      ...this.scope(meta, c),
      ...(page.from !== null ? [`${c}.${dateColumn} >= ${this.literal(page.from, 'date')}`] : []),
      ...(page.to !== null ? [`${c}.${dateColumn} <= ${this.literal(page.to, 'date')}`] : []),
    ];
    const conditions = [...filters(q), ...(page.after ? [keysetAfterSql(keyset, page.after, q, (v, t) => this.literal(v, t))] : [])];
    const firstRows = `FILTER (WHERE ${q}._rn <= ${page.limit})`;
    // base64url: nothing to escape in the JSON string.
    const cursor = keysetCursorSql(keyset, q);
    const cursors = (dir: string) => `coalesce('"' || (array_agg(${cursor} ORDER BY ${q}._rn${dir}) ${firstRows})[1] || '"', 'null')`;
    const joins: string[] = [];
    const body = keyed(type, this.subfields(type, nodes), (name, keyNodes) => {
      const def = type.getFields()[name];
      if (!def) throw new Decline();
      if (name === 'totalCount') {
        const c = this.alias();
        const count = filters(c);
        return `(SELECT count(*)::text FROM ${meta.tableName} ${c}${count.length ? ` WHERE ${count.join(' AND ')}` : ''})`;
      }
      const named = getNamedType(def.type);
      if (!isObjectType(named)) throw new Decline();
      if (name === 'edges') {
        const edge = keyed(named, this.subfields(named, keyNodes), (edgeName, edgeNodes) => {
          if (edgeName === 'cursor') return `'"' || ${cursor} || '"'`;
          if (edgeName !== 'node') throw new Decline();
          const nodeType = getNamedType(named.getFields().node.type) as GraphQLObjectType;
          return this.object(nodeType, meta, this.subfields(nodeType, edgeNodes), q, joins);
        });
        return `'[' || coalesce(string_agg(${edge}, ',' ORDER BY ${q}._rn) ${firstRows}, '') || ']'`;
      }
      if (name === 'pageInfo') {
        return keyed(named, this.subfields(named, keyNodes), (infoName) => {
          const value = {
            hasNextPage: `CASE WHEN count(*) > ${page.limit} THEN 'true' ELSE 'false' END`,
            hasPreviousPage: page.after ? `'true'` : `'false'`,
            startCursor: cursors(''),
            endCursor: cursors(' DESC'),
          }[infoName];
          if (value === undefined) throw new Decline();
          return value;
        });
      }
      throw new Decline();
    });
    const order = keysetOrderSql(keyset, q);
    // The window numbers the limit + 1 rows only: the LIMIT stops the index scan first. GROUP BY ()
    // makes it one row even when no aggregate is selected (a connection asked for its totalCount only).
    return `(SELECT ${body}
       FROM (SELECT ${q}.*, row_number() OVER (ORDER BY ${order}) AS _rn
               FROM (SELECT * FROM ${meta.tableName} ${q}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}
                      ORDER BY ${order} LIMIT ${page.limit + 1}) ${q}) ${q}${joinSql(joins)}
      GROUP BY ())`;
  }
}

interface Page {
  limit: number;
  after: CursorValues | null;
  from: string | null;
  to: string | null;
}

/**
 * A field its resolver computes: one with a resolver of its own (the object types' stored
 * properties have none: simpleResolvers, or only the reading at a scale of scalars.ts) or with
 * arguments, and no annotation.
 */
function isComputed(def: GraphQLField<unknown, unknown>, meta: EntityMetadata): boolean {
  return hasOwnResolver(def) || def.args.length > 0 || !meta.findColumnWithPropertyName(def.name);
}

/** An id as the database writes it back: the services match ids as text. */
function isCanonicalId(id: string): boolean {
  return isId(id) && (id === '0' || !id.startsWith('0'));
}

function joinSql(joins: string[]): string {
  return joins.map((j) => `\n       ${j}`).join('');
}

function columnOf(meta: EntityMetadata, property: string): ColumnMetadata {
  const column = meta.findColumnWithPropertyName(property);
  if (!column) throw new Error(`compiled reads: ${meta.name} has no property ${property}`);
  return column;
}

/** The entity that a records list's `fk` names: the producer (the only owner of records lists). */
function ownerOf(meta: EntityMetadata, fk: string): EntityClass {
  const column = columnOf(meta, fk);
  if (SCOPED_TABLES.get(meta.tableName) !== column.databaseName) throw new Error(`compiled reads: ${meta.name}.${fk} does not name the producer`);
  return Producer;
}

/**
 * The JSON text of an object of `type` with the response keys of `fields`, in their order:
 * __typename is the type's name, every other field the JSON text `value` gives for it (which
 * declines what it does not know).
 */
function keyed(type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>, value: (name: string, nodes: readonly FieldNode[], key: string) => string): string {
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
