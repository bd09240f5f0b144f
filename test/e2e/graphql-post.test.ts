import http from 'node:http';
import { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import pino from 'pino';
import { hs256 } from '../../src/graphql/auth/token';
import { parse } from 'graphql';
import { DocumentCache } from '../../src/graphql/pipeline';
import { createApp, RunningApp } from '../../src/server';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';
import { createProducer, newCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * POST /graphql is served by a handler of its own in front of the Express app
 * (src/http/graphql-post.ts). The same application served by its Express app alone is the
 * reference: every request below gets, from both, the same status, the same headers and the
 * same bytes — the refusals of the body (over the limit, not JSON, empty), of the token and of
 * GraphQL, compressed and small answers, languages, request ids and traces.
 */
let api: TestApi;
let token: string;
let expressOnly: http.Server;
let expressUrl: string;

beforeAll(async () => {
  api = await startTestApi();
  token = await api.token();
  expressOnly = http.createServer(api.app.app);
  await new Promise<void>((resolve) => expressOnly.listen(0, '127.0.0.1', resolve));
  expressUrl = `http://127.0.0.1:${(expressOnly.address() as AddressInfo).port}`;
});
afterAll(async () => {
  expressOnly.closeAllConnections();
  await new Promise((resolve) => expressOnly.close(resolve));
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

/** The answer of both servers to the same request, headers without the ones that change with the moment. */
async function both(headers: Record<string, string>, body: string | Buffer | string[], path = '/graphql', [leanBase, referenceBase] = [apiBase(), expressUrl]) {
  const [lean, reference] = await Promise.all([raw(leanBase, path, headers, body), raw(referenceBase, path, headers, body)]);
  const comparable = (a: RawAnswer) => {
    const { date: _date, 'keep-alive': _keepAlive, connection: _connection, ...rest } = a.headers;
    void _date; void _keepAlive; void _connection;
    return { status: a.status, headers: rest, body: a.bytes.toString('latin1') };
  };
  expect(comparable(lean)).toEqual(comparable(reference));
  return lean;
}

const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': 'req-1', ...extra });
const errorsOf = (a: RawAnswer) => (JSON.parse(a.bytes.toString('utf8')) as { errors?: Array<{ message: string; extensions?: { code?: string } }> }).errors ?? [];

test('a query, its answer and its headers are the same as through Express', async () => {
  const a = await both(json(), JSON.stringify({ query: '{ __typename }' }));
  expect(a.status).toBe(200);
  expect(a.bytes.toString()).toBe('{"data":{"__typename":"Query"}}\n');
  expect(a.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1', vary: 'Accept-Encoding', 'content-length': '32' });
  // A query string, a stated charset, the GraphQL response media type asked for, a variables' error.
  await both(json({ 'content-type': 'application/json; charset=utf-8' }), JSON.stringify({ query: '{ __typename }' }), '/graphql?x=1');
  expect((await both(json({ accept: 'application/graphql-response+json' }), JSON.stringify({ query: '{ nope }' }))).status).toBe(400);
  expect((await both(json(), JSON.stringify({ query: '{ __typename }', variables: 'a' }))).status).toBe(400);
});

test('refused bodies: over 1 MB (declared or sent chunked), not JSON, a JSON scalar, blank, empty, a batch', async () => {
  const big = JSON.stringify({ query: '{ __typename }', variables: { x: 'x'.repeat(1024 * 1024) } });
  const declared = await both(json(), big);
  expect(declared.status).toBe(413);
  expect(errorsOf(declared)[0].extensions?.code).toBe('PAYLOAD_TOO_LARGE');
  const chunked = await both(json(), [big.slice(0, 600_000), big.slice(600_000)]);
  expect(chunked.status).toBe(413);
  // Exactly at the limit is read (and then refused by GraphQL for what it says, not for its size).
  const atLimit = JSON.stringify({ query: '{ __typename }' }).padEnd(1024 * 1024, ' ');
  expect((await both(json(), atLimit)).status).toBe(200);
  for (const body of ['{"query": ', '"{ __typename }"', '  \n', 'nul']) {
    const a = await both(json(), body);
    expect(a.status).toBe(400);
    expect(errorsOf(a)[0].extensions?.code).toBe('BAD_REQUEST');
  }
  expect((await both(json(), '')).status).toBe(400);
  expect((await both(json(), JSON.stringify([{ query: '{ __typename }' }]))).status).toBe(400);
});

test('a body with a byte order mark is read without it', async () => {
  const a = await both(json(), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ query: '{ __typename }' }))]));
  expect(a.status).toBe(200);
});

test('no token, a bad token: 401 UNAUTHENTICATED, in the language asked', async () => {
  const anonymous = await both({ 'content-type': 'application/json', 'x-request-id': 'r2' }, JSON.stringify({ query: '{ __typename }' }));
  expect(anonymous.status).toBe(401);
  const bad = await both(json({ authorization: 'Bearer nope', 'accept-language': 'pt-BR' }), JSON.stringify({ query: '{ __typename }' }));
  expect(errorsOf(bad)[0].extensions?.code).toBe('UNAUTHENTICATED');
  expect(errorsOf(bad)[0].message).not.toBe(errorsOf(anonymous)[0].message);
});

test('an answer over 1 KB is compressed as asked; the request id and trace are kept', async () => {
  const query = JSON.stringify({ query: '{ __schema { types { name kind } } }' });
  const trace = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  for (const encoding of ['gzip', 'br']) {
    const a = await both(json({ 'accept-encoding': encoding, traceparent: trace }), query);
    expect(a.headers['content-encoding']).toBe(encoding);
    expect(a.headers.vary).toBe('Accept-Encoding');
    const text = (encoding === 'gzip' ? zlib.gunzipSync(a.bytes) : zlib.brotliDecompressSync(a.bytes)).toString();
    expect(JSON.parse(text).data.__schema.types.length).toBeGreaterThan(20);
  }
  const plain = await both(json(), query);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(Number(plain.headers['content-length'])).toBeGreaterThan(1024);
});

test('CORS: a listed origin is answered with its headers, another with none, as through Express', async () => {
  const app = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), corsOrigins: ['https://app.example.gov.br'] });
  const url = await listen(app);
  const reference = http.createServer(app.app);
  await new Promise<void>((resolve) => reference.listen(0, '127.0.0.1', resolve));
  const bases: [string, string] = [url, `http://127.0.0.1:${(reference.address() as AddressInfo).port}`];
  try {
    const body = JSON.stringify({ query: '{ __typename }' });
    const listed = await both(json({ origin: 'https://app.example.gov.br' }), body, '/graphql', bases);
    expect(listed.headers).toMatchObject({ 'access-control-allow-origin': 'https://app.example.gov.br', 'access-control-expose-headers': 'x-request-id,retry-after', vary: 'Origin, Accept-Encoding' });
    const other = await both(json({ origin: 'https://elsewhere.example' }), body, '/graphql', bases);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.status).toBe(200);
  } finally {
    reference.closeAllConnections();
    await new Promise((resolve) => reference.close(resolve));
    await app.stop();
  }
});

test('the request is counted and logged as through Express', async () => {
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

/**
 * The API's own pipeline (src/graphql/pipeline.ts) answers the ordinary requests and leaves every
 * other to Apollo Server: for each request below, both servers' answers are the same bytes, and
 * Apollo Server was asked only by the reference (the pipeline answered) or by both (it was left
 * to Apollo) — as the request's kind says.
 */
describe("the API's own pipeline", () => {
  let producerId: string;
  let asked: jest.SpyInstance;
  beforeAll(async () => {
    await upsertMunicipalities(api, [RECIFE]);
    producerId = await createProducer(api, 'Usina Sertão "Ltda"');
  });
  beforeEach(() => { asked = jest.spyOn(api.app.apollo, 'executeHTTPGraphQLRequest'); });
  afterEach(() => asked.mockRestore());

  /** Both servers' answer to `body` (compared), and whether the pipeline answered it (Apollo asked once, by the reference). */
  const viaPipeline = async (body: unknown, headers: Record<string, string> = {}) => {
    asked.mockClear();
    const a = await both(json(headers), JSON.stringify(body));
    return { answer: a, pipeline: asked.mock.calls.length === 1, body: JSON.parse(a.bytes.toString('utf8')) as { data?: Record<string, any>; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };
  };

  test('reads with variables, fragments, aliases, several operations and an operationName are answered by the pipeline, as by Apollo', async () => {
    const page = await viaPipeline({
      query: 'query Page($first: Int) { producers(first: $first) { totalCount edges { node { ...P } } } one: producer(id: "' + producerId + '") { id ...P } } fragment P on Producer { legalName cnpj }',
      variables: { first: 5 },
    });
    expect(page.pipeline).toBe(true);
    expect(page.answer.status).toBe(200);
    expect(page.body.data!.one.legalName).toBe('Usina Sertão "Ltda"');
    expect(page.body.data!.producers.totalCount).toBeGreaterThanOrEqual(1);
    const named = await viaPipeline({ query: 'query A { __typename } query B { producers(first: 1) { totalCount } }', operationName: 'B', variables: null, extensions: { client: 'x' } });
    expect(named.pipeline).toBe(true);
    expect(Object.keys(named.body.data!)).toEqual(['producers']);
    for (const accept of ['application/graphql-response+json', '*/*', 'application/json, text/plain']) {
      const typed = await viaPipeline({ query: '{ __typename }' }, { accept });
      expect(typed.pipeline).toBe(true);
      expect(typed.answer.headers['content-type']).toBe(accept.startsWith('application/graphql') ? 'application/graphql-response+json; charset=utf-8' : 'application/json; charset=utf-8');
    }
  });

  test("errors met while executing — a lookup's NOT_FOUND, a role's FORBIDDEN, a service's BAD_USER_INPUT — are formatted and given their status as by Apollo, in the language asked", async () => {
    const missing = await viaPipeline({ query: '{ regimeElections(producerId: "987654321") { effectiveYear } }' }, { 'accept-language': 'pt-BR' });
    expect(missing.pipeline).toBe(true);
    expect(missing.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const producerToken = await api.token({ role: 'PRODUCER', producerId });
    const refused = await viaPipeline({ query: 'mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Recife", semiarid: false }]) { ibgeCode } }' }, { authorization: `Bearer ${producerToken}` });
    expect(refused.pipeline).toBe(true);
    expect(refused.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const before = await api.count('SELECT count(*) FROM seal_grant');
    const bad = await viaPipeline({ query: 'mutation($i: GrantSealInput!) { grantSeal(input: $i) { id } }', variables: { i: { producerId, grantedOn: '2025-01-01', validUntil: '2024-12-31' } } });
    expect(bad.pipeline).toBe(true);
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await api.count('SELECT count(*) FROM seal_grant')).toBe(before);
  });

  test('a mutation is executed once, by the pipeline', async () => {
    asked.mockClear();
    const before = await api.count('SELECT count(*) FROM producer');
    const id = await createProducer(api, 'Usina Pipeline');
    expect(asked).not.toHaveBeenCalled();
    expect(await api.count('SELECT count(*) FROM producer')).toBe(before + 1);
    expect((await api.ok(`{ producer(id: "${id}") { legalName } }`)).producer.legalName).toBe('Usina Pipeline');
  });

  test('introspection, then the same from the cache of its answers', async () => {
    const first = await viaPipeline({ query: '{ __schema { queryType { name } } }' });
    const second = await viaPipeline({ query: '{ __schema { queryType { name } } }' });
    expect(first.pipeline && second.pipeline).toBe(true);
    expect(second.body.data!.__schema.queryType.name).toBe('Query');
  });

  test('every refusal before execution is left to Apollo, which answers it as always', async () => {
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
      const a = await viaPipeline(body, headers);
      expect({ body, pipeline: a.pipeline, status: a.answer.status, code: a.body.errors?.[0]?.extensions?.code }).toEqual({ body, pipeline: false, status, code });
    }
  });
});

test("the pipeline's parsed documents stay within their bounds, the oldest dropped first", () => {
  const cache = new DocumentCache(3, 40, 20);
  const doc = parse('{ __typename }');
  for (const text of ['{ a }', '{ b }', '{ c }']) cache.set(text, doc);
  // The same text twice (two requests at once) is kept, and counted, once.
  cache.set('{ c }', doc);
  expect(cache.size).toEqual({ documents: 3, characters: 15 });
  cache.set('{ d }', null);
  expect(cache.get('{ a }')).toBeUndefined();
  expect(cache.get('{ d }')).toBeNull();
  expect(cache.get('{ b }')).toBe(doc);
  // A text longer than one may be is not kept; characters past the bound drop the oldest.
  cache.set(`{ ${'x'.repeat(30)} }`, doc);
  expect(cache.size.documents).toBe(3);
  cache.set(`{ ${'y'.repeat(15)} }`, doc);
  expect(cache.size).toEqual({ documents: 3, characters: 29 });
  expect(cache.get('{ b }')).toBeUndefined();
});
