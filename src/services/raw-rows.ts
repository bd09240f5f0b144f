import { types } from 'pg';
import type { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Entities mapped from pg rows by their column metadata, for hot loaders where TypeORM's result
 * transformer costs more than the query; values identical to TypeORM's (numerics as Decimal).
 */
export interface RowMapper<T> {
  /** `alias.column, …` in entity order, to put after SELECT; with a prefix, each `AS "prefix.column"`. */
  columns(alias: string, prefix?: string): string;
  /** The entity of a row (of the columns named with `prefix`, when given). */
  map(row: Record<string, unknown>, prefix?: string): T;
  /**
   * The value of a property from its column's text (`alias.column::text`, as PostgreSQL writes it
   * for a result), parsed as pg parses that type, as `map` gives it: the compiled reads' objects.
   */
  reader(property: string): (text: string) => unknown;
}

/** The OIDs of the arrays of those types (`text[]` is `_text`, 1009, …): pg parses each with its own parser. */
const ARRAY_OF = new Map<number, number>([
  [types.builtins.INT8, 1016], [types.builtins.INT4, 1007], [types.builtins.TEXT, 1009], [types.builtins.VARCHAR, 1015], [types.builtins.BPCHAR, 1014],
  [types.builtins.DATE, 1182], [types.builtins.NUMERIC, 1231], [types.builtins.BOOL, 1000], [types.builtins.TIMESTAMPTZ, 1185], [types.builtins.JSONB, 3807],
]);

/** The column types mapped here, with the type of the value pg parses for each (its type parser by OID). */
const PASS_THROUGH = new Map<string, number>([
  ['bigint', types.builtins.INT8], ['integer', types.builtins.INT4], ['int', types.builtins.INT4], ['int4', types.builtins.INT4], ['text', types.builtins.TEXT], ['varchar', types.builtins.VARCHAR],
  ['char', types.builtins.BPCHAR], ['character', types.builtins.BPCHAR], ['date', types.builtins.DATE], ['numeric', types.builtins.NUMERIC], ['boolean', types.builtins.BOOL],
  ['timestamptz', types.builtins.TIMESTAMPTZ], ['jsonb', types.builtins.JSONB],
]);
const cache = new WeakMap<object, RowMapper<unknown>>();

export function rowMapper<T extends ObjectLiteral>(ds: DataSource, entity: EntityTarget<T>): RowMapper<T> {
  return rowMapperOf<T>(ds.getMetadata(entity));
}

export function rowMapperOf<T extends ObjectLiteral>(metadata: EntityMetadata): RowMapper<T> {
  const known = cache.get(metadata);
  if (known) return known as RowMapper<T>;
  const columns = metadata.columns.map((c) => {
    const type = String(c.type);
    if (!PASS_THROUGH.has(type) || c.embeddedMetadata || c.relationMetadata) {
      throw new Error(`rowMapper: ${metadata.name}.${c.propertyName} (${type}) needs TypeORM's own hydration`);
    }
    const transformer = Array.isArray(c.transformer) ? undefined : c.transformer;
    return { db: c.databaseName, property: c.propertyName, from: transformer ? (v: unknown) => transformer.from(v) : null, parse: types.getTypeParser(c.isArray ? ARRAY_OF.get(PASS_THROUGH.get(type)!)! : PASS_THROUGH.get(type)!, 'text') };
  });
  const target = metadata.target as { prototype: object };
  // One straight-line function per column prefix (property names known in advance, so V8 keeps
  // one hidden class for every entity of the page), built once per entity from its metadata.
  const from = columns.map((c) => c.from);
  const compiled = new Map<string, (row: Record<string, unknown>) => T>();
  const compile = (prefix: string) => {
    const body = columns
      .map((c, i) => `e[${JSON.stringify(c.property)}] = ${c.from ? `from[${i}](row[${JSON.stringify(prefix + c.db)}])` : `row[${JSON.stringify(prefix + c.db)}]`};`)
      .join('\n');
    return new Function('proto', 'from', `return function map(row) { const e = Object.create(proto);\n${body}\nreturn e; };`)(target.prototype, from) as (row: Record<string, unknown>) => T;
  };
  const mapper: RowMapper<T> = {
    columns: (alias, prefix) => columns.map((c) => (prefix ? `${alias}.${c.db} AS "${prefix}.${c.db}"` : `${alias}.${c.db}`)).join(', '),
    map(row, prefix) {
      const key = prefix ? `${prefix}.` : '';
      let fn = compiled.get(key);
      if (!fn) {
        fn = compile(key);
        compiled.set(key, fn);
      }
      return fn(row);
    },
    reader(property) {
      const c = columns.find((x) => x.property === property);
      if (!c) throw new Error(`rowMapper: ${metadata.name} has no column ${property}`);
      return c.from ? (text) => c.from!(c.parse(text)) : c.parse;
    },
  };
  cache.set(metadata, mapper);
  return mapper;
}

/** Where a row keeps what was fetched along with it (a symbol: not a column, not serialised). */
const RELATED = Symbol('selo.prefetched');

/**
 * A related entity fetched with the row in the same statement (a LEFT JOIN chosen by looking
 * ahead at the query), so that a field resolver can answer without a promise; `undefined` when
 * it was not fetched (the resolver then goes through its DataLoader as usual).
 */
export function prefetched<R>(entity: object, relation: string): R | null | undefined {
  const found = (entity as { [RELATED]?: Record<string, unknown> })[RELATED];
  return found && relation in found ? (found[relation] as R | null) : undefined;
}

export function attachPrefetched(entity: object, relation: string, value: unknown): void {
  const holder = entity as { [RELATED]?: Record<string, unknown> };
  const found = holder[RELATED];
  if (found) found[relation] = value;
  else Object.defineProperty(holder, RELATED, { value: { [relation]: value }, enumerable: false });
}
