import { FieldNode, GraphQLField, GraphQLSchema, isObjectType } from 'graphql';
import type { DataSource, EntityMetadata } from 'typeorm';
import { visibleProducerId } from '../../services/scope';
import { EntityClass, ROOT_KINDS, sqlReadOf } from './annotations';
import { Build } from './build';
import { columnOf, CompiledStatement, Decline, orderProperty, ownerOf, RootField } from './statement';

export type { CompiledStatement, RootField } from './statement';

// A root field's selection compiled into one SQL statement (bound parameters, the services'
// keysets) whose rows graphql-js resolves as objects; computed fields keep their loaders. What it
// cannot translate falls back to the resolver (docs/ARCHITECTURE.md; compared byte for byte by
// test/e2e/compiled-reads.test.ts). build.ts walks the selection, connection.ts pages.

export class ReadCompiler {
  /** Statements made, by the root field's first node, then by cacheKey. */
  private readonly compiled = new WeakMap<FieldNode, Map<string, CompiledStatement | null>>();

  constructor(private readonly schema: GraphQLSchema, private readonly dataSource: DataSource) {}

  /** Whether a root field is one this compiler may answer (it has an annotation of a root kind). */
  static isRoot(field: GraphQLField<unknown, unknown>): boolean {
    const read = sqlReadOf(field);
    return read !== undefined && ROOT_KINDS.has(read.kind);
  }

  /** Annotations checked against TypeORM's metadata at start-up, not found wrong per request. */
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
   * The statement for a root field, or null for its resolver; kept per parsed field node,
   * variables, producer scope and day.
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
