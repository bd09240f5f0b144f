import { ApolloServerPlugin, GraphQLRequestListener, HeaderMap } from '@apollo/server';
import { DocumentNode, FragmentDefinitionNode } from 'graphql';
import { DataSource } from 'typeorm';
import { Logger } from '../../logger';
import { Context } from '../context';
import { isDatabaseUnavailable } from '../errors';
import { checkReadSpecs, compileRead, fragmentsOf } from './read-sql';

/**
 * Apollo plugin: after parsing, validation (the query limits included) and operation resolution,
 * a read that src/graphql/compiled/read-sql.ts can translate is answered by its one SQL
 * statement, and graphql-js does not execute it. Anything else — or a statement that fails, e.g.
 * with the database unreachable — goes on to normal execution, which gives the errors the API
 * always gives.
 */
export function compiledReadsPlugin(dataSource: DataSource, logger: Logger): ApolloServerPlugin<Context> {
  const fragmentsByDocument = new WeakMap<DocumentNode, Record<string, FragmentDefinitionNode>>();
  const listener: GraphQLRequestListener<Context> = {
    async responseForOperation({ schema, document, operation, request, contextValue }) {
      checkReadSpecs(schema);
      let fragments = fragmentsByDocument.get(document);
      if (!fragments) {
        fragments = fragmentsOf(document.definitions);
        fragmentsByDocument.set(document, fragments);
      }
      const compiled = compileRead(schema, fragments, operation, request.variables, contextValue.actor);
      if (!compiled) return null;
      let rows: Array<{ data: Record<string, unknown> }>;
      try {
        rows = await dataSource.query(compiled.sql, compiled.params);
      } catch (error) {
        // The database gone is the normal path's to report (503); any other failure is a fault of
        // this path, worth seeing in the logs, and the operation still gets its normal answer.
        if (isDatabaseUnavailable(error)) logger.debug({ err: error }, 'compiled read: database unavailable; executing the operation instead');
        else logger.warn({ err: error }, 'compiled read failed; executing the operation instead');
        return null;
      }
      return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data: rows[0].data } } };
    },
  };
  return { async requestDidStart() { return listener; } };
}
