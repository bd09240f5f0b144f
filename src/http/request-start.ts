import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import express from 'express';
import { localeOf, Locale } from '../i18n';
import { RequestContext, RequestEndedError } from '../request-context';
import { parseTraceParent } from './trace-context';

/**
 * The language of the caller's messages, from its Accept-Language (q-values weighed): Portuguese
 * (`pt-BR`, `pt`, `pt-PT`) or English, the default (docs/API.md, "Languages").
 */
export function localeOfRequest(req: http.IncomingMessage): Locale {
  // The answer depends on the header's text only: negotiated once per distinct header (clients
  // send the same few), not on every request.
  const header = req.headers['accept-language'] ?? '';
  let locale = LOCALE_OF_HEADER.get(header);
  if (locale === undefined) {
    // Express's negotiation, which reads the request's headers only (a request outside Express too).
    locale = localeOf(express.request.acceptsLanguages.call(req as express.Request, 'en', 'pt-BR', 'pt') || null);
    if (header.length > 200) return locale;
    if (LOCALE_OF_HEADER.size >= LOCALE_HEADERS_KEPT) LOCALE_OF_HEADER.clear();
    LOCALE_OF_HEADER.set(header, locale);
  }
  return locale;
}
const LOCALE_OF_HEADER = new Map<string, Locale>();
const LOCALE_HEADERS_KEPT = 500;

/**
 * What every request is served with: its id (the caller's `x-request-id`, at most 64 characters,
 * or a new UUID), answered in `x-request-id`; the caller's W3C trace; the language of its messages;
 * a signal aborted when the response is done or the connection closes.
 */
export function startRequest(req: http.IncomingMessage, res: http.ServerResponse): RequestContext {
  const given = req.headers['x-request-id'];
  const requestId = (typeof given === 'string' ? given : '').slice(0, 64) || randomUUID();
  res.setHeader('x-request-id', requestId);
  const trace = parseTraceParent(req.headers.traceparent);
  const ended = new AbortController();
  res.once('close', () => ended.abort(new RequestEndedError(requestId)));
  return { requestId, locale: localeOfRequest(req), ended: ended.signal, ...(trace ? { traceId: trace.traceId, parentId: trace.parentId } : {}) };
}
