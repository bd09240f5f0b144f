import http from 'node:http';
import { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import pino from 'pino';
import { hs256 } from '../../src/graphql/auth/token';
import { createApp, RunningApp } from '../../src/server';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';

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
