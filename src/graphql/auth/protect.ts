import { defaultFieldResolver, GraphQLFieldResolver, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { Role } from '../../law/types';
import { Actor } from '../../services/actor';
import { ForbiddenError, NotFoundError, UnauthenticatedError } from '../../services/errors';
import { Rule, ruleFor, valuesAt } from './rules';
import { message } from '../../i18n';

const PROTECTED = Symbol('selo.protected');

/**
 * Checks a root operation's rule before its resolver runs: FORBIDDEN for a role (or no rule);
 * NOT_FOUND when a PRODUCER names another producer, as for a missing one.
 */
export function authorize(rootType: 'Query' | 'Mutation', field: string, actor: Actor | undefined, args: Record<string, unknown>): Rule {
  if (!actor) throw new UnauthenticatedError();
  const rule = ruleFor(rootType, field);
  if (!rule) throw new ForbiddenError(message('auth.noRule', { field: `${rootType}.${field}` }));
  if (!rule.roles.includes(actor.role)) {
    throw new ForbiddenError(
      actor.role === Role.AUDITOR && rule.kind === 'write' ? message('auth.auditorWritesNothing')
        : message(rule.refusal ?? 'auth.notForRole', { field, role: actor.role }),
    );
  }
  if (actor.role === Role.PRODUCER) {
    for (const path of rule.producerArgs) {
      for (const value of valuesAt(args, path)) {
        if (String(value) !== actor.producerId) throw new NotFoundError('Producer', String(value));
      }
    }
  }
  return rule;
}

/**
 * Wrap the resolver of every Query and Mutation field with `authorize`: the one place every read
 * and write passes through. Nested fields are reached only through a root field, and records of a
 * producer are further scoped by the services (src/services/scope.ts) and loaders.
 */
export function protectSchema(schema: GraphQLSchema): GraphQLSchema {
  for (const [rootType, type] of [['Query', schema.getQueryType()], ['Mutation', schema.getMutationType()]] as const) {
    if (!type) continue;
    protectRoot(rootType, type);
  }
  return schema;
}

function protectRoot(rootType: 'Query' | 'Mutation', type: GraphQLObjectType): void {
  for (const field of Object.values(type.getFields())) {
    const marked = field as unknown as Record<symbol, boolean>;
    if (marked[PROTECTED]) continue;
    const inner: GraphQLFieldResolver<unknown, { actor?: Actor }> = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context, info) => {
      authorize(rootType, field.name, context?.actor, args);
      return inner(source, args, context, info);
    };
    marked[PROTECTED] = true;
  }
}
