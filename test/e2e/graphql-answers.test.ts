import http from 'node:http';
import { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import pino from 'pino';
import { hs256 } from '../../src/graphql/auth/token';
import { createApp, RunningApp } from '../../src/server';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';
import { createProducer, newCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * POST /graphql as the one request path answers it (Express's middleware, then Apollo Server with
 * the API's plugin): the status, headers and bytes of answers and refusals — of the body (over the
 * limit, not JSON, empty), of the token and of GraphQL —, compressed and small answers, languages,
 * request ids and traces.
 */
let api: TestApi;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  token = await api.token();
});
afterAll(async () => {
  await api.close();
});

interface RawAnswer { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }

/** A request as sent, its answer as it came over the wire (`chunks`: a body sent chunked, without Content-Length). */
function raw(base: string, path: string, headers: Record<string, string>, body: string | Buffer | string[]): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (Array.isArray(body)) {
      for (const part of body) req.write(part);
      req.end();
    } else {
      req.end(body);
    }
  });
}

const apiBase = () => api.url.replace('/graphql', '');

/** The server's answer to a request. */
function answer(headers: Record<string, string>, body: string | Buffer | string[], path = '/graphql', base = apiBase()): Promise<RawAnswer> {
  return raw(base, path, headers, body);
}

const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': 'req-1', ...extra });
const errorsOf = (a: RawAnswer) => (JSON.parse(a.bytes.toString('utf8')) as { errors?: Array<{ message: string; extensions?: { code?: string } }> }).errors ?? [];

test('a query: its bytes and headers', async () => {
  const a = await answer(json(), JSON.stringify({ query: '{ __typename }' }));
  expect(a.status).toBe(200);
  expect(a.bytes.toString()).toBe('{"data":{"__typename":"Query"}}\n');
  expect(a.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1', vary: 'Accept-Encoding', 'content-length': '32' });
  // A query string, a stated charset, the GraphQL response media type asked for, a variables' error.
  await answer(json({ 'content-type': 'application/json; charset=utf-8' }), JSON.stringify({ query: '{ __typename }' }), '/graphql?x=1');
  expect((await answer(json({ accept: 'application/graphql-response+json' }), JSON.stringify({ query: '{ nope }' }))).status).toBe(400);
  expect((await answer(json(), JSON.stringify({ query: '{ __typename }', variables: 'a' }))).status).toBe(400);
});

test('refused bodies: over 1 MB (declared or sent chunked), not JSON, a JSON scalar, blank, empty, a batch', async () => {
  const big = JSON.stringify({ query: '{ __typename }', variables: { x: 'x'.repeat(1024 * 1024) } });
  const declared = await answer(json(), big);
  expect(declared.status).toBe(413);
  expect(errorsOf(declared)[0].extensions?.code).toBe('PAYLOAD_TOO_LARGE');
  const chunked = await answer(json(), [big.slice(0, 600_000), big.slice(600_000)]);
  expect(chunked.status).toBe(413);
  // Exactly at the limit is read (and then refused by GraphQL for what it says, not for its size).
  const atLimit = JSON.stringify({ query: '{ __typename }' }).padEnd(1024 * 1024, ' ');
  expect((await answer(json(), atLimit)).status).toBe(200);
  for (const body of ['{"query": ', '"{ __typename }"', '  \n', 'nul']) {
    const a = await answer(json(), body);
    expect(a.status).toBe(400);
    expect(errorsOf(a)[0].extensions?.code).toBe('BAD_REQUEST');
  }
  expect((await answer(json(), '')).status).toBe(400);
  expect((await answer(json(), JSON.stringify([{ query: '{ __typename }' }]))).status).toBe(400);
});

test('a body with a byte order mark is read without it', async () => {
  const a = await answer(json(), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ query: '{ __typename }' }))]));
  expect(a.status).toBe(200);
});

test('no token, a bad token: 401 UNAUTHENTICATED, in the language asked', async () => {
  const anonymous = await answer({ 'content-type': 'application/json', 'x-request-id': 'r2' }, JSON.stringify({ query: '{ __typename }' }));
  expect(anonymous.status).toBe(401);
  const bad = await answer(json({ authorization: 'Bearer nope', 'accept-language': 'pt-BR' }), JSON.stringify({ query: '{ __typename }' }));
  expect(errorsOf(bad)[0].extensions?.code).toBe('UNAUTHENTICATED');
  expect(errorsOf(bad)[0].message).not.toBe(errorsOf(anonymous)[0].message);
});

test('an answer over 1 KB is compressed as asked; the request id and trace are kept', async () => {
  const query = JSON.stringify({ query: '{ __schema { types { name kind } } }' });
  const trace = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  for (const encoding of ['gzip', 'br']) {
    const a = await answer(json({ 'accept-encoding': encoding, traceparent: trace }), query);
    expect(a.headers['content-encoding']).toBe(encoding);
    expect(a.headers.vary).toBe('Accept-Encoding');
    const text = (encoding === 'gzip' ? zlib.gunzipSync(a.bytes) : zlib.brotliDecompressSync(a.bytes)).toString();
    expect(JSON.parse(text).data.__schema.types.length).toBeGreaterThan(20);
  }
  const plain = await answer(json(), query);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(Number(plain.headers['content-length'])).toBeGreaterThan(1024);
});

test('CORS: a listed origin is answered with its headers, another with none', async () => {
  const app = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), corsOrigins: ['https://app.example.gov.br'] });
  const bases = await listen(app);
  try {
    const body = JSON.stringify({ query: '{ __typename }' });
    const listed = await answer(json({ origin: 'https://app.example.gov.br' }), body, '/graphql', bases);
    expect(listed.headers).toMatchObject({ 'access-control-allow-origin': 'https://app.example.gov.br', 'access-control-expose-headers': 'x-request-id,retry-after', vary: 'Origin, Accept-Encoding' });
    const other = await answer(json({ origin: 'https://elsewhere.example' }), body, '/graphql', bases);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.status).toBe(200);
  } finally {
    await app.stop();
  }
});

test('the request is counted and logged', async () => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => { lines.push(JSON.parse(line) as Record<string, unknown>); } });
  const app = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger });
  const url = await listen(app);
  try {
    const res = await raw(url, '/graphql?a=b', json({ 'x-request-id': 'logged-1' }), JSON.stringify({ query: 'query Named { __typename }' }));
    expect(res.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.find((l) => l.msg === 'request')).toMatchObject({ requestId: 'logged-1', method: 'POST', path: '/graphql', operation: 'Named', status: 200 });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/selo_http_requests_total\{route="\/graphql",method="POST",status="200"\} 1/);
  } finally {
    await app.stop();
  }
});

test('a request unanswered in time is answered 503 REQUEST_TIMEOUT, with its request id', async () => {
  const app = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), requestTimeoutMs: 300 });
  const url = await listen(app);
  const lock = api.db.dataSource.createQueryRunner();
  await lock.connect();
  await lock.startTransaction();
  try {
    await lock.query('LOCK TABLE producer IN ACCESS EXCLUSIVE MODE');
    const res = await raw(url, '/graphql', json({ 'x-request-id': 'slow-1', 'accept-language': 'pt-BR' }), JSON.stringify({ query: '{ producers { totalCount } }' }));
    expect(res.status).toBe(503);
    expect(res.headers['x-request-id']).toBe('slow-1');
    expect(errorsOf(res)[0].extensions?.code).toBe('REQUEST_TIMEOUT');
    expect(errorsOf(res)[0].message).toMatch(/300 ms/);
    expect(errorsOf(res)[0].message).not.toMatch(/Request timed out/);
  } finally {
    await lock.rollbackTransaction();
    await lock.release();
    await app.stop();
  }
});

async function listen(app: RunningApp): Promise<string> {
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}`;
}

/** Reads, errors met while executing and refusals before execution, as Apollo Server answers them. */
describe('Apollo Server answers', () => {
  let producerId: string;
  beforeAll(async () => {
    await upsertMunicipalities(api, [RECIFE]);
    producerId = await createProducer(api, 'Usina Sertão "Ltda"');
  });

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const a = await answer(json(headers), JSON.stringify(body));
    return { answer: a, body: JSON.parse(a.bytes.toString('utf8')) as { data?: Record<string, any>; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };
  };

  test('reads with variables, fragments, aliases, several operations and an operationName; the media type asked', async () => {
    const page = await post({
      query: 'query Page($first: Int) { producers(first: $first) { totalCount edges { node { ...P } } } one: producer(id: "' + producerId + '") { id ...P } } fragment P on Producer { legalName cnpj }',
      variables: { first: 5 },
    });
    expect(page.answer.status).toBe(200);
    expect(page.body.data!.one.legalName).toBe('Usina Sertão "Ltda"');
    expect(page.body.data!.producers.totalCount).toBeGreaterThanOrEqual(1);
    const named = await post({ query: 'query A { __typename } query B { producers(first: 1) { totalCount } }', operationName: 'B', variables: null, extensions: { client: 'x' } });
    expect(Object.keys(named.body.data!)).toEqual(['producers']);
    for (const accept of ['application/graphql-response+json', '*/*', 'application/json, text/plain']) {
      const typed = await post({ query: '{ __typename }' }, { accept });
      expect(typed.answer.headers['content-type']).toBe(accept.startsWith('application/graphql') ? 'application/graphql-response+json; charset=utf-8' : 'application/json; charset=utf-8');
    }
  });

  test("errors met while executing — a lookup's NOT_FOUND, a role's FORBIDDEN, a service's BAD_USER_INPUT — in the language asked", async () => {
    const missing = await post({ query: '{ regimeElections(producerId: "987654321") { effectiveYear } }' }, { 'accept-language': 'pt-BR' });
    expect(missing.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const producerToken = await api.token({ role: 'PRODUCER', producerId });
    const refused = await post({ query: 'mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Recife", semiarid: false }]) { ibgeCode } }' }, { authorization: `Bearer ${producerToken}` });
    expect(refused.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const before = await api.count('SELECT count(*) FROM seal_grant');
    const bad = await post({ query: 'mutation($i: GrantSealInput!) { grantSeal(input: $i) { id } }', variables: { i: { producerId, grantedOn: '2025-01-01', validUntil: '2024-12-31' } } });
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await api.count('SELECT count(*) FROM seal_grant')).toBe(before);
  });

  test('the fan-out is counted again for each request: a document kept by Apollo, with and without variables', async () => {
    const literal = '{ producers(first: 100) { edges { node { purchases(first: 100) { edges { node { id purchasedOn consumedOn feedstock quantityKg cost supplierKind purpose } } } } } } }';
    const byVariable = 'query($n: Int) { producers(first: $n) { edges { node { purchases(first: $n) { edges { node { id purchasedOn consumedOn feedstock quantityKg cost supplierKind purpose } } } } } } }';
    const codes = [];
    for (const body of [{ query: literal }, { query: literal }, { query: byVariable, variables: { n: 2 } }, { query: byVariable, variables: { n: 100 } }, { query: byVariable, variables: { n: 2 } }]) {
      const a = await post(body);
      codes.push([a.answer.status, a.body.errors?.[0]?.extensions?.code ?? 'ok']);
    }
    expect(codes).toEqual([[400, 'QUERY_TOO_COMPLEX'], [400, 'QUERY_TOO_COMPLEX'], [200, 'ok'], [400, 'QUERY_TOO_COMPLEX'], [200, 'ok']]);
  });

  test('every refusal before execution: its status and code', async () => {
    const refusals: Array<[unknown, Record<string, string>, number, string | undefined]> = [
      [{ query: '{ nope }' }, {}, 400, 'GRAPHQL_VALIDATION_FAILED'],
      [{ query: '{ producers(first: 1) { totalCount }' }, {}, 400, 'GRAPHQL_PARSE_FAILED'],
      [{ query: 'query A { __typename } query B { __typename }' }, {}, 400, 'OPERATION_RESOLUTION_FAILURE'],
      [{ query: '{ __typename }', operationName: 'Missing' }, {}, 400, 'OPERATION_RESOLUTION_FAILURE'],
      [{ query: 'query($n: Int!) { producers(first: $n) { totalCount } }', variables: { n: 'many' } }, {}, 400, 'BAD_USER_INPUT'],
      [{ query: 'query($n: Int!) { producers(first: $n) { totalCount } }' }, {}, 400, 'BAD_USER_INPUT'],
      // The page sizes in variables: past the static cost rule, refused by the fan-out check (a request hook).
      [{ query: 'query($n: Int) { producers(first: $n) { edges { node { purchases(first: $n) { edges { node { id purchasedOn consumedOn feedstock quantityKg cost supplierKind purpose } } } } } } }', variables: { n: 100 } }, {}, 400, 'QUERY_TOO_COMPLEX'],
      [{ query: 'mutation($i: CreateProducerInput!) { createProducer(input: $i) { id } }', variables: { i: { cnpj: newCnpj(), legalName: 'a\u0000b', plantMunicipalityCode: RECIFE } } }, {}, 400, 'BAD_USER_INPUT'],
      [{ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }, {}, 400, 'BAD_REQUEST'],
      [{ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }, {}, 200, 'PERSISTED_QUERY_NOT_FOUND'],
      [{ query: '{ __typename }' }, { accept: 'text/html' }, 406, 'BAD_REQUEST'],
      [{ query: '{ __typename }' }, { authorization: 'Bearer nope' }, 401, 'UNAUTHENTICATED'],
      [{ query: '{ __typename }', operationName: 7 }, {}, 400, 'BAD_REQUEST'],
      [{ query: '' }, {}, 400, 'BAD_REQUEST'],
    ];
    for (const [body, headers, status, code] of refusals) {
      const a = await post(body, headers);
      expect({ body, status: a.answer.status, code: a.body.errors?.[0]?.extensions?.code }).toEqual({ body, status, code });
    }
  });

  test('a variable with more than 50 bad values: every error BAD_USER_INPUT, the limit graphql-js adds too, in the language asked', async () => {
    const establishments = Array.from({ length: 60 }, () => '11111111111111');
    const a = await post({ query: 'mutation($i: UpdateProducerInput!) { updateProducer(id: "1", expectedVersion: 1, input: $i) { id } }', variables: { i: { establishments } } }, { 'accept-language': 'pt-BR' });
    expect(a.answer.status).toBe(400);
    const errors = a.body.errors ?? [];
    expect(errors).toHaveLength(51);
    expect(new Set(errors.map((e) => e.extensions?.code))).toEqual(new Set(['BAD_USER_INPUT']));
    expect(errors[50].message).toBe('Erros demais nas variáveis: o limite foi atingido e a execução, interrompida.');
  });
});
