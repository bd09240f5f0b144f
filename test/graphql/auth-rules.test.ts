import { GraphQLInputType, GraphQLSchema, getNullableType, isInputObjectType, isListType } from 'graphql';
import { authorize } from '../../src/graphql/auth/protect';
import { MUTATION_RULES, QUERY_RULES, Rule, valuesAt } from '../../src/graphql/auth/rules';
import { getSchema } from '../../src/graphql/schema';
import { Role } from '../../src/law/types';
import { Actor } from '../../src/services/actor';
import { ForbiddenError, NotFoundError, UnauthenticatedError } from '../../src/services/errors';

/**
 * The authorization rules on their own, without a database: the services and row-level security
 * answer another producer's record with the same NOT_FOUND, so an end-to-end test cannot tell
 * whether this check ran. Batches of many items put the other producer at every position.
 */

const OWN = '7';
const OTHER = '8';
const producer: Actor = { sub: 'p', role: Role.PRODUCER, producerId: OWN, requestId: null };
const admin: Actor = { sub: 'a', role: Role.ADMIN, producerId: null, requestId: null };
const auditor: Actor = { sub: 'u', role: Role.AUDITOR, producerId: null, requestId: null };

type Root = 'Query' | 'Mutation';
const RULES: Array<[Root, string, Rule]> = [
  ...Object.entries(QUERY_RULES).map(([f, r]) => ['Query', f, r] as [Root, string, Rule]),
  ...Object.entries(MUTATION_RULES).map(([f, r]) => ['Mutation', f, r] as [Root, string, Rule]),
];
const SCOPED = RULES.flatMap(([root, field, rule]) => rule.producerArgs.map((path) => [root, field, path] as const));
const BATCHED = SCOPED.filter(([, , path]) => path.includes('[]'));

/** Arguments holding `ids` at `path`: one value for a plain path, one item per id under a `[]`. */
function argsAt(path: string, ids: readonly string[]): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const leaf = (id: string): unknown => (rest.length ? argsAt(rest.join('.'), [id]) : id);
  if (head.endsWith('[]')) return { [head.slice(0, -2)]: ids.map(leaf) };
  expect(ids).toHaveLength(1);
  return { [head]: leaf(ids[0]) };
}

/** A batch of `size` items of the PRODUCER's own, the other producer at `at` (none when at < 0). */
function batch(size: number, at: number): string[] {
  return Array.from({ length: size }, (_, i) => (i === at ? OTHER : OWN));
}

function refusal(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await getSchema();
});

test('the batch mutations are the four record* operations, each checked at input[].producerId', () => {
  expect(BATCHED.map(([root, field, path]) => `${root}.${field}:${path}`).sort()).toEqual([
    'Mutation.recordFomento:input[].producerId', 'Mutation.recordImports:input[].producerId',
    'Mutation.recordPurchases:input[].producerId', 'Mutation.recordSales:input[].producerId',
  ]);
});

test('every producer argument path names arguments of the schema, a list wherever it says []', () => {
  for (const [root, field, path] of SCOPED) {
    const type = root === 'Query' ? schema.getQueryType()! : schema.getMutationType()!;
    const [head, ...rest] = path.split('.');
    let current: GraphQLInputType | undefined = type.getFields()[field].args.find((a) => a.name === head.replace('[]', ''))?.type;
    expect([field, path, current !== undefined]).toEqual([field, path, true]);
    if (head.endsWith('[]')) {
      expect([field, path, isListType(getNullableType(current!))]).toEqual([field, path, true]);
      current = isListType(getNullableType(current!)) ? (getNullableType(current!) as { ofType: GraphQLInputType }).ofType : undefined;
    }
    for (const part of rest) {
      const object = getNullableType(current!);
      expect([field, path, isInputObjectType(object)]).toEqual([field, path, true]);
      current = isInputObjectType(object) ? object.getFields()[part]?.type : undefined;
      expect([field, path, part, current !== undefined]).toEqual([field, path, part, true]);
    }
  }
});

test('valuesAt reads every item of a list, not the first', () => {
  expect(valuesAt({ input: [{ producerId: '1' }, { producerId: '2' }, { producerId: '3' }] }, 'input[].producerId')).toEqual(['1', '2', '3']);
  expect(valuesAt({ input: { producerId: '1' } }, 'input.producerId')).toEqual(['1']);
  expect(valuesAt({ input: [{ producerId: '1' }, null, {}, { producerId: '4' }] }, 'input[].producerId')).toEqual(['1', '4']);
});

describe.each(BATCHED)('%s.%s (%s): a PRODUCER\'s batch naming another producer anywhere is NOT_FOUND', (root, field, path) => {
  test.each([1, 2, 3, 7])('a batch of %i items: refused wherever the other producer is, allowed when every item is its own', (size) => {
    expect(authorize(root, field, producer, argsAt(path, batch(size, -1)))).toBe(root === 'Query' ? QUERY_RULES[field] : MUTATION_RULES[field]);
    for (let at = 0; at < size; at++) {
      const error = refusal(() => authorize(root, field, producer, argsAt(path, batch(size, at))));
      expect([at, error instanceof NotFoundError, (error as Error | undefined)?.message]).toEqual([at, true, expect.stringContaining(OTHER)]);
    }
    // ADMIN names any producer in any item.
    expect(() => authorize(root, field, admin, argsAt(path, batch(size, size - 1)))).not.toThrow();
  });
});

test.each(SCOPED.filter(([, , path]) => !path.includes('[]')))('%s.%s (%s): a PRODUCER naming another producer is NOT_FOUND, its own passes', (root, field, path) => {
  expect(() => authorize(root, field, producer, argsAt(path, [OWN]))).not.toThrow();
  expect(refusal(() => authorize(root, field, producer, argsAt(path, [OTHER])))).toBeInstanceOf(NotFoundError);
});

test('through the protected schema: the root resolver refuses a batch whose last item names another producer before it runs', async () => {
  const resolve = schema.getMutationType()!.getFields().recordPurchases.resolve!;
  const input = batch(5, 4).map((producerId) => ({ producerId }));
  // No services in the context: a resolver that ran would fail with a TypeError, not NOT_FOUND.
  let error: unknown;
  try {
    await resolve(undefined, { input }, { actor: producer }, undefined as never);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(NotFoundError);
});

test('roles: AUDITOR writes nothing, ADMIN-only writes refuse a PRODUCER, no actor is UNAUTHENTICATED, an operation without a rule is FORBIDDEN', () => {
  for (const [root, field, rule] of RULES) {
    const args = Object.fromEntries(rule.producerArgs.map((p) => [p.split(/[.[]/)[0], undefined]));
    if (rule.kind === 'write') expect([field, refusal(() => authorize(root, field, auditor, args)) instanceof ForbiddenError]).toEqual([field, true]);
    if (!rule.roles.includes(Role.PRODUCER)) expect([field, refusal(() => authorize(root, field, producer, args)) instanceof ForbiddenError]).toEqual([field, true]);
    expect([field, refusal(() => authorize(root, field, undefined, args)) instanceof UnauthenticatedError]).toEqual([field, true]);
  }
  expect(refusal(() => authorize('Mutation', 'dropEverything', admin, {}))).toBeInstanceOf(ForbiddenError);
});
