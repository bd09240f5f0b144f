import type { ApolloServerPlugin, BaseContext, GraphQLRequest, GraphQLResponse, HTTPGraphQLHead } from '@apollo/server';
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';

/** What a hook reads of the request it checks or observes, once its operation is known (Apollo Server's request context). */
export interface HookContext<C extends BaseContext = BaseContext> {
  readonly schema: GraphQLSchema;
  readonly request: GraphQLRequest;
  readonly contextValue: C;
  readonly source: string;
  readonly document: DocumentNode;
  /** Absent when the document has no operation of the name asked (graphql-js then refuses it). */
  readonly operation?: OperationDefinitionNode;
  readonly operationName: string | null;
  readonly response: { http: HTTPGraphQLHead; body?: GraphQLResponse['body'] };
}

/** The request as it is answered: its response is complete; the document and operation are absent when it did not parse or validate. */
export type AnsweredContext<C extends BaseContext = BaseContext> = Omit<HookContext<C>, 'document' | 'operationName' | 'response'> & {
  readonly document?: DocumentNode;
  readonly operationName?: string | null;
  readonly response: GraphQLResponse;
};

/**
 * What one of the API's checks or observers does at a stage of a request (the stages of Apollo
 * Server's plugins, synchronously). A refusal is thrown from `didResolveOperation`.
 */
export interface RequestHooks<C extends BaseContext = BaseContext> {
  didResolveOperation?(rc: HookContext<C>): void;
  /** An answer given in place of executing the operation; null to execute it. */
  responseForOperation?(rc: HookContext<C>): GraphQLResponse | null;
  willSendResponse?(rc: AnsweredContext<C>): void;
}

/** The hooks of one request: a check without state gives the same object every time. */
export type PerRequest<C extends BaseContext = BaseContext> = () => RequestHooks<C>;

/**
 * The request hooks as one Apollo plugin (a plugin each costs promises per stage), with Apollo's
 * semantics for separate plugins: first refusal wins, first answer is given.
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
          return firstAnswer(hooks, rc);
        },
        async willSendResponse(rc) {
          for (const h of hooks) h.willSendResponse?.(rc);
        },
      };
    },
  };
}

/** The first answer a hook gives in place of executing the operation, or null. */
export function firstAnswer<C extends BaseContext>(hooks: ReadonlyArray<RequestHooks<C>>, rc: HookContext<C>): GraphQLResponse | null {
  for (const h of hooks) {
    const answer = h.responseForOperation?.(rc);
    if (answer) return answer;
  }
  return null;
}
