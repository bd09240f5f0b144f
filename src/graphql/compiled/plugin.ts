import { ApolloServerPlugin, GraphQLRequestListener, HeaderMap } from '@apollo/server';
import { DocumentNode, FragmentDefinitionNode, GraphQLFormattedError, locatedError } from 'graphql';
import { DataSource } from 'typeorm';
import { Logger } from '../../logger';
import { Context } from '../context';
import { isDatabaseUnavailable } from '../errors';
import { RawJson } from './raw-json';
import { checkReadSpecs, compileRead, fragmentsOf } from './read-sql';

/** The server's `formatError` (what Apollo applies to every error of a normal execution). */
export type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/**
 * Apollo plugin: after parsing, validation (the query limits included) and operation resolution,
 * a read that src/graphql/compiled/read-sql.ts can translate is answered by its one SQL
 * statement, and graphql-js does not execute it: the statement's JSON text is the response's
 * `data` (RawJson, written as it is by the server's stringifyResult). Anything else — or a statement that fails for
 * any reason but the database being unavailable — goes on to normal execution, which gives the
 * errors the API always gives. With the database unavailable the answer is the one normal
 * execution gives at once (DATABASE_UNAVAILABLE, HTTP 503), without a second wait for a
 * connection.
 */
export function compiledReadsPlugin(dataSource: DataSource, logger: Logger, formatError: FormatError): ApolloServerPlugin<Context> {
  const fragmentsByDocument = new WeakMap<DocumentNode, Record<string, FragmentDefinitionNode>>();
  const listener: GraphQLRequestListener<Context> = {
    async responseForOperation({ schema, document, operation, request, contextValue }) {
      // No operation resolved (an operationName not in the document): execution reports it.
      if (!operation) return null;
      checkReadSpecs(schema);
      let fragments = fragmentsByDocument.get(document);
      if (!fragments) {
        fragments = fragmentsOf(document.definitions);
        fragmentsByDocument.set(document, fragments);
      }
      const compiled = compileRead(schema, fragments, operation, request.variables, contextValue.actor);
      if (!compiled) return null;
      let rows: Array<{ data: string }>;
      try {
        rows = await dataSource.query(compiled.sql, compiled.params);
      } catch (error) {
        if (isDatabaseUnavailable(error) && compiled.firstRootField) {
          // What graphql-js gives when the first root field's resolver meets the same error: the
          // error located there, formatted as every error is, and no data (the field is non-null).
          // Executing instead would wait for a connection a second time (the pool's connect
          // timeout) before answering the same.
          const { key, nodes } = compiled.firstRootField;
          const located = locatedError(error, nodes, [key]);
          const formatted = formatError({ ...located.toJSON(), extensions: { ...located.extensions, code: located.extensions.code ?? 'INTERNAL_SERVER_ERROR' } }, located);
          return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { errors: [formatted], data: null } } };
        }
        // Any other failure is a fault of this path, worth seeing in the logs, and the operation
        // still gets its normal answer.
        logger.warn({ err: error }, 'compiled read failed; executing the operation instead');
        return null;
      }
      // Over HTTP the text is the answer as it is; a caller of executeOperation gets the object.
      const data = request.http ? (new RawJson(rows[0].data) as unknown as Record<string, unknown>) : (JSON.parse(rows[0].data) as Record<string, unknown>);
      return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data } } };
    },
  };
  return { async requestDidStart() { return listener; } };
}
