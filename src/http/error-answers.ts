import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { Locale, message, Message, translate } from '../i18n';
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
function answer(path: string, code: string, said: Message, requestId = currentRequestId() ?? null, locale: Locale = currentLocale()): unknown {
  const text = translate(said, locale);
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
    // Its body's bytes did not parse: refused and logged as such already (refuseUnparsed).
    if (answeredOnSocket.has(res)) return;
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
      res.status(status).json(answer(req.path, CODES[status] ?? 'BAD_REQUEST', text(status)));
      return;
    }
    res.status(500).json(answer(req.path, 'INTERNAL_SERVER_ERROR', message('http.internal', { requestId: requestId ?? 'unknown' })));
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
    socket.end(rawJson(405, body, requestId, ['Allow: GET, HEAD, POST, OPTIONS']));
  };
}

/** A JSON answer written on the socket itself, where Node hands over no response object; the connection ends with it. */
function rawJson(status: number, body: string, requestId: string, headers: string[] = []): string {
  return [`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`, ...headers, 'Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`, 'Connection: close', '', body].join('\r\n');
}

/** The responses this answered on their socket: Express's error answers, reached as the request's body fails, say nothing more. */
const answeredOnSocket = new WeakSet<http.ServerResponse>();

/** Node's own answer to a request not received whole within the server's request timeout (docs/API.md: 408 with an empty body). */
const REQUEST_TIMEOUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/** The request line and headers of what the parser refused, when the bytes it was reading begin with them. */
function requestHead(raw: Buffer | undefined): { method: string; path: string; header(name: string): string | undefined } | null {
  // What the parser was reading: a socket's read, at most 64 KB.
  const head = raw?.subarray(0, 65_536).toString('latin1').split('\r\n\r\n', 1)[0] ?? '';
  const line = /^([A-Z]{3,10}) ([^ ?\r\n]*)/.exec(head);
  if (!line) return null;
  return {
    method: line[1],
    path: line[2],
    header: (name) => new RegExp(`\r\n${name}:[ \t]*([^\r\n]*)`, 'i').exec(head)?.[1],
  };
}

/**
 * The server's `clientError`: what Node's HTTP parser refuses never reaches Express, and Node
 * answered it with a bare status. A request line and headers over Node's maxHeaderSize (16 KB: a
 * long query string) are 431 REQUEST_HEADER_FIELDS_TOO_LARGE, any other malformed request 400
 * BAD_REQUEST, in the shapes of the other refusals; the connection then ends, as Node ends it. A
 * request not received in time keeps Node's 408; a connection already failing, or whose response
 * has begun, is closed without a word (writing would corrupt what the peer reads).
 */
export function refuseUnparsed(logger: Logger): (err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => void {
  return (err, socket) => {
    // The response of a request whose body the parser failed on: not a documented property, Node's own check reads it.
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage ?? null;
    if (!socket.writable || inFlight?.headersSent) {
      // Ended already when this answered an earlier error of the same bytes: it closes once sent.
      if (!socket.writableEnded) socket.destroy();
      return;
    }
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end(REQUEST_TIMEOUT, () => socket.destroy());
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const code = status === 431 ? 'REQUEST_HEADER_FIELDS_TOO_LARGE' : 'BAD_REQUEST';
    const head = inFlight ? null : requestHead(err.rawPacket);
    const path = inFlight ? (inFlight.req.url ?? '').split('?', 1)[0] : head?.path ?? '';
    // A caller's id from bytes that did not parse is echoed only when it could be a header's value.
    const given = inFlight ? inFlight.getHeader('x-request-id') : head?.header('x-request-id')?.slice(0, 64);
    const requestId = typeof given === 'string' && /^[\x21-\x7e]+$/.test(given) ? given : randomUUID();
    const locale = localeOfRequest(inFlight?.req ?? ({ headers: { 'accept-language': head?.header('accept-language') } } as unknown as http.IncomingMessage));
    const said = status === 431 ? message('http.headersTooLarge', { kb: Math.floor(http.maxHeaderSize / 1024) }) : message('http.unreadable');
    logger.warn({ status, code, reason: err.code, requestId, method: inFlight?.req.method ?? head?.method, path: path.slice(0, 200) }, 'request refused');
    if (inFlight) answeredOnSocket.add(inFlight);
    // Closed once sent: the parser reads nothing more of this connection.
    socket.end(rawJson(status, JSON.stringify(answer(path, code, said, requestId, locale)), requestId), () => socket.destroy());
  };
}
