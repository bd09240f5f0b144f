import { AsyncLocalStorage } from 'node:async_hooks';

/** The request being served, for log lines and error responses deep in the call stack. */
export interface RequestContext {
  requestId: string;
  /** The GraphQL operation being served, once resolved (for the request's log line). */
  operationName?: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
