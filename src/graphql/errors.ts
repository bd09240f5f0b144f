import { unwrapResolverError } from '@apollo/server/errors';
import { DocumentNode, FragmentDefinitionNode, GraphQLError, GraphQLFormattedError, Kind, OperationDefinitionNode, SelectionSetNode, ValueNode, visit } from 'graphql';
import { NoRuleInForceError } from '../law/errors';
import { RequestEndedError } from '../request-context';
import { AppError } from '../services/errors';
import { refusedText, textProblem } from '../services/validation';
import { DEFAULT_LOCALE, isLocalized, Locale, message, recognise, translate } from '../i18n';
import { LocalizedGraphQLError } from './localized-error';
import type { PerRequest, RequestHooks } from './request-hooks';

/** docs/API.md "Errors"; anything else is masked. */
const PUBLIC_CODES = new Set([
  'BAD_USER_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'NO_RULE_IN_FORCE', 'QUERY_TOO_COMPLEX',
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST', 'PERSISTED_QUERY_NOT_FOUND', 'OPERATION_RESOLUTION_FAILURE', 'OPERATION_NOT_TRUSTED',
]);

const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Connection ended|the database system is (starting up|shutting down)/i;

// TypeORM releases a transaction's connection when the driver reports it broken; since `mutate`
// ends transactions only after their work settles, these always mean a lost connection.
const RELEASED_BY_DRIVER = new Set(['QueryRunnerProviderAlreadyReleasedError', 'QueryRunnerAlreadyReleasedError']);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; name?: unknown; driverError?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATES.has(e.code) || UNAVAILABLE_ERRNOS.has(e.code))) return true;
    if (typeof e.name === 'string' && RELEASED_BY_DRIVER.has(e.name)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}

// Rolled back, and may pass if sent again shortly.
const BUSY_SQLSTATES = new Set(['57014', '55P03', '40P01', '40001']);

export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error as { code?: unknown; driverError?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && BUSY_SQLSTATES.has(e.code)) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}

export const RETRYABLE_CODES = new Set(['DATABASE_UNAVAILABLE', 'DATABASE_BUSY']);

export interface ErrorLog {
  error(details: Record<string, unknown>, message: string): void;
}

// Unexpected errors keep their details in the log only.

/** The schema is not mapped by guessing. */
export function withoutSuggestions(text: string): string {
  return text.replace(/\s*Did you mean [\s\S]*\?$/, '');
}

function clientStatus(error: GraphQLError): boolean {
  const status = (error.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * `ended`: whether the request has already been answered (its timeout's 503) or its caller has gone;
 * what is formatted then is never sent.
 */
export function createErrorFormatter(log: ErrorLog, requestIdOf: () => string | undefined, localeOfRequest: () => Locale = () => DEFAULT_LOCALE, ended: () => boolean = () => false) {
  return (given: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const formatted = { ...given, message: withoutSuggestions(given.message) };
    const locale = localeOfRequest();
    const original = unwrapResolverError(error);
    // Work stopped because its request was answered (the timeout) or its caller went, and a
    // statement cancelled at that moment (its bound is the request's time): the stop docs/API.md
    // describes (REQUEST_TIMEOUT), no failure to log. Each was logged as an unexpected error.
    if (original instanceof RequestEndedError || (ended() && isDatabaseBusy(original))) {
      return { message: translate(message('http.ended', { requestId: requestIdOf() ?? 'unknown' }), locale), locations: formatted.locations, path: formatted.path, extensions: { code: 'REQUEST_TIMEOUT' } };
    }
    if (original instanceof AppError) {
      return { ...formatted, message: translate(original.text, locale), extensions: { code: original.code, ...original.extensions(locale) } };
    }
    if (original instanceof NoRuleInForceError) {
      return { ...formatted, message: translate(original.text, locale), extensions: { code: original.code, legalBasis: original.legalBasis } };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && PUBLIC_CODES.has(code)) {
      const { stacktrace: _drop, ...extensions } = formatted.extensions ?? {};
      void _drop;
      return { ...formatted, message: localizedMessage(formatted.message, error, locale), extensions };
    }
    // Apollo's known caller mistakes (a wrong persisted query hash, a 4xx) are the caller's.
    const uncoded = original instanceof GraphQLError && original.extensions.code === undefined;
    const known = uncoded ? recognise(formatted.message) : null;
    if (uncoded && (known !== null || clientStatus(original))) {
      // graphql-js stops coercing variables after 50 errors with one more, which names no variable.
      const code = known?.key === 'graphql.variableErrorLimit' ? 'BAD_USER_INPUT' : 'BAD_REQUEST';
      return { message: localizedMessage(formatted.message, error, locale), locations: formatted.locations, path: formatted.path, extensions: { code } };
    }
    const requestId = requestIdOf();
    const retryable = isDatabaseUnavailable(original) ? 'unavailable' : isDatabaseBusy(original) ? 'busy' : null;
    if (retryable) {
      // Neither the caller's fault nor a bug: clients retry.
      log.error({ err: original instanceof Error ? original.message : original, requestId }, `database ${retryable}`);
      return {
        message: translate(message(retryable === 'busy' ? 'http.databaseBusy' : 'http.databaseUnavailable', { requestId: requestId ?? 'unknown' }), locale),
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: retryable === 'busy' ? 'DATABASE_BUSY' : 'DATABASE_UNAVAILABLE', requestId },
      };
    }
    log.error({ err: original instanceof Error ? { message: original.message, stack: original.stack } : original, requestId, path: formatted.path }, 'unexpected error');
    return {
      message: translate(message('http.internal', { requestId: requestId ?? 'unknown' }), locale),
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
    };
  };
}

/** So that clients, proxies and load balancers see a temporary failure of the server and retry. */
const retryableStatus: RequestHooks = {
  willSendResponse({ response }) {
    const body = response.body;
    const errors = body.kind === 'single' ? body.singleResult.errors : body.initialResult.errors;
    if (!errors?.some((e) => RETRYABLE_CODES.has(String(e.extensions?.code)))) return;
    response.http.status = 503;
    response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
  },
};
export const databaseUnavailableStatus: PerRequest = () => retryableStatus;

/** In root-field order: graphql-js records errors as resolvers end, in either order. */
const fieldOrder: RequestHooks = {
  willSendResponse({ response, operation, document }) {
    const body = response.body;
    if (body.kind !== 'single' || !operation || !document || (body.singleResult.errors?.length ?? 0) < 2) return;
    const rank = new Map(rootKeys(operation, document).map((k, i) => [k, i]));
    const at = (e: GraphQLFormattedError) => (e.path === undefined ? -1 : rank.get(String(e.path[0])) ?? rank.size);
    body.singleResult.errors = body.singleResult.errors!.map((e, i) => ({ e, i, r: at(e) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.e);
  },
};
export const errorsInFieldOrder: PerRequest = () => fieldOrder;

function rootKeys(operation: OperationDefinitionNode, document: DocumentNode): string[] {
  const keys = new Set<string>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => set.selections.forEach((s) => {
    if (s.kind === Kind.FIELD) keys.add(s.alias?.value ?? s.name.value);
    else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet);
    else if (!seen.has(s.name.value)) {
      seen.add(s.name.value);
      const fragment = document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value);
      if (fragment) walk(fragment.selectionSet);
    }
  });
  walk(operation.selectionSet);
  return [...keys];
}

function badTextIn(value: unknown, at: string, depth = 0): { field: string; text: string } | null {
  if (typeof value === 'string') return textProblem(value, at) ? { field: at, text: value } : null;
  if (depth > 20 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = badTextIn(value[i], `${at}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const found = badTextIn(v, `${at}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Control characters forge EFD lines and PostgreSQL refuses NUL: fail as the caller's error, early. */
const inputTextCheck: RequestHooks = {
  didResolveOperation({ request, document }) {
    const { pathOf, literal } = textsOf(document);
    let found = literal;
    for (const [name, value] of Object.entries(request.variables ?? {})) {
      if (found) break;
      found = badTextIn(value, pathOf.get(name) ?? name);
    }
    if (found) {
      const { field, text } = found;
      throw new LocalizedGraphQLError(refusedText(text, field)!, { extensions: { code: 'BAD_USER_INPUT', field, http: { status: 400 } } });
    }
  },
};
export const checkInputText: PerRequest = () => inputTextCheck;

interface DocumentTexts {
  pathOf: ReadonlyMap<string, string>;
  literal: { field: string; text: string } | null;
}

/** Once per parsed document: Apollo keeps them. */
const TEXTS_OF_DOCUMENT = new WeakMap<DocumentNode, DocumentTexts>();

function textsOf(document: DocumentNode): DocumentTexts {
  const known = TEXTS_OF_DOCUMENT.get(document);
  if (known) return known;
  // Fields are named as the services name them: by the argument (and input field) a variable is passed to.
  const pathOf = new Map<string, string>();
  let literal: { field: string; text: string } | null = null;
  const walk = (node: ValueNode, at: string): void => {
    if (literal) return;
    if (node.kind === Kind.VARIABLE) pathOf.set(node.name.value, at);
    else if (node.kind === Kind.STRING) { if (textProblem(node.value, at)) literal = { field: at, text: node.value }; }
    else if (node.kind === Kind.LIST) node.values.forEach((v, i) => walk(v, `${at}[${i}]`));
    else if (node.kind === Kind.OBJECT) for (const f of node.fields) walk(f.value, `${at}.${f.name.value}`);
  };
  visit(document, { Argument(node) { walk(node.value, node.name.value); } });
  const texts = { pathOf, literal };
  TEXTS_OF_DOCUMENT.set(document, texts);
  return texts;
}

/** Translates our scalar's text inside graphql-js's wrapping. */
export function localizedMessage(text: string, error: unknown, locale: Locale): string {
  if (locale === DEFAULT_LOCALE) return text;
  for (let e = error as { originalError?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (isLocalized(e) && e instanceof Error && text.includes(e.message)) {
      if (text === e.message) return translate(e.text, locale);
      text = text.replace(e.message, translate(e.text, locale));
      break;
    }
    e = e.originalError as typeof e;
  }
  const known = recognise(text);
  return known ? translate(known, locale) : text;
}

export const RETRY_AFTER_SECONDS = 2;

export function isGraphQLError(e: unknown): e is GraphQLError {
  return e instanceof GraphQLError;
}
