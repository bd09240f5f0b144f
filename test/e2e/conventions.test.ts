import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadTrustedDocuments } from '../../src/http/trusted-documents';
import { createLogger } from '../../src/logger';
import { Role } from '../../src/law/types';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The conventions a partner's client relies on: automatic persisted queries (a document sent once,
 * then by its hash), trusted documents (TRUSTED_DOCUMENTS: an allow-list for PRODUCER tokens),
 * and the W3C traceparent of the caller in the server's log lines.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const LISTED = 'query ProducerName($id: ID!) { producer(id: $id) { id legalName } }';
const NOT_LISTED = 'query Other { producers { totalCount } }';

let api: TestApi;
let trusted: TestApi;
let producerId: string;
const folders: string[] = [];
/** A temporary folder of this file's own, removed after its tests. */
function tempFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-trusted-'));
  folders.push(dir);
  return dir;
}
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const sink = new Writable({ write(chunk, _enc, done) { for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l)); done(); } });
  api = await startTestApi({ logger: createLogger('info', sink) });
  const file = path.join(tempFolder(), 'persisted-documents.json');
  fs.writeFileSync(file, JSON.stringify({ [sha256(LISTED)]: LISTED }));
  trusted = await startTestApi({ trustedDocuments: loadTrustedDocuments(file) });
  for (const a of [api, trusted]) await upsertMunicipalities(a, [RECIFE]);
  producerId = await createProducer(trusted, 'Usina Parceira');
});
afterAll(async () => {
  await Promise.all([api?.close(), trusted?.close()]);
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

async function post(target: TestApi, body: Record<string, unknown>, role: Role = Role.ADMIN, headers: Record<string, string> = {}) {
  const token = await target.token(role === Role.PRODUCER ? { role, producerId } : { role });
  const res = await fetch(target.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

describe('automatic persisted queries', () => {
  const query = 'query Count { producers { totalCount } }';
  const persisted = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };

  test('the hash alone, unknown: PERSISTED_QUERY_NOT_FOUND; then the document with its hash; then the hash alone runs it', async () => {
    const first = await post(api, { extensions: persisted });
    expect(first.body.errors[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    const full = await post(api, { query, extensions: persisted });
    expect(full).toEqual({ status: 200, body: { data: { producers: { totalCount: 0 } } } });
    const byHash = await post(api, { extensions: persisted });
    expect(byHash).toEqual({ status: 200, body: { data: { producers: { totalCount: 0 } } } });
  });

  test('a hash that is not the document\'s is refused', async () => {
    const res = await post(api, { query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256('something else') } } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } });
  });
});

test.each([
  ['an unknown version', { persistedQuery: { version: 2, sha256Hash: sha256('{ __typename }') } }],
  ['an empty persistedQuery', { persistedQuery: {} }],
])('%s: BAD_REQUEST (HTTP 400), logged as the caller\'s mistake, not as an unexpected error', async (_what, extensions) => {
  const token = await api.token({ role: Role.AUDITOR });
  // A GET, which Apollo Server answers whole.
  const url = `${api.url}?query=${encodeURIComponent('{ __typename }')}&extensions=${encodeURIComponent(JSON.stringify(extensions))}`;
  lines.length = 0;
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true', 'accept-language': 'pt-BR' } });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ errors: [{ message: 'Versão de consulta persistida não suportada', extensions: { code: 'BAD_REQUEST' } }] });
  expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  expect(lines.filter((l) => l.msg === 'request')).toEqual([expect.objectContaining({ method: 'GET', status: 400 })]);
});

describe('trusted documents', () => {
  test('a PRODUCER token runs a listed document, whole or by its hash alone', async () => {
    const whole = await post(trusted, { query: LISTED, variables: { id: producerId } }, Role.PRODUCER);
    expect(whole.body).toEqual({ data: { producer: { id: producerId, legalName: 'Usina Parceira' } } });
    const byHash = await post(trusted, { variables: { id: producerId }, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(LISTED) } } }, Role.PRODUCER);
    expect(byHash.body).toEqual(whole.body);
    const byDocumentId = await post(trusted, { documentId: `sha256:${sha256(LISTED)}`, variables: { id: producerId } }, Role.PRODUCER);
    expect(byDocumentId.body).toEqual(whole.body);
  });

  test('any other operation of a PRODUCER token is refused before it runs; ADMIN and AUDITOR stay free', async () => {
    const refused = await post(trusted, { query: NOT_LISTED }, Role.PRODUCER);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].extensions.code).toBe('OPERATION_NOT_TRUSTED');
    const pt = await post(trusted, { query: NOT_LISTED }, Role.PRODUCER, { 'accept-language': 'pt-BR' });
    expect(pt.body.errors[0].message).toMatch(/^Para tokens PRODUCER este servidor executa só as operações/);
    // Registering a document through automatic persisted queries does not list it.
    const registered = await post(trusted, { query: NOT_LISTED, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(NOT_LISTED) } } }, Role.PRODUCER);
    expect(registered.status).toBe(403);
    expect((await post(trusted, { query: NOT_LISTED }, Role.AUDITOR)).body).toEqual({ data: { producers: { totalCount: 1 } } });
  });

  test('a manifest whose ids are not the hashes of their documents is refused at start', () => {
    const file = path.join(tempFolder(), 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: sha256('x'), name: 'A', type: 'query', body: LISTED }] }));
    expect(() => loadTrustedDocuments(file)).toThrow(/not the SHA-256 of its text/);
  });
});

describe('traceparent', () => {
  test("the caller's trace id and parent span id are in the request's log lines; a malformed one is ignored", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    await api.gql('query Traced { producers { totalCount } }', {}, undefined, { traceparent: `00-${traceId}-${parentId}-01`, 'x-request-id': 'traced-request' });
    await api.gql('query Untraced { producers { totalCount } }', {}, undefined, { traceparent: `00-${'0'.repeat(32)}-${parentId}-01`, 'x-request-id': 'untraced-request' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const traced = lines.find((l) => l.msg === 'request' && l.requestId === 'traced-request');
    expect(traced).toMatchObject({ traceId, parentId, operation: 'Traced', status: 200 });
    const untraced = lines.find((l) => l.msg === 'request' && l.requestId === 'untraced-request');
    expect(untraced).toBeDefined();
    expect(untraced!.traceId).toBeUndefined();
  });
});
