import type {
  ApolloServerPlugin, BaseContext, GraphQLRequestContextDidResolveOperation, GraphQLRequestContextResponseForOperation, GraphQLRequestContextWillSendResponse, GraphQLResponse,
} from '@apollo/server';

/**
 * What one of the API's checks or observers does at a stage of a request (the stages of Apollo
 * Server's plugins, synchronously). A refusal is thrown from `didResolveOperation`.
 */
export interface RequestHooks<C extends BaseContext = BaseContext> {
  didResolveOperation?(rc: GraphQLRequestContextDidResolveOperation<C>): void;
  /** An answer given in place of executing the operation; null to execute it. */
  responseForOperation?(rc: GraphQLRequestContextResponseForOperation<C>): GraphQLResponse | null;
  willSendResponse?(rc: GraphQLRequestContextWillSendResponse<C>): void;
}

/** The hooks of one request: a check without state gives the same object every time. */
export type PerRequest<C extends BaseContext = BaseContext> = () => RequestHooks<C>;

/**
 * The API's request hooks as one Apollo Server plugin, run in the order given: each plugin of its
 * own cost a promise per stage and one more to start, on every request. At each stage they run
 * as Apollo runs separate plugins' — the first refusal of `didResolveOperation` (in that order)
 * is the request's, the first answer of `responseForOperation` is given — except that a check
 * after a refusal is not run (checks only refuse).
 */
export function requestHooksPlugin<C extends BaseContext>(parts: ReadonlyArray<PerRequest<C>>): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      const hooks = parts.map((start) => start());
      return {
        async didResolveOperation(rc) {
          for (const h of hooks) h.didResolveOperation?.(rc);
        },
        async responseForOperation(rc) {
          for (const h of hooks) {
            const answer = h.responseForOperation?.(rc);
            if (answer) return answer;
          }
          return null;
        },
        async willSendResponse(rc) {
          for (const h of hooks) h.willSendResponse?.(rc);
        },
      };
    },
  };
}
