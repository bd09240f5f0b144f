import cors from 'cors';
import type { RequestHandler } from 'express';
import vary from 'vary';

/**
 * The request headers a browser frontend on another origin may send: the token, JSON bodies,
 * Apollo's CSRF-prevention header (for GET), the language of the messages, its own request id and
 * W3C trace context.
 */
export const CORS_REQUEST_HEADERS = ['authorization', 'content-type', 'apollo-require-preflight', 'accept-language', 'x-request-id', 'traceparent', 'tracestate'];
/** Response headers a frontend may read besides the simple ones. */
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'retry-after'];
/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * CORS for `CORS_ORIGINS` only: others get no header, so browsers refuse them. Apollo's CSRF
 * prevention still refuses simple requests from any origin.
 */
export function corsForOrigins(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  const handler = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ['GET', 'POST'],
    allowedHeaders: CORS_REQUEST_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: CORS_MAX_AGE_SECONDS,
    optionsSuccessStatus: 204,
  });
  // cors adds Vary: Origin only to the answers of a listed origin; a cache would then give that
  // answer (without CORS headers) to a listed origin's request too, or the reverse.
  return (req, res, next) => {
    vary(res, 'Origin');
    handler(req, res, next);
  };
}
