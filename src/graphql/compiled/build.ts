import { FieldNode, getArgumentValues, getNamedType, GraphQLField, GraphQLObjectType, isEnumType, isObjectType, isScalarType } from 'graphql';
import { randomBytes } from 'node:crypto';
import { escapeLiteral } from 'pg';
import type { EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { visibleProducerId } from '../../services/scope';
import { RowMapper, rowMapperOf } from '../../services/raw-rows';
import { SQL_JSON, SqlJson, textJson } from '../scalars';
import { EntityClass, Filters, InForce, OrderKey, SqlRead, sqlReadOf } from './annotations';
import { isIsoDate, today } from '../../law/dates';
import type { ReadCompiler } from './compiler';
import { connectionSql, pageOf } from './connection';
import { collectSubfields } from './selection';
import { columnOf, CompiledStatement, Decline, Hole, isCanonicalId, isComputed, joinSql, keyed, orderSql, ownerOf, RootField, SCOPED_TABLES } from './statement';

/** One compilation of a root field (compiler.ts): the aliases it made, the computed fields it left to their resolvers. */
export class Build {
  private aliases = 0;
  private readonly only: string | null;
  private readonly holes: Hole[] = [];
  /** Made with the first computed field only: a statement without one is the same text each time. */
  private marker = '';

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
      const { rest, where } = this.filters(meta, read.filters, args);
      sql = connectionSql(this, type, nodes, meta, read.keyset, pageOf(rest, read.keyset, false), where);
    } else if (read.kind === 'rows') {
      const meta = this.compiler.metadata(read.entity);
      const { rest, where } = this.filters(meta, read.filters, args);
      const inForce = read.inForce ? this.inForce(meta, read.inForce, rest, where) : where;
      // Any other argument given: the resolver's.
      if (Object.values(rest).some((v) => v != null)) throw new Decline();
      sql = this.list(type, meta, read.order, nodes, inForce);
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
      const fk = columnOf(meta, read.fk).databaseName;
      const list = this.list(type, meta, read.order, nodes, (c) => [`${c}.${fk} = ${this.literal(id, 'bigint')}`]);
      sql = `CASE WHEN EXISTS (SELECT 1 FROM ${owner.tableName} ${o} WHERE ${[`${o}.${owner.primaryColumns[0].databaseName} = ${this.literal(id, 'bigint')}`, ...this.scope(owner, o)].join(' AND ')}) THEN ${list} END`;
    } else {
      throw new Decline();
    }
    return { sql: `SELECT ${sql} AS data`, producerScope: this.only, holes: this.holes, marker: this.marker };
  }

  alias(): string {
    return `t${this.aliases++}`;
  }

  literal(value: string, type: string): string {
    return `${escapeLiteral(value)}::${type}`;
  }

  /** The SQL filters that confine a PRODUCER to its own records (DESIGN §4), row-level security being the second wall. */
  scope(meta: EntityMetadata, q: string): string[] {
    const column = SCOPED_TABLES.get(meta.tableName);
    if (this.only === null || column === undefined) return [];
    return [`${q}.${column} = ${this.literal(this.only, 'bigint')}`];
  }

  subfields(type: GraphQLObjectType, nodes: readonly FieldNode[]) {
    return collectSubfields(this.compiler.schemaOf(), this.input.fragments, this.input.variables, type, nodes);
  }

  /**
   * The JSON text of an object of `type` (rows of `meta` aliased `q`) with the response keys of
   * `fields`, in their order; to-one relations are LEFT JOINs added to `joins`.
   */
  object(type: GraphQLObjectType, meta: EntityMetadata, fields: Map<string, readonly FieldNode[]>, q: string, joins: string[]): string {
    return keyed(type, fields, (name, nodes, key) => {
      const def = type.getFields()[name];
      if (!def) throw new Decline();
      const read = sqlReadOf(def);
      if (read?.kind === 'value') {
        if (def.args.length > 0 || getNamedType(def.type).name !== 'Boolean') throw new Decline();
        return `coalesce((${read.sql(q)})::text, 'null')`;
      }
      if (!read && isComputed(def, meta)) return this.hole(type, meta, nodes, key, q);
      // A stored value whose scalar SQL does not write (JSON): its resolver's, like a computed one.
      if (!read) return this.column(def, meta, q) ?? this.hole(type, meta, nodes, key, q);
      const target = getNamedType(def.type);
      if (!isObjectType(target)) throw new Decline();
      return this.relation(read, def, target, nodes, meta, q, joins);
    });
  }

  /** A primary key's value as SQL: a bigint id only if well formed; text keys as the column compares them. */
  private keyLiteral(column: ColumnMetadata, value: unknown): string {
    if (typeof value !== 'string') throw new Decline();
    if (column.type === 'bigint') {
      if (!isCanonicalId(value)) throw new Decline();
      return this.literal(value, 'bigint');
    }
    // Untyped: PostgreSQL reads it as the column's own type. char(n) compares without trailing
    // blanks, the services' maps by key do not: such a value is left to them.
    if (value !== value.trimEnd()) throw new Decline();
    return escapeLiteral(value);
  }

  private args(field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> {
    try {
      return getArgumentValues(field, node, this.input.variables as Record<string, unknown>);
    } catch {
      throw new Decline();
    }
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
      const childMeta = this.compiler.metadata(read.entity);
      const fk = columnOf(childMeta, read.fk).databaseName;
      return this.list(target, childMeta, read.order, nodes, (c) => [`${c}.${fk} = ${q}.${key}`]);
    }
    if (read.kind === 'page') {
      const childMeta = this.compiler.metadata(read.entity);
      const fk = columnOf(childMeta, read.fk).databaseName;
      const page = pageOf(this.args(def, nodes[0]), read.keyset, true);
      return connectionSql(this, target, nodes, childMeta, read.keyset, page, (c) => [`${c}.${fk} = ${q}.${key}`]);
    }
    throw new Decline();
  }

  /** A JSON array of the rows of `meta` that meet `where`, in `order`. */
  private list(type: GraphQLObjectType, meta: EntityMetadata, order: readonly OrderKey[], nodes: readonly FieldNode[], where: (c: string) => string[]): string {
    const c = this.alias();
    const joins: string[] = [];
    const object = this.object(type, meta, this.subfields(type, nodes), c, joins);
    const conditions = [...where(c), ...this.scope(meta, c)];
    return `(SELECT '[' || coalesce(string_agg(${object}, ',' ORDER BY ${orderSql(meta, c, order)}), '') || ']' FROM ${meta.tableName} ${c}${joinSql(joins)}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''})`;
  }

  /**
   * The conditions of a `rows` list of dated versions (annotations.ts InForce), its two arguments
   * taken from `rest`: without `on`, every version (`where`); with it, the one in force per `per`.
   */
  private inForce(meta: EntityMetadata, spec: InForce, rest: Record<string, unknown>, where: (c: string) => string[]): (c: string) => string[] {
    const on = rest[spec.on];
    const asKnownOn = rest[spec.asKnownOn] ?? today();
    delete rest[spec.on];
    delete rest[spec.asKnownOn];
    if (on == null) return where;
    if (typeof on !== 'string' || !isIsoDate(on) || typeof asKnownOn !== 'string' || !isIsoDate(asKnownOn)) throw new Decline();
    const col = (v: string, p: string) => `${v}.${columnOf(meta, p).databaseName}`;
    const key = meta.primaryColumns[0].databaseName;
    const v = this.alias();
    const day = this.literal(on, 'date');
    const found = [...where(v), `${col(v, spec.publishedOn)} <= ${this.literal(asKnownOn, 'date')}`, `${col(v, spec.validFrom)} <= ${day}`, `${day} <= ${col(v, spec.validUntil)}`];
    const chosen = `SELECT DISTINCT ON (${col(v, spec.per)}) ${v}.${key} FROM ${meta.tableName} ${v} WHERE ${found.join(' AND ')} ORDER BY ${col(v, spec.per)}, ${col(v, spec.publishedOn)} DESC, ${v}.${key} DESC`;
    return (c) => [...where(c), `${c}.${key} IN (${chosen})`];
  }

  /**
   * A root field's arguments that are `filters`, as conditions on rows aliased `c`, and the other
   * arguments. An empty string is left to the resolver (the services differ on whether it narrows).
   */
  private filters(meta: EntityMetadata, filters: Filters | undefined, args: Readonly<Record<string, unknown>>): { rest: Record<string, unknown>; where: (c: string) => string[] } {
    const rest: Record<string, unknown> = { ...args };
    const terms: string[][] = [];
    for (const [arg, property] of Object.entries(filters ?? {})) {
      const value = rest[arg];
      delete rest[arg];
      if (value == null) continue;
      if (typeof value !== 'string' || value === '') throw new Decline();
      const column = columnOf(meta, property);
      terms.push([column.databaseName, this.keyLiteral(column, value)]);
    }
    return { rest, where: (c) => terms.map(([name, literal]) => `${c}.${name} = ${literal}`) };
  }

  /**
   * A computed field of rows `q`: its place in the JSON text, filled after the statement by the
   * field's resolver for every row of the page at once (executor.ts).
   */
  private hole(type: GraphQLObjectType, meta: EntityMetadata, nodes: readonly FieldNode[], key: string, q: string): string {
    if (meta.primaryColumns.length !== 1) throw new Decline();
    let mapper: RowMapper<object>;
    try {
      mapper = rowMapperOf(meta);
    } catch {
      // Rows the mapper cannot write as texts: the root field is executed by graphql-js.
      throw new Decline();
    }
    if (!this.marker) this.marker = randomBytes(12).toString('hex');
    const index = this.holes.push({ parentType: type, entity: meta.target as EntityClass, nodes, key }) - 1;
    // The marker and the index are hex and digits, keys are digits, the row's columns (what the
    // resolvers are given: an entity, as its loaders would read it) are in base64: nothing to escape.
    const row = `translate(encode(convert_to(${mapper.textArray(q)}::text, 'UTF8'), 'base64'), E'\\n', '')`;
    return `'"${this.marker}:${index}:' || ${q}.${meta.primaryColumns[0].databaseName}::text || ':' || ${row} || '"'`;
  }

  /**
   * The JSON text of a column as its GraphQL type serialises it, `null` when the column is null;
   * null when SQL does not write its type (an enum not stored by name, a scalar without a writer).
   */
  private column(def: GraphQLField<unknown, unknown>, meta: EntityMetadata, q: string): string | null {
    const column = meta.findColumnWithPropertyName(def.name);
    if (!column || column.relationMetadata) throw new Decline();
    const ref = `${q}.${column.databaseName}`;
    const type = getNamedType(def.type);
    if (isEnumType(type)) {
      if (!this.compiler.storedByName(type)) return null;
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
      default: return null;
    }
  }
}
