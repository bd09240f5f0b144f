import { getIntrospectionQuery } from 'graphql';
import { startTestApi, TestApi } from '../support/api';
import { ownAndOtherProducers } from '../support/fixtures';

/**
 * Introspection is held to the limits like any other field (docs/API.md "Errors", QUERY_TOO_COMPLEX): it
 * counts in the cost, `__schema` may be asked once per operation, and the answers are kept per
 * schema, so a storm of introspections costs the server one execution.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await ownAndOtherProducers(api);
});
afterAll(async () => { await api.close(); });

const hits = async () => {
  const text = await (await fetch(`${api.url.replace(/\/graphql$/, '')}/metrics`)).text();
  return Number(/^selo_introspection_cache_hits_total (\d+)/m.exec(text)?.[1]);
};

test('thirty aliased __schema in one request are refused before anything runs; one is answered', async () => {
  const aliased = `{ ${Array.from({ length: 30 }, (_, i) => `s${i}: __schema { types { name fields { name type { name ofType { name } } } } }`).join(' ')} }`;
  const refused = await api.gql(aliased, {}, { role: 'AUDITOR' });
  expect([refused.status, refused.data ?? null, refused.errors?.[0].extensions?.code, refused.errors?.[0].message])
    .toEqual([400, null, 'QUERY_TOO_COMPLEX', '__schema may be asked once per operation, found 30']);
  // Through fragments, counted where they are spread.
  const viaFragments = await api.gql('query { ...A b: __schema { queryType { name } } } fragment A on Query { __schema { types { name } } }');
  expect(viaFragments.errors?.[0].message).toBe('__schema may be asked once per operation, found 2');
  const once = await api.gql('{ __schema { queryType { name } } }');
  expect(once.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
});

test('introspection counts in the cost: a query just under the limit passes, the same with a __schema does not', async () => {
  const nested = (a: number, b: number) => `producers(first: ${a}) { edges { node { purchases(first: ${b}) { edges { node { id } } } } } }`;
  const page = (n: number) => `producers(first: ${n}) { edges { node { id } } }`;
  // 40,300 + 2 × 4,300 + 2 × 400 + 296 + 3 = 49,999, the limit being 50,000.
  const atLimit = `a: ${nested(100, 100)} b: ${nested(100, 10)} c: ${nested(100, 10)} d: ${page(100)} e: ${page(100)} f: ${page(74)} t1: __typename t2: __typename t3: __typename`;
  const passes = await api.gql(`{ ${atLimit} }`);
  expect(passes.errors).toBeUndefined();
  expect(passes.data!.d.edges).toHaveLength(2);
  const over = await api.gql(`{ ${atLimit} __schema { types { name } } }`);
  expect([over.status, over.errors?.[0].extensions?.code]).toEqual([400, 'QUERY_TOO_COMPLEX']);
  expect(over.errors?.[0].message).toMatch(/Query Cost limit of 50000 exceeded, found 50002/);
});

test('GraphiQL\'s full introspection is answered once and then from the cache, the same answer; other documents and variables are their own entries', async () => {
  const query = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true });
  const before = await hits();
  expect(Number.isInteger(before)).toBe(true);
  const first = await api.gql(query, {}, { role: 'PRODUCER', producerId: '1' });
  expect(first.errors).toBeUndefined();
  expect(first.data!.__schema.types.map((t: { name: string }) => t.name)).toContain('Producer');
  expect(await hits()).toBe(before);
  const second = await api.gql(query, {}, { role: 'AUDITOR' });
  expect(second.data).toEqual(first.data);
  expect(await hits()).toBe(before + 1);

  const TYPE = 'query($n: String!) { __type(name: $n) { name kind } }';
  expect((await api.ok(TYPE, { n: 'Producer' })).__type).toEqual({ name: 'Producer', kind: 'OBJECT' });
  expect((await api.ok(TYPE, { n: 'Sale' })).__type).toEqual({ name: 'Sale', kind: 'OBJECT' });
  expect(await hits()).toBe(before + 1);
  expect((await api.ok(TYPE, { n: 'Sale' })).__type).toEqual({ name: 'Sale', kind: 'OBJECT' });
  expect(await hits()).toBe(before + 2);
  // An operation that reads data beside the introspection is never answered from the cache.
  const mixed = '{ __typename producers { totalCount } }';
  expect((await api.ok(mixed)).producers.totalCount).toBe(2);
  expect((await api.ok(mixed)).producers.totalCount).toBe(2);
  expect(await hits()).toBe(before + 2);
  // An introspection refused (no token) is not answered from the cache either.
  expect((await api.gql(query, {}, null)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
});
