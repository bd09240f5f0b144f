import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  DocumentNode,
  execute,
  ExecutionResult,
  GraphQLError,
  GraphQLField,
  GraphQLFieldConfig,
  GraphQLList,
  FieldNode,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLResolveInfo,
  GraphQLScalarType,
  GraphQLSchema,
  isNonNullType,
  Kind,
  OperationDefinitionNode,
  FragmentDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import type { DataSource } from 'typeorm';
import { Logger } from '../../logger';
import { authorize } from '../auth/protect';
import { Context } from '../context';
import { isDatabaseUnavailable } from '../errors';
import { EntityClass } from './annotations';
import { ReadCompiler } from './compiler';
import { CompiledStatement } from './statement';
import { RawJson } from './raw-json';
import { runCompiled } from './run';
import { rowMapper } from '../../services/raw-rows';

/**
 * How operations execute when reads are compiled: graphql-js `execute`, over a copy of the schema
 * in which every root field the compiler may answer (an annotated list, lookup or records field,
 * annotations.ts) is a leaf whose resolver compiles that field's selection — read through
 * graphql-js's public functions from its own GraphQLResolveInfo — into one SQL statement and
 * returns the statement's JSON text as it is (RawJson). graphql-js executes the other root fields
 * of the same operation as always, so an operation mixing both compiles what it can. A root field
 * whose selection the compiler does not translate, or whose statement answers NULL (a lookup that
 * finds nothing, a list whose producer is unknown: the resolvers' null or NOT_FOUND), is executed
 * by graphql-js over the real schema, errors and all, in place.
 *
 * Apollo Server receives it as a gateway (`executorGateway`), the API's own pipeline
 * (src/graphql/pipeline.ts) calls it directly: parsing, validation, the query limits and the
 * request hooks stay theirs, over the real schema.
 */
export function compiledReadsExecutor(schema: GraphQLSchema, dataSource: DataSource, logger: Logger): OperationExecutor {
  // The annotations are checked once here: a wrong one fails the start, not each request.
  ReadCompiler.checkAnnotations(schema, dataSource);
  const compiler = new ReadCompiler(schema, dataSource);

  const run = (statement: CompiledStatement) => runCompiled(dataSource, statement);

  const resolveCompiled = async (field: GraphQLField<unknown, unknown>, execution: Execution, args: Record<string, unknown>, context: Context, info: GraphQLResolveInfo): Promise<unknown> => {
    let statement: CompiledStatement | null = null;
    try {
      authorize('Query', field.name, context.actor, args);
      statement = compiler.compile({ field, nodes: info.fieldNodes, fragments: info.fragments, variables: info.variableValues, args, actor: context.actor });
    } catch {
      // Refused: the resolver gives the refusal.
    }
    if (statement) {
      try {
        const text = await run(statement);
        if (text !== null) {
          const filled = statement.holes.length ? await fillHoles(dataSource, statement, text, execution, context) : text;
          if (filled !== null) return new RawJson(filled);
        }
      } catch (error) {
        // With the database unavailable, the resolver would meet the same error at the same place;
        // executing it would only wait for a connection a second time.
        if (isDatabaseUnavailable(error)) throw error;
        logger.warn({ err: error }, 'compiled read failed; executing the field instead');
      }
    }
    return execution.executeField(schema, context, info);
  };

  const shadow = executionSchema(schema, resolveCompiled);
  return async ({ document, operation, operationName, variables, context, http }) => {
    const execution = new Execution(document, operation, variables);
    const result = await execute({
      schema: shadow,
      document,
      // As asked: an operationName the document lacks is execution's error to report.
      operationName,
      variableValues: variables,
      contextValue: context,
      rootValue: execution,
    });
    // A non-null root field that failed ends execute before the others: their errors are kept too.
    await execution.settled();
    return execution.merge(result, http);
  };
}

/** An operation to execute, parsed, validated and resolved, with its request's context. */
export interface OperationToExecute {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName?: string | null;
  variables?: Record<string, unknown>;
  context: Context;
  /** Whether the answer is sent over HTTP (compiled JSON is then kept as text), or given as objects. */
  http: boolean;
}
export type OperationExecutor = (operation: OperationToExecute) => Promise<ExecutionResult>;

/** An executor given to Apollo Server as a gateway (its public interface for an executor of one's own). */
export function executorGateway(schema: GraphQLSchema, executor: OperationExecutor): GatewayInterface {
  const gatewayExecutor: GatewayExecutor = (rc) => executor({
    document: rc.document, operation: rc.operation, operationName: rc.request.operationName, variables: rc.request.variables, context: rc.context as Context, http: rc.request.http !== undefined,
  });
  return {
    async load() {
      return { executor: gatewayExecutor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async stop() {},
  };
}

/** One schema per parent type of computed fields: `rows: [Parent]`, the rows given as the root value. */
const rowSchemas = new WeakMap<GraphQLObjectType, GraphQLSchema>();
function rowsSchema(parentType: GraphQLObjectType): GraphQLSchema {
  let schema = rowSchemas.get(parentType);
  if (!schema) {
    schema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { rows: { type: new GraphQLList(parentType), resolve: (root) => root } } }),
    });
    rowSchemas.set(parentType, schema);
  }
  return schema;
}

/**
 * The computed fields of a compiled statement's text filled in: for each one, the rows of the page
 * (the statement wrote each row's columns in the field's place, mapped to the entity as its loaders
 * map them: no statement more), and the field resolved by graphql-js for all of them at once — its
 * resolvers and the request's DataLoaders, as always, but once per page rather than once per row —
 * its JSON written in place. Null when a resolver failed: the root field is then executed by
 * graphql-js, which gives its errors.
 */
async function fillHoles(dataSource: DataSource, statement: CompiledStatement, text: string, execution: Execution, context: Context): Promise<string | null> {
  const pattern = new RegExp(`"${statement.marker}:(\\d+):([^":]*):([A-Za-z0-9+/=]*)"`, 'g');
  const keysByHole = statement.holes.map(() => new Set<string>());
  // The rows of each entity, as the statement wrote them beside their holes (each row once).
  const rowsByEntity = new Map<EntityClass, Map<string, object>>();
  for (const m of text.matchAll(pattern)) {
    const hole = statement.holes[Number(m[1])];
    keysByHole[Number(m[1])].add(m[2]);
    let rows = rowsByEntity.get(hole.entity);
    if (!rows) rowsByEntity.set(hole.entity, (rows = new Map()));
    if (!rows.has(m[2])) rows.set(m[2], rowMapper(dataSource, hole.entity).fromTexts(JSON.parse(Buffer.from(m[3], 'base64').toString('utf8')) as Array<string | null>));
  }
  const values = await Promise.all(statement.holes.map(async (hole, i): Promise<Map<string, string> | null> => {
    const keys = [...keysByHole[i]];
    if (keys.length === 0) return new Map();
    const loaded = rowsByEntity.get(hole.entity)!;
    const rows = keys.map((k) => loaded.get(k)!);
    const result = await execute({ schema: rowsSchema(hole.parentType), document: execution.documentFor(hole.nodes, 'rows'), variableValues: execution.variableValues, contextValue: context, rootValue: rows });
    if (result.errors || !result.data) return null;
    const answered = result.data.rows as Array<Record<string, unknown>>;
    return new Map(keys.map((k, r) => [k, JSON.stringify(answered[r][hole.key])]));
  }));
  if (values.some((v) => v === null)) return null;
  let missing = false;
  const filled = text.replace(pattern, (_m, hole: string, key: string) => {
    const value = values[Number(hole)]!.get(key);
    if (value === undefined) missing = true;
    return value ?? 'null';
  });
  return missing ? null : filled;
}

/** A compiled root field's value: JSON text as it is, or what graphql-js gave when it executed it. */
const CompiledJson = new GraphQLScalarType({
  name: 'CompiledJson',
  description: 'A compiled read\'s JSON (internal to execution, never in the public schema).',
  serialize: (value) => value,
});

type ResolveCompiled = (field: GraphQLField<unknown, unknown>, execution: Execution, args: Record<string, unknown>, context: Context, info: GraphQLResolveInfo) => Promise<unknown>;

/** The schema operations execute over: the compiled root fields as leaves of type CompiledJson. */
function executionSchema(schema: GraphQLSchema, resolveCompiled: ResolveCompiled): GraphQLSchema {
  const query = schema.getQueryType();
  if (!query) return schema;
  const config = query.toConfig();
  const fields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {};
  for (const [name, fieldConfig] of Object.entries(config.fields)) {
    const field = query.getFields()[name];
    fields[name] = !ReadCompiler.isRoot(field) ? fieldConfig : {
      ...fieldConfig,
      type: isNonNullType(fieldConfig.type) ? new GraphQLNonNull(CompiledJson) : CompiledJson,
      resolve: (source, args, context, info) => (source as Execution).track(resolveCompiled(field, source as Execution, args, context as Context, info)),
    };
  }
  const schemaConfig = schema.toConfig();
  return new GraphQLSchema({
    ...schemaConfig,
    query: new GraphQLObjectType({ ...config, fields }),
    types: [...schemaConfig.types.filter((t) => t.name !== query.name), CompiledJson],
  });
}

/** A root field executed by graphql-js and found null because of an error below it: its data is null. */
class NullBubbled extends Error {}

/** One operation's execution: the errors of the root fields executed by graphql-js in place. */
class Execution {
  private readonly errors: GraphQLError[] = [];
  private readonly running: Array<Promise<unknown>> = [];

  constructor(
    private readonly document: DocumentNode,
    private readonly operation: OperationDefinitionNode,
    private readonly variables: Record<string, unknown> | undefined,
  ) {}

  get variableValues(): Record<string, unknown> | undefined {
    return this.variables;
  }

  /**
   * A document of this operation's variables and fragments whose one operation selects `nodes`
   * (under a root field `under`, when given).
   */
  documentFor(nodes: readonly FieldNode[], under?: string): DocumentNode {
    const selections = under
      ? [{ kind: Kind.FIELD, name: { kind: Kind.NAME, value: under }, selectionSet: { kind: Kind.SELECTION_SET, selections: nodes } } as FieldNode]
      : nodes;
    const operation: OperationDefinitionNode = { ...this.operation, selectionSet: { kind: Kind.SELECTION_SET, selections } };
    return { kind: Kind.DOCUMENT, definitions: [operation, ...this.document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)] };
  }

  /**
   * The root field of `info` executed by graphql-js over the real schema, as its own operation
   * (same variables, fragments and context): its value, its errors kept for the response.
   */
  async executeField(schema: GraphQLSchema, context: Context, info: GraphQLResolveInfo): Promise<unknown> {
    const result = await execute({ schema, document: this.documentFor(info.fieldNodes), variableValues: this.variables, contextValue: context });
    if (result.errors) this.errors.push(...result.errors);
    // A non-null root field that failed nulls the whole data, as it does in one execution.
    if (!result.data) throw new NullBubbled();
    return result.data[info.path.key as string];
  }

  /** A compiled root field's value, awaited by settled(). */
  track<T>(value: Promise<T>): Promise<T> {
    this.running.push(value);
    return value;
  }

  /** The response keys of the operation's root fields, in the order of the document (fragments expanded). */
  private rootKeys(): string[] {
    const keys = new Set<string>();
    const seen = new Set<string>();
    const walk = (set: SelectionSetNode) => set.selections.forEach((s) => {
      if (s.kind === Kind.FIELD) keys.add(s.alias?.value ?? s.name.value);
      else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const fragment = this.document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    });
    walk(this.operation.selectionSet);
    return [...keys];
  }

  /** Every compiled root field (and those executed in place), ended. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.running);
  }

  /** The operation's result: its own errors, then those of the fields executed in place. */
  merge(result: ExecutionResult, http: boolean): ExecutionResult {
    let errors = [...(result.errors ?? []).filter((e) => !(e.originalError instanceof NullBubbled)), ...this.errors];
    let data = result.data;
    // In the order of the root fields they belong to, as one execution mostly records them (each
    // root field's own errors keep their order).
    if (errors.length > 1) {
      const rank = new Map((data ? Object.keys(data) : this.rootKeys()).map((k, i) => [k, i]));
      errors = errors.map((e, i) => ({ e, i, r: rank.get(String(e.path?.[0])) ?? -1 })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.e);
    }
    // A caller without HTTP (executeOperation) gets objects; HTTP answers carry the text as it is.
    if (data && !http) {
      data = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v instanceof RawJson ? JSON.parse(v.text) : v]));
    }
    return errors.length ? { errors, data } : { data };
  }
}
