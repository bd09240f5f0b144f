import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { NoRuleInForceError } from '../law/errors';
import { AppError } from '../services/errors';

/** Codes a client may see (DESIGN §5); anything else is masked. */
const PUBLIC_CODES = new Set([
  'BAD_USER_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'NO_RULE_IN_FORCE', 'QUERY_TOO_COMPLEX',
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST', 'PERSISTED_QUERY_NOT_FOUND', 'OPERATION_RESOLUTION_FAILURE',
]);

export interface ErrorLog {
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * One place that maps errors to GraphQL errors with `extensions.code`. Errors of the use cases
 * and of the law keep their code and message; unexpected ones become INTERNAL_SERVER_ERROR with
 * the request id, and their details go only to the log.
 */
export function createErrorFormatter(log: ErrorLog, requestIdOf: () => string | undefined) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof AppError) {
      return { ...formatted, message: original.message, extensions: { code: original.code, ...original.extensions() } };
    }
    if (original instanceof NoRuleInForceError) {
      return { ...formatted, message: original.message, extensions: { code: original.code, legalBasis: original.legalBasis } };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && PUBLIC_CODES.has(code)) {
      const { stacktrace: _drop, ...extensions } = formatted.extensions ?? {};
      void _drop;
      return { ...formatted, extensions };
    }
    const requestId = requestIdOf();
    log.error({ err: original instanceof Error ? { message: original.message, stack: original.stack } : original, requestId, path: formatted.path }, 'unexpected error');
    return {
      message: `Internal error (request ${requestId ?? 'unknown'})`,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
    };
  };
}

export function isGraphQLError(e: unknown): e is GraphQLError {
  return e instanceof GraphQLError;
}
