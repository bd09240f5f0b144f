import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { message, Message, translate } from '../i18n';
import { Logger } from '../logger';
import { currentLocale, currentRequestId } from '../request-context';
import { localeOfRequest } from './request-start';

/** The code of each 4xx status Express and its body parser refuse a request with; any other 4xx is BAD_REQUEST. */
const CODES: Record<number, string> = { 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };

function text(status: number): Message {
  if (status === 404) return message('http.notFound');
  if (status === 413) return message('http.bodyTooLargeAny');
  if (status === 415) return message('http.bodyEncoding');
  return message('http.unreadable');
}

/**
 * The answer in the API's shapes: GraphQL errors under /graphql (as its other refusals of a body,
 * src/graphql/limits.ts), `{ error: { code, message, requestId } }` elsewhere (as import and export).
 */
function answer(path: string, status: number, code: string, said: Message): unknown {
  const requestId = currentRequestId() ?? null;
  const text = translate(said, currentLocale());
  return path === '/graphql' || path.startsWith('/graphql/')
    ? { errors: [{ message: text, extensions: { code, requestId } }] }
    : { error: { code, message: text, requestId } };
}

/** Express's last middleware: a path nothing serves is a 404 for the handler below, not Express's HTML page. */
export const notFound: RequestHandler = (_req, _res, next) => {
  next({ status: 404, type: 'path.unknown' });
};

/**
 * Express's final error handler without its HTML stack page: Express and body-parser refusals keep
 * their 4xx with our code and message (theirs may quote input); else 500 with the request id.
 * One JSON log line, the stack only for 500s.
 */
export function errorAnswers(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const e = (err ?? {}) as { status?: unknown; statusCode?: unknown; type?: unknown; message?: unknown; stack?: unknown };
    const given = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 500;
    const status = given >= 400 && given < 500 ? given : 500;
    const requestId = currentRequestId() ?? null;
    if (status === 500) {
      logger.error({ err: { message: String(e.message ?? err), stack: typeof e.stack === 'string' ? e.stack : undefined }, requestId, method: req.method, path: req.path }, 'unexpected error');
    } else {
      const code = CODES[status] ?? 'BAD_REQUEST';
      logger.warn({ status, code, reason: typeof e.type === 'string' ? e.type : String(e.message ?? '').slice(0, 80), requestId, method: req.method, path: req.path.slice(0, 200) }, 'request refused');
    }
    // Too late for an answer of ours: the client sees the connection end, as Express would do.
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    if (status !== 500) {
      // A body left half read would otherwise be read as the next request on the connection.
      res.setHeader('connection', 'close');
      res.status(status).json(answer(req.path, status, CODES[status] ?? 'BAD_REQUEST', text(status)));
      return;
    }
    res.status(500).json(answer(req.path, 500, 'INTERNAL_SERVER_ERROR', message('http.internal', { requestId: requestId ?? 'unknown' })));
  };
}

/**
 * CONNECT, a proxy's method, never reaches Express: without this Node drops the connection
 * unanswered. It gets the 405 of any method nothing here serves (RFC 9110 §15.5.6 asks for Allow).
 */
export function refuseConnect(logger: Logger): (req: http.IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    const requestId = randomUUID();
    const body = JSON.stringify({ error: { code: 'METHOD_NOT_ALLOWED', message: translate(message('http.connectRefused'), localeOfRequest(req)), requestId } });
    logger.warn({ status: 405, code: 'METHOD_NOT_ALLOWED', requestId, method: req.method, path: String(req.url ?? '').slice(0, 200) }, 'request refused');
    socket.on('error', () => socket.destroy());
    socket.end(['HTTP/1.1 405 Method Not Allowed', 'Allow: GET, HEAD, POST, OPTIONS', 'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`, `x-request-id: ${requestId}`, 'Connection: close', '', body].join('\r\n'));
  };
}
