import { HeaderMap, type GraphQLResponse, type HTTPGraphQLHead, type HTTPGraphQLResponse } from '@apollo/server';
import {
  DocumentNode, ExecutionResult, FormattedExecutionResult, getOperationAST, GraphQLError, GraphQLFormattedError, GraphQLSchema, parse, ParseOptions,
  specifiedRules, validate, ValidationRule,
} from 'graphql';
import Negotiator from 'negotiator';
import type { Context } from './context';
import type { OperationExecutor } from './compiled/executor';
import { AnsweredContext, firstAnswer, HookContext, PerRequest } from './request-hooks';

/** Apollo Server's media types of a single answer (its MEDIA_TYPES), in its order of preference. */
const APPLICATION_JSON = 'application/json; charset=utf-8';
const SINGLE_RESULT_TYPES = [APPLICATION_JSON, 'application/graphql-response+json; charset=utf-8', 'application/json; callbackSpec=1.0; charset=utf-8'];

/**
 * Documents kept parsed and validated, by their text: at most this many, and this many characters
 * of text in all (a parsed document takes some 10–20 times its text: about what Apollo Server's
 * own store of 30 MiB of parsed documents holds). A longer text is parsed each time it comes.
 */
const DOCUMENTS_MAX = 1_000;
const DOCUMENT_CHARS_MAX = 1_500_000;
const DOCUMENT_CHARS_KEPT = 100_000;

export interface PipelineOptions {
  schema: GraphQLSchema;
  execute: OperationExecutor;
  /** Apollo Server's `validationRules` and `parseOptions`: a document passes here exactly when it passes there. */
  validationRules: readonly ValidationRule[];
  parseOptions: ParseOptions;
  /** The API's request hooks, the same list (and so the same instances) Apollo Server's plugin runs. */
  hooks: ReadonlyArray<PerRequest<Context>>;
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
  stringifyResult(result: FormattedExecutionResult): string;
}

/**
 * The request as POST /graphql gives it: its JSON body, its Accept header, and its context made
 * when the request is taken.
 */
export interface PipelineRequest {
  body: unknown;
  accept: string | undefined;
  context(): Promise<Context>;
}

/**
 * The API's own pipeline for the requests of every day, in front of Apollo Server's: a POST whose
 * JSON body is an object with a `query` (and optionally `operationName`, `variables`, and
 * `extensions` without a persisted query), whose document parses and validates under the same
 * rules and limits, names an operation that is in it, whose context is made, which every request
 * hook lets through and whose variables are accepted, is answered here — the hooks at the same
 * stages, the errors formatted by the same formatter, the same status, headers and bytes as Apollo
 * Server's (test/e2e/graphql-post.test.ts compares the two on every kind of request).
 *
 * Every other request — a refusal before execution (a body Apollo refuses, a syntax or validation
 * error, an operation not found, a token refused, a check's refusal, variables not accepted), a
 * persisted query, an Accept header it cannot answer — gets null, before anything has been
 * executed, and Apollo Server answers it as it always has. What Apollo does for every request and
 * these need not (hash the query to find its parsed document, parse the Content-Type to guard
 * against CSRF — a JSON body is never a "simple" request —, a promise per plugin stage, its
 * HTTP request and response objects) was most of the server's fixed cost per request.
 */
export function graphqlPipeline(options: PipelineOptions): (request: PipelineRequest) => Promise<HTTPGraphQLResponse | null> {
  const { schema, execute, hooks: parts, formatError, stringifyResult } = options;
  const rules = [...specifiedRules, ...options.validationRules];
  const documents = new DocumentCache();
  const contentTypes = new Map<string, string | null>();

  /** The document of a query text, parsed and validated once; null when it fails either (Apollo then answers the errors). */
  const documentOf = (query: string): DocumentNode | null => {
    const known = documents.get(query);
    if (known !== undefined) return known;
    let document: DocumentNode | null;
    try {
      document = parse(query, options.parseOptions);
      if (validate(schema, document, rules).length > 0) document = null;
    } catch {
      document = null;
    }
    documents.set(query, document);
    return document;
  };

  /** Apollo's choice of content type for the Accept header (chooseContentTypeForSingleResultResponse), known once per header. */
  const contentTypeFor = (accept: string | undefined): string | null => {
    if (!accept) return APPLICATION_JSON;
    let type = contentTypes.get(accept);
    if (type === undefined) {
      type = new Negotiator({ headers: { accept } }).mediaType(SINGLE_RESULT_TYPES) ?? null;
      if (contentTypes.size < 100) contentTypes.set(accept, type);
    }
    return type;
  };

  return async ({ body, accept, context }) => {
    const request = ordinaryRequest(body);
    if (!request) return null;
    const contentType = contentTypeFor(accept);
    if (contentType === null) return null;
    let contextValue: Context;
    try {
      contextValue = await context();
    } catch {
      return null;
    }
    const document = documentOf(request.query);
    if (!document) return null;
    const operation = getOperationAST(document, request.operationName);
    if (!operation) return null;

    const hooks = parts.map((start) => start());
    const response: { http: HTTPGraphQLHead; body?: GraphQLResponse['body'] } = { http: { status: undefined, headers: new HeaderMap() } };
    const rc: HookContext<Context> = {
      schema, request, contextValue, source: request.query, document, operation, operationName: operation.name?.value ?? null, response,
    };
    try {
      for (const h of hooks) h.didResolveOperation?.(rc);
    } catch {
      return null;
    }

    const answer = firstAnswer(hooks, rc);
    if (answer) {
      response.body = answer.body;
      mergeHead(response.http, answer.http);
    } else {
      let result: ExecutionResult;
      let thrown = false;
      try {
        result = await execute({ document, operation, operationName: request.operationName, variables: request.variables, context: contextValue, http: true });
      } catch (error) {
        // What Apollo answers when execution itself throws: the error, HTTP 500 unless it says otherwise.
        result = { errors: [ensureGraphQLError(error)] };
        thrown = true;
      }
      // No data at all: the variables were refused before anything ran; Apollo answers that (HTTP 400, BAD_USER_INPUT).
      if (!thrown && result.data === undefined) return null;
      let errors: GraphQLFormattedError[] | undefined;
      if (result.errors?.length) {
        const formatted = formatErrors(result.errors, formatError);
        mergeHead(response.http, formatted.head);
        errors = formatted.formatted;
      }
      response.body = { kind: 'single', singleResult: { ...result, errors } };
      if (thrown) response.http.status ??= 500;
    }
    return send(hooks, rc, contentType, stringifyResult);
  };
}

/** The answer once the hooks have seen it: Apollo's headers, its content type unless a hook set one, its field order. */
function send(hooks: ReadonlyArray<ReturnType<PerRequest<Context>>>, rc: HookContext<Context>, contentType: string, stringify: PipelineOptions['stringifyResult']): HTTPGraphQLResponse {
  // Its body is set by now.
  const answered = rc as AnsweredContext<Context>;
  for (const h of hooks) h.willSendResponse?.(answered);
  const response = answered.response;
  const body = response.body;
  if (body.kind !== 'single') throw new Error('an incremental answer is not served by this pipeline');
  if (!response.http.headers.get('content-type')) response.http.headers.set('content-type', contentType);
  const { errors, data, extensions } = body.singleResult;
  return { status: response.http.status, headers: response.http.headers, body: { kind: 'complete', string: stringify({ errors, data, extensions }) } };
}

/** The body of an ordinary request (see graphqlPipeline), as Apollo's GraphQLRequest; null for any other. */
function ordinaryRequest(body: unknown): { query: string; operationName?: string; variables?: Record<string, unknown>; extensions?: Record<string, unknown> } | null {
  if (!isRecord(body)) return null;
  const { query, operationName, variables, extensions } = body;
  if (typeof query !== 'string' || query.length === 0) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return null;
  if (extensions !== undefined && extensions !== null && (!isRecord(extensions) || 'persistedQuery' in extensions)) return null;
  return {
    query,
    ...(typeof operationName === 'string' ? { operationName } : {}),
    ...(variables ? { variables } : {}),
    ...(extensions ? { extensions } : {}),
  };
}

/** Apollo's test of a JSON object (isStringRecord): not null, not an array. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Apollo's merge of an HTTP head into the response's: a status given replaces it, headers are set. */
function mergeHead(target: HTTPGraphQLHead, source: Partial<HTTPGraphQLHead>): void {
  if (source.status) target.status = source.status;
  if (source.headers) for (const [name, value] of source.headers) target.headers.set(name, value);
}

function ensureGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof Error) return new GraphQLError(error.message, { originalError: error });
  return new GraphQLError(`Unexpected error value: ${String(error)}`);
}

/**
 * The errors as Apollo Server formats them (its normalizeAndFormatErrors, without stack traces):
 * each error's JSON with `extensions.code` (INTERNAL_SERVER_ERROR when it has none) and without
 * `extensions.http`, whose status and headers go to the answer's, then the server's formatError; a
 * formatter that throws gives "Internal server error".
 */
function formatErrors(errors: ReadonlyArray<GraphQLError>, formatError: PipelineOptions['formatError']): { formatted: GraphQLFormattedError[]; head: HTTPGraphQLHead } {
  const head: HTTPGraphQLHead = { status: undefined, headers: new HeaderMap() };
  const formatted = errors.map((error) => {
    try {
      const extensions: Record<string, unknown> = { ...error.extensions, code: error.extensions.code ?? 'INTERNAL_SERVER_ERROR' };
      const http = extensions.http as Partial<HTTPGraphQLHead> | undefined;
      if (isHttpHead(http)) {
        mergeHead(head, { headers: new HeaderMap(), ...http });
        delete extensions.http;
      }
      return formatError({ ...error.toJSON(), extensions }, error);
    } catch {
      return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
  });
  return { formatted, head };
}

/** Apollo's isPartialHTTPGraphQLHead. */
function isHttpHead(x: unknown): x is Partial<HTTPGraphQLHead> {
  return !!x && typeof x === 'object' && (!('status' in x) || typeof x.status === 'number') && (!('headers' in x) || x.headers instanceof Map);
}

/** Parsed and validated documents by their text (null: one that failed), the oldest dropped first past the bounds. */
export class DocumentCache {
  private readonly byText = new Map<string, DocumentNode | null>();
  private chars = 0;
  constructor(private readonly maxDocuments = DOCUMENTS_MAX, private readonly maxChars = DOCUMENT_CHARS_MAX, private readonly maxCharsOfOne = DOCUMENT_CHARS_KEPT) {}
  get(text: string): DocumentNode | null | undefined {
    return this.byText.get(text);
  }
  set(text: string, document: DocumentNode | null): void {
    if (text.length > this.maxCharsOfOne || this.byText.has(text)) return;
    this.byText.set(text, document);
    this.chars += text.length;
    for (const oldest of this.byText.keys()) {
      if (this.byText.size <= this.maxDocuments && this.chars <= this.maxChars) break;
      this.byText.delete(oldest);
      this.chars -= oldest.length;
    }
  }
  /** How many documents, and how many characters of text, are kept. */
  get size(): { documents: number; characters: number } {
    return { documents: this.byText.size, characters: this.chars };
  }
}
