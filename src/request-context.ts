import { AsyncLocalStorage } from 'node:async_hooks';
import { DEFAULT_LOCALE, Locale } from './i18n';

/** The request being served, for log lines and error responses deep in the call stack. */
export interface RequestContext {
  requestId: string;
  /** The language of the caller's messages (Accept-Language: English or Brazilian Portuguese). */
  locale?: Locale;
  /** The caller's W3C trace (its `traceparent`), logged with every line of the request. */
  traceId?: string;
  parentId?: string;
  /** The GraphQL operation being served, once resolved (for the request's log line). */
  operationName?: string;
  /** Aborted once the response is done or its connection gone (a timeout's answer included). */
  ended?: AbortSignal;
  /** When the request timeout answers (epoch ms), for statements that must not outlast it. */
  deadline?: number;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/**
 * Why a request's work stops (its `ended` signal's reason): it has been answered (its timeout) or
 * its caller has gone. The documented stop of work of many steps, not a failure.
 */
export class RequestEndedError extends Error {
  constructor(requestId: string) {
    super(`request ${requestId} was answered or its connection closed`);
    this.name = 'RequestEndedError';
  }
}

/** True once the request has been answered or its caller has gone: nothing more reaches it. */
export function requestEnded(): boolean {
  return requestContext.getStore()?.ended?.aborted === true;
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** The caller's language; English outside a request. */
export function currentLocale(): Locale {
  return requestContext.getStore()?.locale ?? DEFAULT_LOCALE;
}

/**
 * Throws once the request has been answered or its caller has gone (the request timeout answers
 * 503 and leaves the work running): a computation of many steps stops at the next one.
 */
export function stopIfAnswered(): void {
  requestContext.getStore()?.ended?.throwIfAborted();
}

/** What is left of the request's time before its timeout answers, in whole ms (at least 1); none outside a timed request. */
export function msUntilAnswered(): number | undefined {
  const deadline = requestContext.getStore()?.deadline;
  return deadline === undefined ? undefined : Math.max(1, Math.ceil(deadline - Date.now()));
}
