import { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  ASTVisitor, DocumentNode, FormattedExecutionResult, FragmentDefinitionNode, getNamedType, GraphQLError, GraphQLFormattedError, GraphQLObjectType, GraphQLSchema,
  isObjectType, Kind, OperationDefinitionNode, SelectionSetNode, ValidationContext, valueFromAST, GraphQLInt,
} from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_LIST_PAGE, MAX_PAGE_SIZE } from '../services/pagination';
import { message, translate } from '../i18n';
import { currentLocale, requestContext } from '../request-context';
import { LocalizedGraphQLError } from './localized-error';
import type { PerRequest, RequestHooks } from './request-hooks';

/** The heaviest legitimate pages pass with room; abuse is refused before execution. */
export const LIMITS = {
  /** Fragments add no level, so colocated fragments cost what the fields written out cost. */
  maxDepth: 12,
  maxAliases: 30,
  maxDirectives: 20,
  maxTokens: 10_000,
  /** 20 producers × 50 purchases costs about 10,000. */
  maxCost: 50_000,
  /** As maxCost, with `first` from variables too. */
  maxFanOut: 100_000,
  /**
   * Items of the long lists of computed answers (a year's excluded items, a month's purchase
   * credits) in one response: about 3 KB of memory each while the answer is written.
   */
  maxListed: 100_000,
  /** A page of such a list (`first`). */
  maxListPage: MAX_LIST_PAGE,
  bodyLimit: '1mb',
  /**
   * Levels of arrays and objects in one variable's value. The schema's deepest input is a few
   * levels (a list of inputs holding a list); a value thousands deep is no input any field takes,
   * and walking it (JSON.stringify, coercion) overflows the stack.
   */
  maxVariableDepth: 64,
  /** Statement time is bounded separately. */
  requestTimeoutMs: 30_000,
} as const;

export class QueryTooComplexError extends GraphQLError {
  constructor(message: string) {
    super(message.replace(/^Syntax Error: /, ''), { extensions: { code: 'QUERY_TOO_COMPLEX' } });
  }
}

function reject(ctx: ValidationContext | null, error: GraphQLError): void {
  ctx?.reportError(new QueryTooComplexError(error.message));
}

const callbacks = { propagateOnRejection: false, onReject: [reject] };

/** The token limit is the parser's, which stops before parsing in full. */
export function armor() {
  const protection = new ApolloArmor({
    maxDepth: { n: LIMITS.maxDepth, flattenFragments: true, ignoreIntrospection: true, ...callbacks },
    maxAliases: { n: LIMITS.maxAliases, ...callbacks },
    maxDirectives: { n: LIMITS.maxDirectives, ...callbacks },
    // GraphiQL's own introspection nests deeper than a data query may.
    costLimit: { maxCost: LIMITS.maxCost, objectCost: 1, scalarCost: 1, depthCostFactor: 1, ignoreIntrospection: false, ...callbacks },
    maxTokens: { enabled: false },
    // errors.ts removes suggestions whole; armor's mask left a stray " ?".
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return {
    validationRules: [...protection.validationRules, oneSchemaPerOperation],
    plugins: protection.plugins as ApolloServerPlugin[],
    parseOptions: { maxTokens: LIMITS.maxTokens },
  };
}

/** One `__schema` per operation: thirty aliased copies were megabytes of answer. */
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

function introspectionOnly(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen = new Set<string>()): boolean {
  return set.selections.every((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value.startsWith('__');
    if (selection.kind === Kind.INLINE_FRAGMENT) return introspectionOnly(selection.selectionSet, fragments, seen);
    const fragment = fragments.get(selection.name.value);
    return !!fragment && !seen.has(fragment.name.value) && introspectionOnly(fragment.selectionSet, fragments, new Set([...seen, fragment.name.value]));
  });
}

/** Once per parsed operation: Apollo keeps the documents it has parsed. */
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

const INTROSPECTION_CACHE_MAX = 100;

/** The schema is fixed; rebuilding half a megabyte per client made introspection storms costly. */
export function introspectionCache(onHit: () => void = () => undefined): PerRequest {
  const answers = new WeakMap<GraphQLSchema, Map<string, FormattedExecutionResult>>();
  return () => {
    let key: string | null = null;
    return {
      responseForOperation({ schema, source, document, operation, operationName, request, response }) {
        // Apollo asks even when the operation named is not in the document (graphql-js then refuses it).
        if (!operation || !introspectsOnly(operation, document)) return null;
        // The variables are bounded in depth before this (variablesDepth), but a key that cannot be
        // written only means the answer is not kept.
        try {
          key = JSON.stringify([source, operationName ?? null, request.variables ?? {}]);
        } catch {
          key = null;
          return null;
        }
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

/** Sees `first` in variables and the default page size, which the static cost rule does not. */
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
          // `first: 0` still resolves the connection's own fields once.
          size = typeof value === 'number' && value >= 0 ? Math.min(Math.max(value, 1), MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
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

export function markQueryTooComplex(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : undefined;
  const tooComplex = original instanceof QueryTooComplexError || TOKEN_LIMIT.test(formatted.message);
  if (!tooComplex) return formatted;
  const text = TOKEN_LIMIT.test(formatted.message) ? translate(message('graphql.tokenLimit', { max: LIMITS.maxTokens })) : formatted.message.replace(/^Syntax Error: /, '');
  return { message: text, locations: formatted.locations, extensions: { code: 'QUERY_TOO_COMPLEX' } };
}

export function bodyTooLargeAnswer() {
  return { errors: [{ message: translate(message('http.bodyTooLarge', { limit: LIMITS.bodyLimit }), currentLocale()), extensions: { code: 'PAYLOAD_TOO_LARGE', limit: LIMITS.bodyLimit } }] };
}

export function bodyNotJsonAnswer() {
  return { errors: [{ message: translate(message('http.bodyNotJson'), currentLocale()), extensions: { code: 'BAD_REQUEST' } }] };
}

export function timeoutAnswer(ms: number) {
  return { errors: [{ message: translate(message('http.timeout', { ms }), currentLocale()), extensions: { code: 'REQUEST_TIMEOUT' } }] };
}

/** JSON instead of express's HTML page. */
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

/** Levels of arrays and objects in a parsed JSON value, without recursion; counting stops past `max`. */
function jsonDepth(value: unknown, max: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > max) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

/** As jsonDepth, of JSON text (a GET's `variables`), read once without parsing it. */
function jsonTextDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest && (deepest = depth) > max) return deepest;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

function variablesTooDeepAnswer() {
  return { errors: [{ message: translate(message('http.variablesTooDeep', { max: LIMITS.maxVariableDepth }), currentLocale()), extensions: { code: 'BAD_REQUEST', limit: LIMITS.maxVariableDepth } }] };
}

/**
 * Variables nested deeper than any input of the schema are refused before anything reads them:
 * at some thousands of levels every recursive walk of them (a cache key, coercion) overflows the
 * stack, which was an internal error.
 */
export const variablesDepth: RequestHandler = (req, res, next) => {
  const max = LIMITS.maxVariableDepth;
  const fromBody = (req.body as { variables?: unknown } | undefined)?.variables;
  const fromQuery = req.method === 'GET' ? req.query.variables : undefined;
  const depth = typeof fromQuery === 'string' ? jsonTextDepth(fromQuery, max + 1) : jsonDepth(fromBody, max + 1);
  // The variables object itself is a level.
  if (depth - 1 > max) {
    res.status(400).json(variablesTooDeepAnswer());
    return;
  }
  next();
};

export function requestTimeout(ms: number = LIMITS.requestTimeoutMs): RequestHandler {
  return (req, res, next) => {
    const context = requestContext.getStore();
    if (context) context.deadline = Date.now() + ms;
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      // A body still arriving (a slow chunked one) would be read on as this request, or as the
      // next one on the connection, and Node answers it again (408) at its own request timeout:
      // the connection closes once this answer is sent, so a request gets one response.
      if (!req.complete) res.setHeader('connection', 'close');
      res.status(503).json(timeoutAnswer(ms));
    }, ms);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    res.on('finish', () => clearTimeout(timer));
    next();
  };
}
