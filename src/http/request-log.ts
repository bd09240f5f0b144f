import express from 'express';
import { Logger } from '../logger';
import { RequestContext, requestContext } from '../request-context';

/** Probes and scrapes: logged at debug only, so that they do not drown the requests of people. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One structured log line per HTTP request when its response is finished: method, path (never
 * the query string), the GraphQL operation name when there is one, status, duration, and the
 * request id (the README). Mounted right after the middleware that assigns the id.
 */
export function logRequests(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const store = requestContext.getStore();
    const path = req.path; // before routers strip their mount point
    res.on('finish', () => logRequest(logger, store, req.method, path, res.statusCode, started));
    next();
  };
}

/** The log line of a request whose response is finished (`started`: process.hrtime.bigint() when it arrived). */
export function logRequest(logger: Logger, store: RequestContext | undefined, method: string | undefined, path: string, status: number, started: bigint): void {
  const line = {
    requestId: store?.requestId,
    ...(store?.traceId ? { traceId: store.traceId, parentId: store.parentId } : {}),
    method,
    path,
    ...(store?.operationName ? { operation: store.operationName } : {}),
    status,
    durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
  };
  if (QUIET_PATHS.has(path)) logger.debug(line, 'request');
  else logger.info(line, 'request');
}
