import { FieldNode, getArgumentValues, getNamedType, GraphQLField, GraphQLObjectType, isObjectType } from 'graphql';
import type { EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { inForceSql } from '../../services/facts/in-force.sql';
import { rowMapperOf } from '../../services/raw-rows';
import { isId } from '../../services/record-batch';
import { visibleProducerId } from '../../services/scope';
import { isIsoDate } from '../../law/dates';
import { Filters, InForce, OrderKey, SqlRead, sqlReadOf } from './annotations';
import { decimalSql, ScaledDecimal, scaleOf } from '../scalars';
import { isScaledProperty, setAnswers } from './answers';
import type { ReadCompiler } from './compiler';
import { connectionPart, pageOf } from './connection';
import { collectSubfields } from './selection';
import { arraySql, columnOf, CompiledStatement, Decline, isComputed, joinSql, MAX_KEYS, orderSql, ownerOf, Part, producerColumnOf, RootField } from './statement';

export class Build {
  private aliases = 0;
  private readonly only: string | null;
  private readonly params: unknown[] = [];
  private todayParam: string | undefined;

  constructor(private readonly compiler: ReadCompiler, private readonly input: RootField) {
    this.only = visibleProducerId(input.actor);
    // The services compare ids as text ("01" is not "1"); the database would not.
    if (this.only !== null && !isId(this.only)) throw new Decline();
  }

  root(): CompiledStatement {
    const { field, nodes, args } = this.input;
    const read = sqlReadOf(field);
    if (!read) throw new Decline();
    const type = getNamedType(field.type);
    if (!isObjectType(type)) throw new Decline();
    let part: Part;
    if (read.kind === 'list') {
      const meta = this.compiler.metadata(read.entity);
      const { rest, where } = this.filters(meta, read.filters, args);
      part = connectionPart(this, type, nodes, meta, read.keyset, pageOf(rest, read.keyset, false), where);
    } else if (read.kind === 'rows') {
      const meta = this.compiler.metadata(read.entity);
      const { rest, where } = this.filters(meta, read.filters, args);
      const inForce = read.inForce ? this.inForce(meta, read.inForce, rest, where) : where;
      // Any other argument given: the resolver's.
      if (Object.values(rest).some((v) => v != null)) throw new Decline();
      part = this.list(type, meta, read.order, nodes, inForce);
    } else if (read.kind === 'lookup') {
      const meta = this.compiler.metadata(read.entity);
      const key = meta.primaryColumns[0];
      const q = this.alias();
      const joins: string[] = [];
      const object = this.object(type, meta, this.subfields(type, nodes), q, joins);
      const where = [`${q}.${key.databaseName} = ${this.keyParam(key, args[read.arg])}`, ...this.scope(meta, q)];
      part = { sql: `(SELECT ${object.sql} FROM ${meta.tableName} ${q}${joinSql(joins)} WHERE ${where.join(' AND ')})`, read: object.read };
    } else if (read.kind === 'records') {
      const meta = this.compiler.metadata(read.entity);
      const owner = this.compiler.metadata(ownerOf(meta, read.fk));
      const id = args[read.arg];
      // "01" names no record (isId): the resolver answers it as an unknown id.
      if (typeof id !== 'string' || !isId(id)) throw new Decline();
      const o = this.alias();
      // An unknown or unseen owner is the resolver's NOT_FOUND: NULL hands it over.
      const fk = columnOf(meta, read.fk).databaseName;
      const ownerId = this.param(id, 'bigint');
      const list = this.list(type, meta, read.order, nodes, (c) => [`${c}.${fk} = ${ownerId}`]);
      const where = [`${o}.${owner.primaryColumns[0].databaseName} = ${ownerId}`, ...this.scope(owner, o)];
      part = { sql: `CASE WHEN EXISTS (SELECT 1 FROM ${owner.tableName} ${o} WHERE ${where.join(' AND ')}) THEN ${list.sql} END`, read: list.read };
    } else {
      throw new Decline();
    }
    return { sql: `SELECT ${part.sql} AS data`, params: this.params, objects: part.read };
  }

  alias(): string {
    return `t${this.aliases++}`;
  }

  /** Without a type, PostgreSQL infers it from where it stands. */
  param(value: unknown, type?: string): string {
    const placeholder = `$${this.params.push(value)}`;
    return type ? `${placeholder}::${type}` : placeholder;
  }

  /**
   * A value bound where the text first names it: a part the selection leaves out names none, and
   * PostgreSQL refuses a value the text never names.
   */
  paramOnUse(value: unknown, type?: string): () => string {
    let placeholder: string | undefined;
    return () => (placeholder ??= this.param(value, type));
  }

  today(): string {
    return (this.todayParam ??= this.param(this.input.today, 'date'));
  }

  /** Row-level security is the second wall. */
  scope(meta: EntityMetadata, q: string): string[] {
    const column = producerColumnOf(meta);
    if (this.only === null || column === undefined) return [];
    return [`${q}.${column} = ${this.param(this.only, 'bigint')}`];
  }

  subfields(type: GraphQLObjectType, nodes: readonly FieldNode[]) {
    return collectSubfields(this.compiler.schemaOf(), this.input.fragments, this.input.variables, type, nodes);
  }

  /** All columns when a computed field needs the entity. */
  object(type: GraphQLObjectType, meta: EntityMetadata, fields: Map<string, readonly FieldNode[]>, q: string, joins: string[]): Part {
    if (fields.size > MAX_KEYS) throw new Decline();
    const columns = new Set<ColumnMetadata>();
    const slots: Array<{ key: string; part: Part }> = [];
    let whole = false;
    for (const [key, nodes] of fields) {
      const name = nodes[0].name.value;
      if (name === '__typename') continue;
      const def = type.getFields()[name];
      if (!def) throw new Decline();
      const read = sqlReadOf(def);
      if (read?.kind === 'value') {
        if (def.args.length > 0 || getNamedType(def.type).name !== 'Boolean') throw new Decline();
        slots.push({ key, part: { sql: `(${read.sql(q, this.today())})`, read: (v) => v } });
      } else if (!read && isComputed(def, meta)) {
        whole = true;
      } else if (!read) {
        const column = meta.findColumnWithPropertyName(def.name);
        if (!column || column.relationMetadata) throw new Decline();
        if (isScaledProperty(def) && column.type === 'numeric') {
          // No Decimal parsed and printed per value.
          slots.push({ key, part: { sql: decimalSql(`${q}.${column.databaseName}`, scaleOf(def)), read: (v) => (v === null ? null : new ScaledDecimal(v as string)) } });
        } else {
          columns.add(column);
        }
      } else {
        const target = getNamedType(def.type);
        if (!isObjectType(target)) throw new Decline();
        slots.push({ key, part: this.relation(read, def, target, nodes, meta, q, joins) });
      }
    }
    const read = this.entityReader(meta, whole ? meta.columns : [...columns], slots);
    return { sql: arraySql([...read.columns.map((c) => `${q}.${c.databaseName}::text`), ...slots.map((s) => s.part.sql)]), read: read.read };
  }

  private entityReader(meta: EntityMetadata, columns: readonly ColumnMetadata[], slots: ReadonlyArray<{ key: string; part: Part }>): { columns: readonly ColumnMetadata[]; read: (json: unknown) => object } {
    let readers: Array<[string, (text: string) => unknown]>;
    try {
      const mapper = rowMapperOf(meta);
      readers = columns.map((c) => [c.propertyName, mapper.reader(c.propertyName)]);
    } catch {
      // An entity the mapper does not take: its root field is executed by graphql-js.
      throw new Decline();
    }
    const proto = (meta.target as { prototype: object }).prototype;
    const n = readers.length;
    return {
      columns,
      read: (json) => {
        const values = json as unknown[];
        const entity = Object.create(proto) as Record<string, unknown>;
        for (let i = 0; i < n; i++) {
          const text = values[i] as string | null;
          entity[readers[i][0]] = text === null ? null : readers[i][1](text);
        }
        if (slots.length > 0) {
          const answers: Record<string, unknown> = {};
          for (let j = 0; j < slots.length; j++) answers[slots[j].key] = slots[j].part.read(values[n + j]);
          setAnswers(entity, answers);
        }
        return entity;
      },
    };
  }

  private keyParam(column: ColumnMetadata, value: unknown): string {
    const checked = this.keyValue(column, value);
    return this.param(checked.value, checked.type);
  }

  private keyValue(column: ColumnMetadata, value: unknown): { value: string; type?: string } {
    if (typeof value !== 'string') throw new Decline();
    if (column.type === 'bigint') {
      if (!isId(value)) throw new Decline();
      return { value, type: 'bigint' };
    }
    // char(n) ignores trailing blanks; the services' maps do not.
    if (value !== value.trimEnd()) throw new Decline();
    // Untyped: PostgreSQL reads it as the column's own type (and uses its index).
    return { value };
  }

  private args(field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> {
    try {
      return getArgumentValues(field, node, this.input.variables as Record<string, unknown>);
    } catch {
      throw new Decline();
    }
  }

  private relation(read: SqlRead, def: GraphQLField<unknown, unknown>, target: GraphQLObjectType, nodes: readonly FieldNode[], meta: EntityMetadata, q: string, joins: string[]): Part {
    const key = meta.primaryColumns[0].databaseName;
    if (read.kind === 'one') {
      if (def.args.length > 0) throw new Decline();
      const targetMeta = this.compiler.metadata(read.entity);
      const targetKey = targetMeta.primaryColumns[0].databaseName;
      const fk = columnOf(meta, read.fk);
      // A join beside the rows' own table, under their LIMIT (connection.ts): PostgreSQL probes
      // the key per row shown. A correlated sub-select per row cost twice as much.
      const t = this.alias();
      joins.push(`LEFT JOIN ${targetMeta.tableName} ${t} ON ${[`${t}.${targetKey} = ${q}.${fk.databaseName}`, ...this.scope(targetMeta, t)].join(' AND ')}`);
      const object = this.object(target, targetMeta, this.subfields(target, nodes), t, joins);
      return { sql: `CASE WHEN ${t}.${targetKey} IS NULL THEN NULL ELSE ${object.sql} END`, read: (v) => (v === null ? null : object.read(v)) };
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
      return connectionPart(this, target, nodes, childMeta, read.keyset, page, (c) => [`${c}.${fk} = ${q}.${key}`]);
    }
    throw new Decline();
  }

  private list(type: GraphQLObjectType, meta: EntityMetadata, order: readonly OrderKey[], nodes: readonly FieldNode[], where: (c: string) => string[]): Part {
    const c = this.alias();
    const joins: string[] = [];
    const object = this.object(type, meta, this.subfields(type, nodes), c, joins);
    const conditions = [...where(c), ...this.scope(meta, c)];
    return {
      // An array sub-select, as a connection's rows: cheaper than an ordered aggregate.
      sql: `array_to_json(ARRAY(SELECT ${object.sql} FROM ${meta.tableName} ${c}${joinSql(joins)}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''} ORDER BY ${orderSql(meta, c, order)}))`,
      read: (v) => (v as unknown[]).map(object.read),
    };
  }

  /** Without `on`, every version (src/services/facts/in-force.sql.ts). */
  private inForce(meta: EntityMetadata, spec: InForce, rest: Record<string, unknown>, where: (c: string) => string[]): (c: string) => string[] {
    const on = rest[spec.on];
    const asKnownOn = rest[spec.asKnownOn] ?? this.input.today;
    delete rest[spec.on];
    delete rest[spec.asKnownOn];
    if (on == null) return where;
    if (typeof on !== 'string' || !isIsoDate(on) || typeof asKnownOn !== 'string' || !isIsoDate(asKnownOn)) throw new Decline();
    const column = (p: string) => columnOf(meta, p).databaseName;
    const v = this.alias();
    const chosen = inForceSql({
      table: meta.tableName, alias: v, key: meta.primaryColumns[0].databaseName,
      per: typeof spec.per === 'string' ? column(spec.per) : spec.per.map(column), validFrom: column(spec.validFrom), validUntil: column(spec.validUntil), publishedOn: column(spec.publishedOn),
      on: this.param(on, 'date'), asKnownOn: this.param(asKnownOn, 'date'), where: where(v),
    });
    const key = meta.primaryColumns[0].databaseName;
    return (c) => [...where(c), `${c}.${key} IN (${chosen})`];
  }

  /** An empty string is left to the resolver: the services differ on whether it narrows. Checked now, bound on use. */
  private filters(meta: EntityMetadata, filters: Filters | undefined, args: Readonly<Record<string, unknown>>): { rest: Record<string, unknown>; where: (c: string) => string[] } {
    const rest: Record<string, unknown> = { ...args };
    const terms: Array<[name: string, placeholder: () => string]> = [];
    for (const [arg, property] of Object.entries(filters ?? {})) {
      const value = rest[arg];
      delete rest[arg];
      if (value == null) continue;
      if (typeof value !== 'string' || value === '') throw new Decline();
      const column = columnOf(meta, property);
      const checked = this.keyValue(column, value);
      terms.push([column.databaseName, this.paramOnUse(checked.value, checked.type)]);
    }
    return { rest, where: (c) => terms.map(([name, placeholder]) => `${c}.${name} = ${placeholder()}`) };
  }
}
