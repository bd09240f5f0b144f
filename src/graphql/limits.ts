import { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  ASTVisitor, DocumentNode, FormattedExecutionResult, FragmentDefinitionNode, getNamedType, GraphQLError, GraphQLFormattedError, GraphQLObjectType, GraphQLSchema,
  isObjectType, Kind, OperationDefinitionNode, SelectionSetNode, ValidationContext, valueFromAST, GraphQLInt,
} from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../services/pagination';
import { message, translate } from '../i18n';
import { currentLocale } from '../request-context';
import { LocalizedGraphQLError } from './localized-error';
import type { PerRequest, RequestHooks } from './request-hooks';

/**
 * Limits on one request (QUERY_TOO_COMPLEX): the heaviest legitimate pages (20 producers × 50
 * purchases with names, a month's segments) pass with room; abuse is refused before execution.
 */
export const LIMITS = {
  /**
   * Levels of nested fields (producers.edges.node.purchases.edges.node.familyFarmer.name is 8).
   * Fragments, named or inline, add no level: a client's colocated fragments cost what the same
   * fields written out cost.
   */
  maxDepth: 12,
  /** Aliased fields in one operation. */
  maxAliases: 30,
  /** Directives in one operation. */
  maxDirectives: 20,
  /** Lexical tokens of the document (variables are not counted). */
  maxTokens: 10_000,
  /**
   * Estimated field resolutions: each field costs 1, a connection's subtree is multiplied by its
   * literal `first`. The page of 20 producers × 50 purchases above costs about 10,000.
   */
  maxCost: 50_000,
  /**
   * Field resolutions a request may fan out to, counting each connection at the page size it will
   * really have (`first` as a literal or a variable, 20 when absent).
   */
  maxFanOut: 100_000,
  /** Largest request body accepted. */
  bodyLimit: '1mb',
  /** A request still unanswered after this long is answered 503 (DATABASE statement time is bounded separately). */
  requestTimeoutMs: 30_000,
} as const;

/** A query refused by a limit: the public code QUERY_TOO_COMPLEX (docs/API.md "Errors"). */
export class QueryTooComplexError extends GraphQLError {
  constructor(message: string) {
    super(message.replace(/^Syntax Error: /, ''), { extensions: { code: 'QUERY_TOO_COMPLEX' } });
  }
}

function reject(ctx: ValidationContext | null, error: GraphQLError): void {
  ctx?.reportError(new QueryTooComplexError(error.message));
}

const callbacks = { propagateOnRejection: false, onReject: [reject] };

/**
 * graphql-armor's depth, alias, directive and cost rules; the token limit is graphql-js's parser
 * limit (`parseOptions`), which stops before parsing in full.
 */
export function armor() {
  const protection = new ApolloArmor({
    maxDepth: { n: LIMITS.maxDepth, flattenFragments: true, ignoreIntrospection: true, ...callbacks },
    maxAliases: { n: LIMITS.maxAliases, ...callbacks },
    maxDirectives: { n: LIMITS.maxDirectives, ...callbacks },
    // Introspection is counted like any field (its depth is not: GraphiQL's own query nests type
    // references deeper than a data query may); aliases count it already.
    costLimit: { maxCost: LIMITS.maxCost, objectCost: 1, scalarCost: 1, depthCostFactor: 1, ignoreIntrospection: false, ...callbacks },
    maxTokens: { enabled: false },
    // Suggestions are removed by the error formatter (errors.ts, withoutSuggestions), whole: armor's
    // mask left a stray " ?" after the message and kept the enum values' suggestions.
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return {
    validationRules: [...protection.validationRules, oneSchemaPerOperation],
    plugins: protection.plugins as ApolloServerPlugin[],
    parseOptions: { maxTokens: LIMITS.maxTokens },
  };
}

/**
 * At most one `__schema` per operation (fragments included, counted where they are spread): the
 * whole schema once is what any client needs, and thirty aliased copies in one small request were
 * megabytes of answer (QUERY_TOO_COMPLEX).
 */
export function oneSchemaPerOperation(ctx: ValidationContext): ASTVisitor {
  const count = (set: SelectionSetNode, seen: Set<string>): number => {
    let n = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__schema') n++;
        if (selection.selectionSet) n += count(selection.selectionSet, seen);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        n += count(selection.selectionSet, seen);
      } else if (!seen.has(selection.name.value)) {
        const fragment = ctx.getFragment(selection.name.value);
        if (fragment) n += count(fragment.selectionSet, new Set([...seen, selection.name.value]));
      }
    }
    return n;
  };
  return {
    OperationDefinition(operation) {
      const n = count(operation.selectionSet, new Set());
      if (n > 1) reject(ctx, new GraphQLError(translate(message('limits.schemaOnce', { n }))));
    },
  };
}

/** Whether every root field of the operation is introspection (`__schema`, `__type`, `__typename`), fragments included. */
function introspectionOnly(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen = new Set<string>()): boolean {
  return set.selections.every((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value.startsWith('__');
    if (selection.kind === Kind.INLINE_FRAGMENT) return introspectionOnly(selection.selectionSet, fragments, seen);
    const fragment = fragments.get(selection.name.value);
    return !!fragment && !seen.has(fragment.name.value) && introspectionOnly(fragment.selectionSet, fragments, new Set([...seen, fragment.name.value]));
  });
}

/**
 * Whether an operation is a query of introspection only, worked out once per parsed operation
 * (Apollo keeps the documents it has parsed, so a request asks of the same node as the one before).
 */
function introspectsOnly(operation: OperationDefinitionNode, document: DocumentNode): boolean {
  let known = INTROSPECTS_ONLY.get(operation);
  if (known === undefined) {
    const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
    known = operation.operation === 'query' && introspectionOnly(operation.selectionSet, fragments);
    INTROSPECTS_ONLY.set(operation, known);
  }
  return known;
}
const INTROSPECTS_ONLY = new WeakMap<OperationDefinitionNode, boolean>();

/** Introspection answers kept per schema, by document, operation name and variables. */
const INTROSPECTION_CACHE_MAX = 100;

/**
 * Introspection-only operations answered from a per-schema cache keyed by document, name and
 * variables once executed without error: the schema is fixed, and rebuilding half a megabyte per
 * client made introspection storms costly.
 */
export function introspectionCache(onHit: () => void = () => undefined): PerRequest {
  const answers = new WeakMap<GraphQLSchema, Map<string, FormattedExecutionResult>>();
  return () => {
    let key: string | null = null;
    return {
      responseForOperation({ schema, source, document, operation, operationName, request, response }) {
        // Apollo asks even when the operation named is not in the document (graphql-js then refuses it).
        if (!operation || !introspectsOnly(operation, document)) return null;
        key = JSON.stringify([source, operationName ?? null, request.variables ?? {}]);
        const hit = answers.get(schema)?.get(key);
        if (!hit) return null;
        onHit();
        return { http: response.http, body: { kind: 'single', singleResult: hit } };
      },
      willSendResponse({ schema, response }) {
        if (key === null || response.body.kind !== 'single' || response.body.singleResult.errors?.length) return;
        let bySchema = answers.get(schema);
        if (!bySchema) answers.set(schema, (bySchema = new Map()));
        if (bySchema.has(key)) return;
        if (bySchema.size >= INTROSPECTION_CACHE_MAX) bySchema.delete(bySchema.keys().next().value!);
        bySchema.set(key, response.body.singleResult);
      },
    };
  };
}

/**
 * Estimated field resolutions with the real page sizes (a connection multiplies its subtree),
 * seeing `first` in variables and the default page size, which the static cost rule does not.
 */
export function fanOut(operation: OperationDefinitionNode, root: GraphQLObjectType, fragments: Record<string, FragmentDefinitionNode>, variables: Record<string, unknown>): number {
  const walk = (set: SelectionSetNode, type: GraphQLObjectType, times: number, seen: Set<string>): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += walk(selection.selectionSet, type, times, seen);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments[selection.name.value];
        if (fragment && !seen.has(fragment.name.value)) total += walk(fragment.selectionSet, type, times, new Set([...seen, fragment.name.value]));
      } else {
        total += times;
        const field = type.getFields()[selection.name.value];
        const named = field ? getNamedType(field.type) : undefined;
        if (!selection.selectionSet || !named || !isObjectType(named)) continue;
        let size = 1;
        if (named.name.endsWith('Connection')) {
          const first = selection.arguments?.find((a) => a.name.value === 'first');
          const value = first ? valueFromAST(first.value, GraphQLInt, variables) : undefined;
          size = typeof value === 'number' && value > 0 ? Math.min(value, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
        }
        total += walk(selection.selectionSet, named, times * size, seen);
      }
      if (total > Number.MAX_SAFE_INTEGER / 2) return total;
    }
    return total;
  };
  return walk(operation.selectionSet, root, 1, new Set());
}

const fanOutOfDocument = new WeakMap<OperationDefinitionNode, number>();

/** Refuse, before execution, an operation whose fan-out exceeds LIMITS.maxFanOut. */
const fanOutCheck: RequestHooks = {
  didResolveOperation({ operation, schema, document, request }) {
    if (!operation) return;
    const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
    if (!root || operation.operation === 'subscription') return;
    // Without variables the count is the document's own: Apollo keeps the parsed document, so it is walked once.
    const constant = !operation.variableDefinitions?.length;
    let n = constant ? fanOutOfDocument.get(operation) : undefined;
    if (n === undefined) {
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
      n = fanOut(operation, root, fragments, request.variables ?? {});
      if (constant) fanOutOfDocument.set(operation, n);
    }
    if (n > LIMITS.maxFanOut) {
      throw new LocalizedGraphQLError(message('limits.fanOut', { n, max: LIMITS.maxFanOut }), {
        extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } },
      });
    }
  },
};
export const fanOutLimit: PerRequest = () => fanOutCheck;

const TOKEN_LIMIT = /Document contains more tha[nt] \d+ tokens/;

/** Give refused queries their public code: armor's rules and the parser's token limit. */
export function markQueryTooComplex(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : undefined;
  const tooComplex = original instanceof QueryTooComplexError || TOKEN_LIMIT.test(formatted.message);
  if (!tooComplex) return formatted;
  const text = TOKEN_LIMIT.test(formatted.message) ? translate(message('graphql.tokenLimit', { max: LIMITS.maxTokens })) : formatted.message.replace(/^Syntax Error: /, '');
  return { message: text, locations: formatted.locations, extensions: { code: 'QUERY_TOO_COMPLEX' } };
}

/** The answer (JSON body) to a body over LIMITS.bodyLimit: HTTP 413. */
export function bodyTooLargeAnswer() {
  return { errors: [{ message: translate(message('http.bodyTooLarge', { limit: LIMITS.bodyLimit }), currentLocale()), extensions: { code: 'PAYLOAD_TOO_LARGE', limit: LIMITS.bodyLimit } }] };
}

/** The answer (JSON body) to a body that is not JSON: HTTP 400. */
export function bodyNotJsonAnswer() {
  return { errors: [{ message: translate(message('http.bodyNotJson'), currentLocale()), extensions: { code: 'BAD_REQUEST' } }] };
}

/** The answer (JSON body) to a request not answered within `ms`: HTTP 503. */
export function timeoutAnswer(ms: number) {
  return { errors: [{ message: translate(message('http.timeout', { ms }), currentLocale()), extensions: { code: 'REQUEST_TIMEOUT' } }] };
}

/** A body over the limit or not JSON: a clear JSON error instead of express's HTML page. */
export const bodyErrors: ErrorRequestHandler = (err, _req, res, next) => {
  const e = err as { type?: string; status?: number; limit?: number };
  if (e?.type === 'entity.too.large') {
    res.status(413).json(bodyTooLargeAnswer());
    return;
  }
  if (e?.type === 'entity.parse.failed') {
    res.status(400).json(bodyNotJsonAnswer());
    return;
  }
  next(err);
};

/** Answer 503 with a JSON error if the request has not been answered in time. */
export function requestTimeout(ms: number = LIMITS.requestTimeoutMs): RequestHandler {
  return (_req, res, next) => {
    const timer = setTimeout(() => {
      if (!res.headersSent) res.status(503).json(timeoutAnswer(ms));
    }, ms);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    res.on('finish', () => clearTimeout(timer));
    next();
  };
}
