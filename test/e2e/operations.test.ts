import { Writable } from 'node:stream';
import { AddressInfo } from 'node:net';
import { hs256 } from '../../src/graphql/auth/token';
import { createLogger } from '../../src/logger';
import { createApp, RunningApp } from '../../src/server';
import { startTestApi, TestApi, TEST_SECRET } from '../support/api';
import { createTestDatabase, TestDatabase } from '../support/database';
import { newCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { tokenBanner } from '../../src/banner';

// Operations endpoints and figures (the README): health, readiness, Prometheus metrics, request ids.

let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api.close(); });

const base = () => api.url.replace(/\/graphql$/, '');

async function post(query: string, init: { operationName?: string; requestId?: string; token?: string | null } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = init.token === undefined ? await api.token() : init.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.requestId) headers['x-request-id'] = init.requestId;
  const res = await fetch(api.url, { method: 'POST', headers, body: JSON.stringify({ query, operationName: init.operationName }) });
  return { res, body: (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };
}

/** The value of one sample of the Prometheus text format, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.keys(labels).length === Object.keys(got).length && Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

test('/healthz answers without touching the database; /readyz says the database is reachable', async () => {
  const health = await fetch(`${base()}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });
  const ready = await fetch(`${base()}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ready' });
});

test('every response carries x-request-id: the caller\'s when given, else a fresh UUID', async () => {
  const given = await post('{ __typename }', { requestId: 'trace-abc-123' });
  expect(given.res.headers.get('x-request-id')).toBe('trace-abc-123');
  const fresh1 = await post('{ __typename }');
  const fresh2 = await post('{ __typename }');
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  expect(fresh1.res.headers.get('x-request-id')).toMatch(uuid);
  expect(fresh2.res.headers.get('x-request-id')).toMatch(uuid);
  expect(fresh1.res.headers.get('x-request-id')).not.toBe(fresh2.res.headers.get('x-request-id'));
});

test('/metrics shows the operations just run: requests and latency by operation name, errors by code, the pool', async () => {
  const before = await (await fetch(`${base()}/metrics`)).text();
  const runs = (name: string, type = 'query') => sample(before, 'selo_graphql_requests_total', { operation: name, type }) ?? 0;
  expect(runs('MetricsLookup')).toBe(0);

  const lookupsStarted = performance.now();
  for (let i = 0; i < 3; i++) {
    const { body } = await post('query MetricsLookup { municipality(ibgeCode: "2611606") { name } }');
    expect(body.errors).toBeUndefined();
  }
  // Two operations in one document: the one named by operationName is the one counted.
  const lookupSeconds = (performance.now() - lookupsStarted) / 1000;
  const pick = await post('query NotThis { __typename } query MetricsPicked { __typename }', { operationName: 'MetricsPicked' });
  expect(pick.body.errors).toBeUndefined();
  // A service error (BAD_USER_INPUT: an IBGE code must have 7 digits) and a validation error.
  const bad = await post('mutation MetricsBadCode { upsertMunicipalities(input: [{ ibgeCode: "123", name: "X", semiarid: false }]) { ibgeCode } }');
  expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  const invalid = await post('query MetricsInvalid { noSuchField }');
  expect(invalid.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');

  const res = await fetch(`${base()}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const text = await res.text();
  expect(sample(text, 'selo_graphql_requests_total', { operation: 'MetricsLookup', type: 'query' })).toBe(3);
  expect(sample(text, 'selo_graphql_requests_total', { operation: 'MetricsPicked', type: 'query' })).toBe(1);
  expect(sample(text, 'selo_graphql_requests_total', { operation: 'NotThis', type: 'query' })).toBeUndefined();
  expect(sample(text, 'selo_graphql_requests_total', { operation: 'MetricsBadCode', type: 'mutation' })).toBe(1);
  expect(sample(text, 'selo_graphql_request_duration_seconds_count', { operation: 'MetricsLookup' })).toBe(3);
  const sum = sample(text, 'selo_graphql_request_duration_seconds_sum', { operation: 'MetricsLookup' })!;
  // In seconds, not milliseconds: the three durations fit in the time the client waited for them.
  expect(sum).toBeGreaterThan(0);
  expect(sum).toBeLessThanOrEqual(lookupSeconds);
  expect(sample(text, 'selo_graphql_errors_total', { operation: 'MetricsBadCode', code: 'BAD_USER_INPUT' })).toBe(1);
  expect(sample(text, 'selo_graphql_errors_total', { operation: 'MetricsLookup', code: 'BAD_USER_INPUT' })).toBeUndefined();
  // A document that does not validate has no operation to name: counted as (invalid).
  expect(sample(text, 'selo_graphql_errors_total', { operation: '(invalid)', code: 'GRAPHQL_VALIDATION_FAILED' })).toBeGreaterThanOrEqual(1);
  // The test harness opens a pool of 5; at least the connection just used is open, none waits now.
  const total = sample(text, 'selo_db_pool_connections', { state: 'total' })!;
  expect(total).toBeGreaterThanOrEqual(1);
  expect(total).toBeLessThanOrEqual(5);
  expect(sample(text, 'selo_db_pool_connections', { state: 'idle' })).toBeLessThanOrEqual(total);
  expect(sample(text, 'selo_db_pool_waiting_requests')).toBe(0);
  expect(text).toContain('selo_process_cpu_user_seconds_total');
  // Every HTTP response, by route and status: the 401 of a request without a token too, which
  // never reaches an operation.
  const unauthenticated = sample(text, 'selo_http_requests_total', { route: '/graphql', method: 'POST', status: '401' }) ?? 0;
  await post('query MetricsNoToken { __typename }', { token: null });
  const after = await (await fetch(`${base()}/metrics`)).text();
  expect(sample(after, 'selo_http_requests_total', { route: '/graphql', method: 'POST', status: '401' })).toBe(unauthenticated + 1);
  expect(sample(after, 'selo_graphql_requests_total', { operation: 'MetricsNoToken', type: 'query' })).toBeUndefined();
  expect(sample(after, 'selo_http_requests_total', { route: '/metrics', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(2);
});

test('the start banner writes a producer\'s stored legal name with its control characters escaped: nothing reaches the terminal raw', async () => {
  await upsertMunicipalities(api, [RECIFE]);
  // Stored by SQL, as a name from before control characters were refused at input.
  const forged = 'Usina\u001b]0;pwned\u0007\r\n  ADMIN: Bearer forged\u202E';
  await api.db.dataSource.query('INSERT INTO producer (cnpj, legal_name, plant_municipality_code) VALUES ($1, $2, $3)', [newCnpj(), forged, RECIFE]);
  const banner = await tokenBanner('http://127.0.0.1:4000/graphql', 'selo-api.jwt-secret', TEST_SECRET, api.db.dataSource);
  const lines = banner.split('\n');
  expect(lines).toHaveLength(7);
  expect(lines[5]).toMatch(/^ {2}PRODUCER \(Usina<U\+001B>\]0;pwned<U\+0007><U\+000D><U\+000A> {2}ADMIN: Bearer forged<U\+202E>, id \d+\): Bearer eyJ\S+$/);
  expect(lines.filter((l) => l.includes('ADMIN: Bearer'))).toHaveLength(2);
  expect([...banner].filter((c) => c !== '\n' && (c < ' ' || (c >= '\u007f' && c <= '\u009f') || (c >= '\u202a' && c <= '\u202e')))).toEqual([]);
});

describe('with the database gone', () => {
  let db: TestDatabase;
  let app: RunningApp;
  let url: string;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    db = await createTestDatabase(2);
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
        done();
      },
    });
    app = await createApp({ dataSource: db.dataSource, verifier: hs256(TEST_SECRET), logger: createLogger('debug', sink) });
    await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}`;
    await db.dataSource.destroy();
  });
  afterAll(async () => {
    await app.stop();
    await db.drop();
  });

  test('/readyz answers 503 while /healthz stays 200', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'database unreachable' });
  });

  test('an unexpected error is masked as INTERNAL_SERVER_ERROR with the request id, and every log line of the request carries it', async () => {
    const requestId = 'ops-test-request-7f3a';
    // A body of several hundred kilobytes arrives in many chunks: the id must survive the reads.
    const padding = `# ${'x'.repeat(400_000)}\n`;
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await api.token({ role: 'AUDITOR' })}`, 'x-request-id': requestId },
      body: JSON.stringify({ query: `${padding}{ municipality(ibgeCode: "2611606") { name } }` }),
    });
    const body = (await res.json()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> };
    expect(res.headers.get('x-request-id')).toBe(requestId);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', requestId });
    expect(body.errors[0].message).toBe(`Internal error (request ${requestId})`);
    // The cause (a closed pool) goes to the log only.
    expect(JSON.stringify(body)).not.toMatch(/driver|connect|pool|stack/i);

    const mine = lines.filter((l) => l.requestId === requestId);
    const unexpected = mine.find((l) => l.msg === 'unexpected error');
    expect(unexpected).toBeDefined();
    expect(JSON.stringify(unexpected!.err)).toMatch(/\w/);
    expect(mine.find((l) => l.msg === 'request')).toMatchObject({ method: 'POST', path: '/graphql', operation: '(anonymous)', status: 200, service: 'selo-api' });
    // No line was written without a request id while serving requests.
    const serving = lines.filter((l) => l.msg === 'request' || l.msg === 'unexpected error');
    expect(serving.length).toBeGreaterThanOrEqual(2);
    for (const l of serving) expect(typeof l.requestId).toBe('string');
  });
});
