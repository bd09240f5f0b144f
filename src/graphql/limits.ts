import { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  FragmentDefinitionNode, getNamedType, GraphQLError, GraphQLFormattedError, GraphQLObjectType, isObjectType, Kind,
  OperationDefinitionNode, SelectionSetNode, ValidationContext, valueFromAST, GraphQLInt,
} from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../services/pagination';
import { message, translate } from '../i18n';
import { currentLocale } from '../request-context';
import { LocalizedGraphQLError } from './localized-error';

/**
 * Limits on what one request may ask (DESIGN §5: QUERY_TOO_COMPLEX). The figures are chosen so
 * that the heaviest legitimate pages (20 producers × 50 purchases with farmer and municipality
 * names, a month's segments and mix) pass with room to spare, and abuse is refused before
 * anything is executed.
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

/** A query refused by a limit: the public code QUERY_TOO_COMPLEX (DESIGN §5). */
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
 * graphql-armor's validation rules for depth, aliases, directives and cost (field suggestions,
 * "Did you mean …", are removed from every message by the error formatter, so the schema cannot
 * be mapped by guessing). The token limit is graphql-js's own parser limit (`parseOptions`), which refuses the
 * document before it is parsed in full.
 */
export function armor() {
  const protection = new ApolloArmor({
    maxDepth: { n: LIMITS.maxDepth, flattenFragments: true, ignoreIntrospection: true, ...callbacks },
    maxAliases: { n: LIMITS.maxAliases, ...callbacks },
    maxDirectives: { n: LIMITS.maxDirectives, ...callbacks },
    costLimit: { maxCost: LIMITS.maxCost, objectCost: 1, scalarCost: 1, depthCostFactor: 1, ignoreIntrospection: true, ...callbacks },
    maxTokens: { enabled: false },
    // Suggestions are removed by the error formatter (errors.ts, withoutSuggestions), whole: armor's
    // mask left a stray " ?" after the message and kept the enum values' suggestions.
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return {
    validationRules: protection.validationRules,
    plugins: [...(protection.plugins as ApolloServerPlugin[]), fanOutLimit],
    parseOptions: { maxTokens: LIMITS.maxTokens },
  };
}

/** graphql-js's message for its token limit ("more that" is its spelling). */
/**
 * Estimated field resolutions of an operation, with the real page sizes: each field counts once
 * per parent object, and a `…Connection` field multiplies its subtree by its page size. Unlike the
 * static cost rule, this sees `first` passed in variables and the default page size.
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

/** Refuse, before execution, an operation whose fan-out exceeds LIMITS.maxFanOut. */
export const fanOutLimit: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, schema, document, request }) {
        if (!operation) return;
        const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
        if (!root || operation.operation === 'subscription') return;
        const fragments: Record<string, FragmentDefinitionNode> = {};
        for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
        const n = fanOut(operation, root, fragments, request.variables ?? {});
        if (n > LIMITS.maxFanOut) {
          throw new LocalizedGraphQLError(message('limits.fanOut', { n, max: LIMITS.maxFanOut }), {
            extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } },
          });
        }
      },
    };
  },
};

const TOKEN_LIMIT = /Document contains more tha[nt] \d+ tokens/;

/** Give refused queries their public code: armor's rules and the parser's token limit. */
export function markQueryTooComplex(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : undefined;
  const tooComplex = original instanceof QueryTooComplexError || TOKEN_LIMIT.test(formatted.message);
  if (!tooComplex) return formatted;
  const text = TOKEN_LIMIT.test(formatted.message) ? translate(message('graphql.tokenLimit', { max: LIMITS.maxTokens })) : formatted.message.replace(/^Syntax Error: /, '');
  return { message: text, locations: formatted.locations, extensions: { code: 'QUERY_TOO_COMPLEX' } };
}

/** A body over the limit or not JSON: a clear JSON error instead of express's HTML page. */
export const bodyErrors: ErrorRequestHandler = (err, _req, res, next) => {
  const e = err as { type?: string; status?: number; limit?: number };
  if (e?.type === 'entity.too.large') {
    res.status(413).json({ errors: [{ message: translate(message('http.bodyTooLarge', { limit: LIMITS.bodyLimit }), currentLocale()), extensions: { code: 'PAYLOAD_TOO_LARGE', limit: LIMITS.bodyLimit } }] });
    return;
  }
  if (e?.type === 'entity.parse.failed') {
    res.status(400).json({ errors: [{ message: translate(message('http.bodyNotJson'), currentLocale()), extensions: { code: 'BAD_REQUEST' } }] });
    return;
  }
  next(err);
};

/** Answer 503 with a JSON error if the request has not been answered in time. */
export function requestTimeout(ms: number = LIMITS.requestTimeoutMs): RequestHandler {
  return (_req, res, next) => {
    const timer = setTimeout(() => {
      if (!res.headersSent) {
        res.status(503).json({ errors: [{ message: translate(message('http.timeout', { ms }), currentLocale()), extensions: { code: 'REQUEST_TIMEOUT' } }] });
      }
    }, ms);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    res.on('finish', () => clearTimeout(timer));
    next();
  };
}
