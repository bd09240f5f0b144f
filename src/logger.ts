import pino from 'pino';
import { requestContext } from './request-context';

/**
 * Structured logs (JSON lines); every line written while serving a request carries its id, and
 * the caller's W3C trace id and parent span id when it sent a `traceparent`.
 */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream) {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'selo-api' },
    mixin() {
      const store = requestContext.getStore();
      if (!store) return {};
      return store.traceId ? { requestId: store.requestId, traceId: store.traceId, parentId: store.parentId } : { requestId: store.requestId };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type Logger = ReturnType<typeof createLogger>;

/**
 * Text for a person (not a log line) on the logs' own destination: after every line logged
 * before it, in one piece (pino writes standard output asynchronously, so a separate
 * `process.stdout.write` could land before an earlier log line or between two of its own).
 */
export function printAfterLogs(logger: Logger, text: string): void {
  (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym].write(text);
}
