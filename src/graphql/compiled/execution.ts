import { GraphQLFieldConfig, GraphQLFieldResolver, GraphQLObjectType, GraphQLSchema } from 'graphql';
import type { DataSource } from 'typeorm';
import { Logger } from '../../logger';
import { authorize } from '../auth/protect';
import { Context } from '../context';
import { isDatabaseUnavailable } from '../errors';
import { ReadCompiler } from './compiler';
import { CompiledStatement } from './statement';

/**
 * The executed schema: compiled root fields try their statement first; a declined field, a
 * refusal or nothing found is answered by the field's own resolver in the same execution.
 */
export function compiledReadsSchema(schema: GraphQLSchema, dataSource: DataSource, logger: Logger): GraphQLSchema {
  // The annotations are checked once here: a wrong one fails the start, not each request.
  ReadCompiler.checkAnnotations(schema, dataSource);
  const compiler = new ReadCompiler(schema, dataSource);
  const query = schema.getQueryType();
  if (!query) return schema;
  const config = query.toConfig();
  const fields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {};
  for (const [name, fieldConfig] of Object.entries(config.fields)) {
    const field = query.getFields()[name];
    if (!ReadCompiler.isRoot(field)) {
      fields[name] = fieldConfig;
      continue;
    }
    const own = fieldConfig.resolve as GraphQLFieldResolver<unknown, Context>;
    const answer = async (statement: CompiledStatement, ...call: Parameters<typeof own>): Promise<unknown> => {
      const context = call[2];
      try {
        const data = await context.services.compiledReads.run(context.actor, statement);
        if (data !== null) return statement.objects(data);
      } catch (error) {
        // With the database unavailable, the resolver would meet the same error at the same place.
        if (isDatabaseUnavailable(error)) throw error;
        logger.warn({ err: error }, 'compiled read failed; resolving the field instead');
      }
      return own(...call);
    };
    // Not async: a refusal or a declined field is the resolver's, answered as it answers (a
    // refusal thrown at once lets graphql-js wait for the other root fields, as it does without
    // compiled reads).
    const resolve: GraphQLFieldResolver<unknown, Context> = (source, args, context, info) => {
      let statement: CompiledStatement | null = null;
      try {
        authorize('Query', field.name, context.actor, args);
        statement = compiler.compile({ field, nodes: info.fieldNodes, fragments: info.fragments, variables: info.variableValues, args, actor: context.actor, today: context.today });
      } catch {
        // Refused: the resolver gives the refusal.
      }
      return statement ? answer(statement, source, args, context, info) : own(source, args, context, info);
    };
    fields[name] = { ...fieldConfig, resolve: resolve as GraphQLFieldResolver<unknown, unknown> };
  }
  const schemaConfig = schema.toConfig();
  return new GraphQLSchema({
    ...schemaConfig,
    query: new GraphQLObjectType({ ...config, fields }),
    types: schemaConfig.types.filter((t) => t.name !== query.name),
  });
}
