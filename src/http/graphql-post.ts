import type http from 'node:http';
import { ApolloServer, HeaderMap, type HTTPGraphQLResponse } from '@apollo/server';
import compression from 'compression';
import getRawBody from 'raw-body';
import vary from 'vary';
import type express from 'express';
import type { Context } from '../graphql/context';
import type { PipelineRequest } from '../graphql/pipeline';
import { bodyNotJsonAnswer, bodyTooLargeAnswer, LIMITS, timeoutAnswer } from '../graphql/limits';
import { Logger } from '../logger';
import { RequestContext, requestContext } from '../request-context';
import type { Metrics } from './metrics';
import { logRequest } from './request-log';
import { startRequest } from './request-start';
import { fillTrustedDocument, TrustedDocuments } from './trusted-documents';

export interface GraphqlPostOptions {
  apollo: ApolloServer<Context>;
  /** The API's own pipeline (src/graphql/pipeline.ts): what it answers (not null) Apollo Server does not see. */
  pipeline?: (request: PipelineRequest) => Promise<HTTPGraphQLResponse | null>;
  /** Every request this handler does not serve itself. */
  app: express.Express;
  /** The request's context from its Authorization header (its refusals are Apollo's to answer). */
  context(authorization: string | undefined): Promise<Context>;
  logger: Logger;
  metrics: Metrics;
  /** CORS of CORS_ORIGINS, when some are allowed. */
  cors?: express.RequestHandler;
  trustedDocuments?: TrustedDocuments;
  /** True once the server stops: Express then refuses the request (503 SHUTTING_DOWN). */
  stopping(): boolean;
  /** A request not answered within this is answered 503 REQUEST_TIMEOUT. */
  timeoutMs?: number;
}

/** A request this handler could not finish, given to Express's error handling (see `failureOf`). */
const FAILURE = Symbol('graphql-post failure');
type Failing = http.IncomingMessage & { [FAILURE]?: unknown };

/** Express middleware, first of the app: a request the handler below hands over with an error goes to Express's error handling. */
export const failureOf: express.RequestHandler = (req, _res, next) => next((req as Failing)[FAILURE]);

/** The JSON bodies taken here: `application/json`, with no charset or UTF-8. Any other goes to Express's parser and its errors. */
const JSON_UTF8 = /^application\/json(?:; ?charset=utf-8)?$/i;
/** JSON's whitespace, before the first character (which must open an object or an array). */
const FIRST_CHAR = /^[ \t\n\r]*([^ \t\n\r])/;
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;
/** compression()'s threshold: a smaller answer is sent as it is. */
const COMPRESSION_THRESHOLD = 1024;

/**
 * The server's request handler: POST /graphql, the API's requests, served in one function — the
 * same steps, in the same order, with the same answers as the Express middleware chain (request
 * id, trace and language in the request's context, the request's log line and metrics, CORS,
 * compression of answers over 1 KB, the request timeout, the JSON body with its limit and errors,
 * trusted documents, Apollo Server) without Express's router, request and response objects, body
 * parser and the response wrapping of compression for the answers too small to compress; the
 * ordinary GraphQL requests are answered by the API's own pipeline (src/graphql/pipeline.ts)
 * with the bytes Apollo Server would give, the others by Apollo Server. Every
 * other request (GET /graphql, preflights, GraphiQL, probes, import, export), a POST /graphql
 * whose body is not plain UTF-8 JSON (another charset, a Content-Encoding: Express's parser
 * inflates or refuses them), and every request once the server stops go to the Express app.
 */
export function graphqlPostHandler(options: GraphqlPostOptions): http.RequestListener {
  const { app, stopping } = options;
  const compress = compression();
  const timeoutMs = options.timeoutMs ?? LIMITS.requestTimeoutMs;

  /** Answer `text` as Express's res.send does (charset, Content-Length), through compression() when it is large enough. */
  const send = (req: http.IncomingMessage, res: http.ServerResponse, text: string): void => {
    const type = res.getHeader('content-type');
    // res.send states the charset of a text (the content types of Apollo's answers already do).
    res.setHeader('content-type', typeof type !== 'string' ? 'text/html; charset=utf-8' : /; charset=utf-8$/.test(type) ? type : `${type.split(';')[0].trim()}; charset=utf-8`);
    const length = Buffer.byteLength(text);
    res.setHeader('content-length', length);
    if (length >= COMPRESSION_THRESHOLD) {
      compress(req as express.Request, res as express.Response, () => res.end(text));
      return;
    }
    // What compression() does to an answer under its threshold: a compressible type varies by Accept-Encoding.
    if (compressible(req, res) && !NO_TRANSFORM.test(String(res.getHeader('cache-control') ?? ''))) vary(res, 'Accept-Encoding');
    res.end(text);
  };
  const sendJson = (req: http.IncomingMessage, res: http.ServerResponse, status: number, body: unknown): void => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    send(req, res, JSON.stringify(body));
  };

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse, store: RequestContext): Promise<void> => {
    const started = process.hrtime.bigint();
    const timer = setTimeout(() => {
      if (!res.headersSent) sendJson(req, res, 503, timeoutAnswer(timeoutMs));
    }, timeoutMs);
    timer.unref();
    res.on('finish', () => {
      clearTimeout(timer);
      logRequest(options.logger, store, req.method, '/graphql', res.statusCode, started);
      options.metrics.countResponse('/graphql', 'POST', res.statusCode);
    });
    res.on('close', () => clearTimeout(timer));
    // CORS of a request that is not a preflight only sets headers, and goes on at once.
    if (options.cors) await new Promise<void>((next) => options.cors!(req as express.Request, res as express.Response, () => next()));

    const read = await readBody(req, LIMITS.bodyLimit);
    if (read.kind === 'tooLarge') return sendJson(req, res, 413, bodyTooLargeAnswer());
    if (read.kind === 'failed') return failed(req, res, read.error);
    const body = parseJson(read.text);
    if (body === NOT_JSON) return sendJson(req, res, 400, bodyNotJsonAnswer());
    if (options.trustedDocuments) fillTrustedDocument(options.trustedDocuments, body);

    const context = () => options.context(req.headers.authorization);
    const answer = (await options.pipeline?.({ body, accept: req.headers.accept, context })) ?? await options.apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers: apolloHeaders(req), search: searchOf(req.url), body },
      context,
    });
    // Answered 503 by the timeout meanwhile: that answer stands.
    if (res.headersSent) return;
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.statusCode = answer.status || 200;
    if (answer.body.kind === 'complete') return send(req, res, answer.body.string);
    compress(req as express.Request, res as express.Response, () => undefined);
    for await (const chunk of answer.body.asyncIterator) {
      res.write(chunk);
      (res as { flush?: () => void }).flush?.();
    }
    res.end();
  };

  /** A failure of no answer of its own (the request aborted, an error of the server): Express's error handling answers it, as before. */
  const failed = (req: http.IncomingMessage, res: http.ServerResponse, error: unknown): void => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    (req as Failing)[FAILURE] = error ?? new Error('request failed');
    app(req as express.Request, res as express.Response);
  };

  return (req, res) => {
    if (!servedHere(req) || stopping()) {
      app(req as express.Request, res as express.Response);
      return;
    }
    const store = startRequest(req, res);
    requestContext.run(store, () => {
      serve(req, res, store).catch((error: unknown) => failed(req, res, error));
    });
  };
}

/** What @as-integrations/express5 gives Apollo Server of the headers: repeated ones joined. */
function apolloHeaders(req: http.IncomingMessage): HeaderMap {
  const headers = new HeaderMap();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** The query string of a URL, with its `?` (empty when it has none). */
function searchOf(url: string | undefined): string {
  const at = url?.indexOf('?') ?? -1;
  return at < 0 ? '' : url!.slice(at);
}

/** Whether a request is POST /graphql with a plain UTF-8 JSON body. */
function servedHere(req: http.IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url;
  if (url !== '/graphql' && !url?.startsWith('/graphql?')) return false;
  const { headers } = req;
  if (headers['content-encoding'] !== undefined) return false;
  // A request without a body is left to Express, whose parser then leaves `req.body` unset.
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return false;
  const type = headers['content-type'];
  return type !== undefined && JSON_UTF8.test(type);
}

type Read = { kind: 'text'; text: string } | { kind: 'tooLarge' } | { kind: 'failed'; error: unknown };

/**
 * The body as UTF-8 text (a byte order mark dropped), read by raw-body as Express's JSON parser
 * reads it: over `limit` bytes — by its Content-Length, or as it arrives — it is refused, once the
 * rest of it has been received (and dropped); a body cut short or not of its declared length fails.
 */
async function readBody(req: http.IncomingMessage, limit: string): Promise<Read> {
  try {
    return { kind: 'text', text: await getRawBody(req, { length: req.headers['content-length'], limit, encoding: 'utf-8' }) };
  } catch (error) {
    if ((error as { type?: string }).type !== 'entity.too.large') return { kind: 'failed', error };
    if (!req.complete) {
      await new Promise<void>((done) => {
        req.once('end', done);
        req.once('close', done);
        req.resume();
      });
    }
    return { kind: 'tooLarge' };
  }
}

const NOT_JSON = Symbol('not JSON');

/** The body as express.json() parses it: empty is `{}`; it must open an object or an array; otherwise NOT_JSON. */
function parseJson(text: string): unknown {
  if (text.length === 0) return {};
  const first = FIRST_CHAR.exec(text)?.[1];
  if (first !== '{' && first !== '[') return NOT_JSON;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** compression()'s filter (whether the response's Content-Type is compressible), known once per content type. */
function compressible(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const type = res.getHeader('content-type');
  let known = typeof type === 'string' ? COMPRESSIBLE.get(type) : undefined;
  if (known === undefined) {
    known = compression.filter(req as express.Request, res as express.Response);
    if (typeof type === 'string' && COMPRESSIBLE.size < 100) COMPRESSIBLE.set(type, known);
  }
  return known;
}
const COMPRESSIBLE = new Map<string, boolean>();
