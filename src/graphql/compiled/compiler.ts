import { FieldNode, GraphQLField, GraphQLSchema, isObjectType } from 'graphql';
import type { DataSource, EntityMetadata } from 'typeorm';
import { visibleProducerId } from '../../services/scope';
import { EntityClass, ROOT_KINDS, sqlReadOf } from './annotations';
import { Build } from './build';
import { columnOf, CompiledStatement, Decline, orderProperty, ownerOf, RootField } from './statement';

export type { CompiledStatement, RootField } from './statement';

/**
 * Reads compiled to SQL: the database does the set work. A root field of the read schema
 * annotated with how it is read (annotations.ts) is translated here, from its selection, into one
 * SQL statement of nested subqueries that gives the field's rows as JSON — the scoping, ordering,
 * cursors and limits of the services, every value a bound parameter — read back into the objects
 * graphql-js then resolves as always: stored fields by its default resolver, the fields that lead
 * to other objects from what the statement gave (answers.ts), computed fields by their resolvers
 * and the request's DataLoaders, one statement per loader for the whole page. Tables and columns
 * come from TypeORM's entity metadata; a connection's order and cursor from the keyset its service
 * pages with (src/services/keysets.ts).
 *
 * What it cannot translate — an argument the resolvers would refuse, a selection too wide — makes
 * `compile` return null, and the field's resolver answers it as always, errors included
 * (test/e2e/compiled-reads.test.ts compares the two paths byte for byte).
 *
 * The parts: build.ts walks the selection (objects, columns, relations), connection.ts writes a
 * connection's page, statement.ts holds the shared types and pieces of SQL text.
 */

export class ReadCompiler {
  /** Statements made, by the root field's first node, then by cacheKey. */
  private readonly compiled = new WeakMap<FieldNode, Map<string, CompiledStatement | null>>();

  constructor(private readonly schema: GraphQLSchema, private readonly dataSource: DataSource) {}

  /** Whether a root field is one this compiler may answer (it has an annotation of a root kind). */
  static isRoot(field: GraphQLField<unknown, unknown>): boolean {
    const read = sqlReadOf(field);
    return read !== undefined && ROOT_KINDS.has(read.kind);
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
        if ('order' in read) read.order.forEach((k) => columnOf(meta, orderProperty(k)));
        if (read.kind === 'rows' && read.inForce) {
          const { on, asKnownOn, ...properties } = read.inForce;
          Object.values(properties).flat().forEach((p) => columnOf(meta, p));
          if (![on, asKnownOn].every((arg) => field.args.some((a) => a.name === arg))) throw new Error(`compiled reads: ${where} lacks an argument of inForce`);
        }
        if ('filters' in read && read.filters) {
          for (const [arg, property] of Object.entries(read.filters)) {
            columnOf(meta, property);
            if (!field.args.some((a) => a.name === arg)) throw new Error(`compiled reads: ${where} has no argument ${arg}`);
          }
        }
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

  /**
   * The statement answering a root field, or null when its resolver must. The same field node of
   * the same parsed document (Apollo Server keeps parsed documents) with the same variables, for
   * the same producer scope and on the same day (the `value` annotations ask today), gives the
   * same statement: it is kept and given again.
   */
  compile(root: RootField): CompiledStatement | null {
    const key = cacheKey(root);
    const kept = key === null ? undefined : this.compiled.get(root.nodes[0])?.get(key);
    if (kept !== undefined) return kept;
    let statement: CompiledStatement | null;
    try {
      statement = new Build(this, root).root();
    } catch (e) {
      if (!(e instanceof Decline)) throw e;
      statement = null;
    }
    if (key !== null) {
      let byKey = this.compiled.get(root.nodes[0]);
      if (!byKey) this.compiled.set(root.nodes[0], (byKey = new Map()));
      if (byKey.size >= KEPT_PER_NODE) byKey.clear();
      byKey.set(key, statement);
    }
    return statement;
  }

  metadata(entity: EntityClass): EntityMetadata {
    return this.dataSource.getMetadata(entity);
  }

  schemaOf(): GraphQLSchema {
    return this.schema;
  }
}

/** Statements kept per field node (its variables differ): past it, the node's are dropped. */
const KEPT_PER_NODE = 16;

/** What a statement depends on besides its field nodes; null when the variables are not plain JSON. */
function cacheKey(root: RootField): string | null {
  try {
    return JSON.stringify([root.nodes.length, visibleProducerId(root.actor), root.today, root.variables, root.args]);
  } catch {
    return null;
  }
}
