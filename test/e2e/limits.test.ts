import { AddressInfo } from 'node:net';
import pino from 'pino';
import { hs256 } from '../../src/graphql/auth/token';
import { GraphQLInputType, isInputObjectType, isListType, isNonNullType } from 'graphql';
import { LIMITS } from '../../src/graphql/limits';
import { getSchema } from '../../src/graphql/schema';
import { createApp } from '../../src/server';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';

let api: TestApi;
let producerId: string;
beforeAll(async () => {
  api = await startTestApi();
  await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Recife", semiarid: false }]) { ibgeCode } }`);
  producerId = (await api.ok(`mutation { createProducer(input: { cnpj: "11222333000181", legalName: "Usina A", plantMunicipalityCode: "2611606" }) { id } }`)).createProducer.id;
});
afterAll(async () => { await api.close(); });

async function post(body: string, token?: string) {
  const res = await fetch(api.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token ?? (await api.token())}` },
    body,
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', requestId: res.headers.get('x-request-id'), json: JSON.parse(text) };
}

function expectTooComplex(res: { errors?: Array<{ message: string; extensions?: Record<string, any> }>; data?: unknown }, message: RegExp) {
  expect(res.data ?? null).toBeNull();
  expect(res.errors?.length).toBeGreaterThanOrEqual(1);
  expect(res.errors![0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
  expect(res.errors![0].message).toMatch(message);
}

/** Producer → purchases → node → producer → … : four levels per turn. */
function nested(turns: number): string {
  let q = 'id';
  for (let i = 0; i < turns; i++) q = `purchases { edges { node { producer { ${q} } } } }`;
  return `{ producer(id: "${producerId}") { ${q} } }`;
}

test('a query 40 levels deep is refused with QUERY_TOO_COMPLEX before anything runs', async () => {
  api.statements.reset();
  const res = await api.gql(nested(10)); // 1 + 4 × 10 levels + id
  expectTooComplex(res, new RegExp(`depth limit of ${LIMITS.maxDepth}`, 'i'));
  expect(api.statements.count).toBe(0);
});

test('a query just within the depth limit runs', async () => {
  const data = await api.ok(nested(2)); // producer + 8 + id = 10 levels
  expect(data.producer).toEqual({ purchases: { edges: [] } });
});

test('fragments add no depth: 10 field levels written through fragment spreads and inline fragments run; 14 inside fragments are refused', async () => {
  // producer → purchases → edges → node → producer → purchases → edges → node → producer → id,
  // through four named fragments and two inline ones (20 levels if each counted as a level).
  const within = await api.ok(`{ producer(id: "${producerId}") { ...A } }
    fragment A on Producer { ... on Producer { purchases { ...B } } }
    fragment B on PurchaseConnection { edges { ... { node { ...C } } } }
    fragment C on Purchase { producer { ...D } }
    fragment D on Producer { purchases { edges { node { producer { id } } } } }`);
  expect(within.producer).toEqual({ purchases: { edges: [] } });
  api.statements.reset();
  const deep = await api.gql(`{ producer(id: "${producerId}") { ...T1 } }
    fragment T1 on Producer { purchases { edges { node { producer { ...T2 } } } } }
    fragment T2 on Producer { purchases { edges { node { producer { ...T3 } } } } }
    fragment T3 on Producer { purchases { edges { node { producer { id } } } } }`);
  expectTooComplex(deep, new RegExp(`depth limit of ${LIMITS.maxDepth}`, 'i'));
  expect(api.statements.count).toBe(0);
});

test('1000 aliases are refused with QUERY_TOO_COMPLEX', async () => {
  const query = `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: producers { totalCount }`).join(' ')} }`;
  api.statements.reset();
  expectTooComplex(await api.gql(query), new RegExp(`Aliases limit of ${LIMITS.maxAliases}`, 'i'));
  expect(api.statements.count).toBe(0);
  // a handful of aliases is normal use
  const data = await api.ok(`{ a: producers { totalCount } b: producers { totalCount } }`);
  expect(data).toEqual({ a: { totalCount: 1 }, b: { totalCount: 1 } });
});

test('a cost bomb of nested connections within the depth limit is refused with QUERY_TOO_COMPLEX', async () => {
  const query = `{ producers(first: 100) { edges { node { purchases(first: 100) { edges { node { producer { contracts(first: 100) { edges { node { id } } } } } } } } } } }`;
  api.statements.reset();
  expectTooComplex(await api.gql(query), /Query Cost limit of 50000 exceeded/);
  expect(api.statements.count).toBe(0);
});

test('a cost bomb with page sizes in variables, or left to the default, is refused with QUERY_TOO_COMPLEX', async () => {
  const query = `query ($n: Int) { producers(first: $n) { edges { node { purchases(first: $n) { edges { node { producer { contracts(first: $n) { edges { node { id } } } } } } } } } } }`;
  api.statements.reset();
  // 100 × 100 × 100 contracts' ids, and the edges and nodes around them: over 100,000 fields
  expectTooComplex(await api.gql(query, { n: 100 }), /fans out to about \d+ fields, over the limit of 100000/);
  expect(api.statements.count).toBe(0);
  // the default page size (20) three connections deep: 20³ = 8,000 contracts of 14 fields each
  const defaults = `{ producers { edges { node { purchases { edges { node { producer { contracts { edges { cursor node { id signedOn validFrom validUntil feedstock quantityKg pricePerKg technicalAssistance producer { id legalName cnpj } } } } } } } } } } } }`;
  expectTooComplex(await api.gql(defaults), /fans out to about/);
  // the same shape with small pages is fine: 2 × 2 × 2 contracts
  const small = await api.ok(query, { n: 2 });
  expect(small.producers.edges).toHaveLength(1);
});

test('the heavy legitimate page (20 producers × 50 purchases with names) is within the cost limit', async () => {
  const query = `{ producers(first: 20) { totalCount edges { cursor node { id legalName purchases(first: 50) { totalCount edges { node { id consumedOn quantityKg cost originMunicipality { name } } } } } } } }`;
  const data = await api.ok(query);
  expect(data.producers.totalCount).toBe(1);
  expect(data.producers.edges[0].node.purchases).toEqual({ totalCount: 0, edges: [] });
});

test('too many directives, or too many tokens, are refused with QUERY_TOO_COMPLEX', async () => {
  const directives = `{ producers { ${'totalCount @include(if: true) '.repeat(50)} } }`;
  expectTooComplex(await api.gql(directives), new RegExp(`Directives limit of ${LIMITS.maxDirectives}`, 'i'));
  const tokens = `{ producers { ${'totalCount '.repeat(LIMITS.maxTokens + 10)} } }`;
  expectTooComplex(await api.gql(tokens), /Token limit of 10000 exceeded/);
});

test('page size above 100 is BAD_USER_INPUT naming first', async () => {
  for (const query of ['{ producers(first: 101) { totalCount } }', '{ auditLog(first: 1000) { totalCount } }']) {
    const res = await api.gql(query);
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
  }
  const ok = await api.ok('{ producers(first: 100) { totalCount } }');
  expect(ok.producers.totalCount).toBe(1);
});

test('a body over 1 MB is answered 413 with a JSON error, and nothing is written', async () => {
  const filler = 'x'.repeat(1024 * 1024 + 10);
  const body = JSON.stringify({
    query: 'mutation ($name: String!) { upsertMunicipalities(input: [{ ibgeCode: "4314902", name: $name, semiarid: false }]) { ibgeCode } }',
    variables: { name: filler },
  });
  const res = await post(body);
  expect(res.status).toBe(413);
  expect(res.contentType).toMatch(/application\/json/);
  expect(res.json.errors[0]).toEqual({ message: 'Request body larger than 1mb', extensions: { code: 'PAYLOAD_TOO_LARGE', limit: '1mb' } });
  expect(await api.count(`SELECT count(*) FROM municipality WHERE ibge_code = '4314902'`)).toBe(0);
});

test('a body that is not JSON is a 400 with a JSON error', async () => {
  const res = await post('{"query": ');
  expect(res.status).toBe(400);
  expect(res.json.errors[0].extensions.code).toBe('BAD_REQUEST');
});

/** `[[[…]]]` or `{"a":{"a":…}}` as JSON text, `levels` deep, 0 inside. */
function deepJson(levels: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(levels)}0${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}0${'}'.repeat(levels)}`;
}

/** Levels of lists and input objects a variable of this type can hold (Infinity for a recursive input). */
function inputLevels(type: GraphQLInputType, seen: ReadonlySet<string> = new Set()): number {
  const t = isNonNullType(type) ? type.ofType : type;
  if (isListType(t)) return 1 + inputLevels(t.ofType, seen);
  if (!isInputObjectType(t)) return 0;
  if (seen.has(t.name)) return Infinity;
  const inner = Object.values(t.getFields()).map((f) => inputLevels(f.type, new Set([...seen, t.name])));
  return 1 + Math.max(0, ...inner);
}

test(`the schema's deepest input nests well within the variables' depth limit of ${LIMITS.maxVariableDepth}`, async () => {
  const schema = await getSchema();
  const args = [schema.getQueryType()!, schema.getMutationType()!].flatMap((root) => Object.values(root.getFields()).flatMap((f) => f.args));
  const deepest = Math.max(...args.map((a) => inputLevels(a.type)));
  expect(deepest).toBeGreaterThanOrEqual(2);
  expect(deepest).toBeLessThan(LIMITS.maxVariableDepth / 4);
});

describe('variables 6,000 levels deep (a 12 KB body) are refused 400 BAD_REQUEST before anything runs', () => {
  const operations = {
    // Sent as an attacker would: undeclared variables were still written into the introspection cache's key.
    'an introspection-only query': '{ __typename }',
    'an ordinary query': '{ producers { totalCount } }',
  };
  for (const [what, query] of Object.entries(operations)) {
    for (const kind of ['array', 'object'] as const) {
      test(`${kind}s, ${what}`, async () => {
        api.statements.reset();
        const res = await post(`{"query":${JSON.stringify(query)},"variables":{"x":${deepJson(6000, kind)}}}`);
        expect(res.status).toBe(400);
        expect(res.json.errors[0]).toEqual({
          message: `A variable nests arrays or objects more than ${LIMITS.maxVariableDepth} levels deep, deeper than any input of the schema`,
          extensions: { code: 'BAD_REQUEST', limit: LIMITS.maxVariableDepth },
        });
        expect(res.json.data).toBeUndefined();
        expect(api.statements.count).toBe(0);
      });
    }
  }

  test('in a GET request too (1,000 levels: a URL is bounded by the header size)', async () => {
    const url = `${api.url}?query=${encodeURIComponent('query ($x: [Int]) { __typename }')}&variables=${encodeURIComponent(`{"x":${deepJson(1000, 'array')}}`)}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${await api.token()}`, 'apollo-require-preflight': 'true' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ extensions: unknown }> }).errors[0].extensions).toEqual({ code: 'BAD_REQUEST', limit: LIMITS.maxVariableDepth });
  });

  test(`at the limit (${LIMITS.maxVariableDepth} levels) a variable reaches GraphQL, which judges its type; a normal nested input still works`, async () => {
    const atLimit = await post(`{"query":"query ($x: [Int]) { __typename }","variables":{"x":${deepJson(LIMITS.maxVariableDepth, 'array')}}}`);
    expect(atLimit.status).toBe(400);
    expect(atLimit.json.errors[0].message).toMatch(/\$x/);
    expect(atLimit.json.errors[0].extensions.limit).toBeUndefined();
    const res = await post(JSON.stringify({
      query: 'mutation ($input: [MunicipalityInput!]!) { upsertMunicipalities(input: $input) { ibgeCode name } }',
      variables: { input: [{ ibgeCode: '2304400', name: 'Fortaleza', semiarid: false }] },
    }));
    expect(res.status).toBe(200);
    expect(res.json.data.upsertMunicipalities).toEqual([{ ibgeCode: '2304400', name: 'Fortaleza' }]);
    const introspection = await post(JSON.stringify({ query: 'query ($n: String!) { __type(name: $n) { name } }', variables: { n: 'MunicipalityInput', extra: [[{ a: [1] }]] } }));
    expect(introspection.json).toEqual({ data: { __type: { name: 'MunicipalityInput' } } });
  });
});

test('field suggestions are hidden: a misspelt field does not reveal the schema', async () => {
  const res = await api.gql('{ produce(id: "1") { id } }');
  expect(res.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  expect(res.errors?.[0].message).toMatch(/Cannot query field "produce" on type "Query"/);
  expect(res.errors?.[0].message).not.toMatch(/Did you mean|producer/);
  // The whole suggestion goes, not its words only (no stray " ?" after the sentence), enum values' too.
  expect(res.errors?.[0].message).toBe('Cannot query field "produce" on type "Query".');
  const argument = await api.gql('{ producers(firs: 2) { totalCount } }');
  expect(argument.errors?.[0].message).toBe('Unknown argument "firs" on field "Query.producers".');
  const enumValue = await api.gql('{ minimumPrices(feedstock: SOYBAN, on: "2026-01-01") { pricePerKg } }');
  expect(enumValue.errors?.map((e) => e.message)).toContain('Value "SOYBAN" does not exist in "Feedstock" enum.');
  // without a token the caller learns nothing at all about the schema
  const anonymous = await api.gql('{ produce(id: "1") { id } }', {}, null);
  expect(anonymous.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
  expect(JSON.stringify(anonymous)).not.toMatch(/producer|Did you mean/);
});

test('batched requests are refused', async () => {
  const res = await post(JSON.stringify([{ query: '{ producers { totalCount } }' }, { query: '{ producers { totalCount } }' }]));
  expect(res.status).toBe(400);
});

test('an unexpected error is masked as INTERNAL_SERVER_ERROR with the request id; details only in the log', async () => {
  const lines: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => { lines.push(line); } });
  const app = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger });
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}/graphql`;
  await api.db.dataSource.query('ALTER TABLE producer RENAME TO producer_moved');
  try {
    const http = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await api.token()}` }, body: JSON.stringify({ query: '{ producers { totalCount } }' }) });
    const res = { requestId: http.headers.get('x-request-id'), json: (await http.json()) as any };
    const [error] = res.json.errors;
    expect(error.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', requestId: res.requestId });
    expect(res.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.message).toBe(`Internal error (request ${res.requestId})`);
    expect(JSON.stringify(res.json)).not.toMatch(/relation|producer_moved|SELECT|stack/i);
    // the details are in the log, under the same request id
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unexpected error');
    expect(logged).toMatchObject({ requestId: res.requestId });
    expect(logged.err.message).toBe('relation "producer" does not exist');
  } finally {
    await api.db.dataSource.query('ALTER TABLE producer_moved RENAME TO producer');
    await app.stop();
  }
});

test('a request still unanswered after the timeout is answered 503 with a JSON error', async () => {
  const express = (await import('express')).default;
  const { requestTimeout } = await import('../../src/graphql/limits');
  const app = express();
  app.use(requestTimeout(50));
  app.get('/slow', () => { /* never answers */ });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/slow`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ errors: [{ message: 'Request timed out after 50 ms; a mutation may still complete, so check before retrying', extensions: { code: 'REQUEST_TIMEOUT' } }] });
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
