import { AuditResult, serverAudits } from 'graphql-http';
import { startTestApi, TestApi } from '../support/api';

// The GraphQL-over-HTTP conformance audits of graphql-http, against the real server with a
// valid token. MUST audits have to pass; a SHOULD or MAY that warns is accepted only when
// docs/API.md says why (ACCEPTED_WARNINGS below lists them, with the reason).

const STATUS_400 = 'Apollo Server answers 400 to a request whose document does not parse or validate, or whose variables do not coerce, whatever the Accept header; the errors are in the body in the GraphQL format either way (docs/API.md, "GraphQL over HTTP").';
const ACCEPTED_WARNINGS: Record<string, string> = {
  '572B': STATUS_400,
  FDE2: STATUS_400,
  '7B9B': STATUS_400,
};

let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api.close(); });

test('graphql-http server audits: every MUST passes; every warning is one docs/API.md accepts', async () => {
  const token = await api.token({ role: 'AUDITOR' });
  const fetchFn: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const audits = serverAudits({ url: api.url, fetchFn });
  const results: AuditResult[] = [];
  for (const audit of audits) results.push(await audit.fn());

  const table = results.map((r) => ({ id: r.id, status: r.status, audit: r.name, reason: r.status === 'ok' ? '' : r.reason }));
  console.log(`graphql-http ${results.length} audits: ${results.filter((r) => r.status === 'ok').length} ok, ` +
    `${results.filter((r) => r.status === 'warn').length} warn, ${results.filter((r) => r.status === 'error').length} error\n` +
    table.map((r) => `${r.id.padEnd(5)} ${r.status.padEnd(5)} ${r.audit}${r.reason ? `\n      -> ${r.reason}` : ''}`).join('\n'));

  expect(results.length).toBeGreaterThan(40);
  expect(results.filter((r) => r.status === 'error').map((r) => `${r.id} ${r.name}: ${r.status !== 'ok' ? r.reason : ''}`)).toEqual([]);
  expect(results.filter((r) => r.status === 'warn' && !ACCEPTED_WARNINGS[r.id]).map((r) => `${r.id} ${r.name}`)).toEqual([]);
});

test('GET runs a query only with a CSRF-proof header (apollo-require-preflight); mutations never', async () => {
  const token = await api.token({ role: 'AUDITOR' });
  const url = `${api.url}?query=${encodeURIComponent('query ByGet { __typename }')}`;
  const plain = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  expect(plain.status).toBe(400);
  expect(await plain.text()).toMatch(/Cross-Site Request Forgery/);
  const preflighted = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'apollo-require-preflight': 'true' } });
  expect(preflighted.status).toBe(200);
  expect(await preflighted.json()).toEqual({ data: { __typename: 'Query' } });
  const mutation = await fetch(`${api.url}?query=${encodeURIComponent('mutation { upsertMunicipalities(input: []) { ibgeCode } }')}`, {
    headers: { authorization: `Bearer ${await api.token()}`, accept: 'application/json', 'apollo-require-preflight': 'true' },
  });
  expect(mutation.status).toBe(405);
});

test('an authenticated answer is never kept by a cache (Cache-Control: private, no-store), a GET\'s included', async () => {
  const token = await api.token({ role: 'AUDITOR' });
  const get = await fetch(`${api.url}?query=${encodeURIComponent('{ producers(first: 1) { totalCount } }')}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'apollo-require-preflight': 'true' },
  });
  expect(get.status).toBe(200);
  expect(get.headers.get('cache-control')).toBe('private, no-store');
  const refused = await fetch(`${api.url}?query=${encodeURIComponent('{ nothing }')}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'apollo-require-preflight': 'true' },
  });
  expect(refused.status).toBe(400);
  expect(refused.headers.get('cache-control')).toBe('private, no-store');
  const post = await fetch(api.url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ producers(first: 1) { totalCount } }' }) });
  expect(post.status).toBe(200);
  expect(post.headers.get('cache-control')).toBe('private, no-store');
});
