import http from 'node:http';
import zlib from 'node:zlib';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * Answers compressed as the client's Accept-Encoding asks (brotli or gzip): JSON answers — the
 * compiled reads' JSON text among them — and GraphiQL's files. The bytes decompress to exactly
 * what an uncompressed request gets.
 */
let api: TestApi;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  for (let i = 0; i < 30; i++) await createProducer(api, `Usina Compressão ${i}`);
  token = await api.token();
});
afterAll(() => api.close());

interface RawAnswer { status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }

/** A request whose answer is read as the bytes that came over the wire (fetch would decompress them). */
function raw(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  const url = new URL(api.url.replace('/graphql', path));
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PAGE = JSON.stringify({ query: '{ producers(first: 30) { totalCount edges { cursor node { id cnpj legalName plantMunicipality { ibgeCode name region priorityRegion } } } } }' });
const post = (encoding?: string) => raw('POST', '/graphql', {
  'content-type': 'application/json', authorization: `Bearer ${token}`, ...(encoding ? { 'accept-encoding': encoding } : {}),
}, PAGE);

test('a page of producers (a compiled read): brotli or gzip as asked, the same JSON text once decompressed', async () => {
  const plain = await post();
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  const text = plain.bytes.toString('utf8');
  expect(JSON.parse(text).data.producers.totalCount).toBe(30);
  expect(plain.bytes.length).toBeGreaterThan(5_000);

  const br = await post('gzip, deflate, br');
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers.vary).toContain('Accept-Encoding');
  expect(zlib.brotliDecompressSync(br.bytes).toString('utf8')).toBe(text);
  expect(br.bytes.length).toBeLessThan(plain.bytes.length / 5);

  const gzip = await post('gzip');
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(zlib.gunzipSync(gzip.bytes).toString('utf8')).toBe(text);
  expect(gzip.bytes.length).toBeLessThan(plain.bytes.length / 5);

  const identity = await post('identity');
  expect(identity.headers['content-encoding']).toBeUndefined();
  expect(identity.bytes.toString('utf8')).toBe(text);
});

test("GraphiQL's script is compressed too", async () => {
  const plain = await raw('GET', '/graphiql-assets/graphiql.min.js', {});
  const gz = await raw('GET', '/graphiql-assets/graphiql.min.js', { 'accept-encoding': 'gzip' });
  expect(plain.status).toBe(200);
  expect(plain.bytes.length).toBeGreaterThan(500_000);
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(zlib.gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true);
  expect(gz.bytes.length).toBeLessThan(plain.bytes.length / 2);
});

test('a small answer is sent as it is', async () => {
  const res = await raw('GET', '/healthz', { 'accept-encoding': 'gzip, br' });
  expect(res.headers['content-encoding']).toBeUndefined();
  expect(JSON.parse(res.bytes.toString('utf8'))).toEqual({ status: 'ok' });
});
