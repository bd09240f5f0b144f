import { defaultFieldResolver, getNamedType, GraphQLFieldResolver, GraphQLSchema, isObjectType } from 'graphql';
import { hasOwnResolver, scaleOf, wrapsPropertyReader } from '../scalars';
import { sqlReadOf } from './annotations';

/**
 * The values a compiled statement gave an object for its fields that lead to other objects (and
 * for its SQL-computed Booleans), by response key: two aliases of one field may ask different
 * pages. A symbol: not a property graphql-js, the resolvers or JSON.stringify see.
 */
const ANSWERS = Symbol('selo.compiled.answers');
type Answered = { [ANSWERS]?: Record<string, unknown> };

export function setAnswers(target: object, answers: Record<string, unknown>): void {
  (target as Answered)[ANSWERS] = answers;
}

/** The resolver a field had before answerCompiledFields wrapped it (undefined: none). */
const innerOf = new WeakMap<GraphQLFieldResolver<unknown, unknown>, GraphQLFieldResolver<unknown, unknown> | undefined>();

/** A field's resolver as the schema defines it, without the wrapping below. */
export function ownResolverOf(field: { resolve?: GraphQLFieldResolver<unknown, unknown> }): GraphQLFieldResolver<unknown, unknown> | undefined {
  return field.resolve && innerOf.has(field.resolve) ? innerOf.get(field.resolve) : field.resolve;
}

/**
 * Object-valued, SQL-computed and scaled Decimal fields first answer what the compiled statement
 * gave under their response key; else their own (or the default) resolver runs.
 */
export function answerCompiledFields(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || roots.has(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isObjectType(getNamedType(field.type)) && sqlReadOf(field)?.kind !== 'value' && !isScaledProperty(field)) continue;
      if (field.resolve && innerOf.has(field.resolve)) continue;
      const own = field.resolve;
      const inner = own ?? defaultFieldResolver;
      const answered: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
        const answers = (source as Answered)[ANSWERS];
        return answers !== undefined && info.path.key in answers ? answers[info.path.key] : inner(source, args, context, info);
      };
      innerOf.set(answered, own);
      wrapsPropertyReader(answered, own);
      field.resolve = answered;
    }
  }
  return schema;
}

/** A stored Decimal property with a scale (Money, Quantity): its resolver only writes it at the scale. */
export function isScaledProperty(field: { resolve?: GraphQLFieldResolver<unknown, unknown>; extensions?: Readonly<Record<string, unknown>> | null }): boolean {
  return scaleOf(field) !== undefined && !hasOwnResolver({ resolve: ownResolverOf(field) });
}
