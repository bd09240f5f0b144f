import { execFile } from 'node:child_process';
import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { AddressInfo } from 'node:net';
import pino from 'pino';
import { promisify } from 'node:util';
import { decodeJwt, SignJWT } from 'jose';
import { verifierFromEnvironment } from '../../src/graphql/auth/token';
import { createApp } from '../../src/server';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';

const run = promisify(execFile);
let api: TestApi;
let producerId: string;
beforeAll(async () => {
  api = await startTestApi();
  await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Recife", semiarid: false }]) { ibgeCode } }`);
  const p = await api.ok(`mutation { createProducer(input: { cnpj: "11222333000181", legalName: "Usina A", plantMunicipalityCode: "2611606" }) { id } }`);
  producerId = p.createProducer.id;
});
afterAll(async () => { await api.close(); });

const QUERY = '{ producers { totalCount } }';

async function post(authorization: string | null, body: unknown = { query: QUERY }) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== null) headers.authorization = authorization;
  const res = await fetch(api.url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };
}

function sign(claims: Record<string, unknown>, opts: { secret?: string; expiresIn?: string | number; sub?: string | null } = {}) {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  if (opts.sub !== null) jwt.setSubject(opts.sub ?? 'someone');
  jwt.setExpirationTime(opts.expiresIn ?? '1h');
  return jwt.sign(createSecretKey(Buffer.from(opts.secret ?? TEST_SECRET, 'utf8')));
}

function expectUnauthenticated(res: Awaited<ReturnType<typeof post>>, message: RegExp) {
  expect(res.status).toBe(401);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors![0].extensions?.code).toBe('UNAUTHENTICATED');
  expect(res.body.errors![0].message).toMatch(message);
}

test('a valid token reads: the baseline the refusals below differ from', async () => {
  const res = await post(`Bearer ${await sign({ role: 'ADMIN' })}`);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ producers: { totalCount: 1 } });
});

test('no token, or a header that is not a bearer token: UNAUTHENTICATED', async () => {
  expectUnauthenticated(await post(null), /Bearer/);
  expectUnauthenticated(await post(`Basic ${Buffer.from('admin:admin').toString('base64')}`), /Bearer/);
  expectUnauthenticated(await post('Bearer not.a.jwt'), /not valid/);
});

test('forged signature (another secret, or the payload edited after signing): UNAUTHENTICATED', async () => {
  expectUnauthenticated(await post(`Bearer ${await sign({ role: 'ADMIN' }, { secret: 'another-secret-of-at-least-32-chars!!!' })}`), /not valid/);
  const genuine = await sign({ role: 'PRODUCER', producerId });
  const [header, , signature] = genuine.split('.');
  const edited = Buffer.from(JSON.stringify({ ...decodeJwt(genuine), role: 'ADMIN', producerId: undefined })).toString('base64url');
  expectUnauthenticated(await post(`Bearer ${header}.${edited}.${signature}`), /not valid/);
  const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'x', role: 'ADMIN' })).toString('base64url')}.`;
  expectUnauthenticated(await post(`Bearer ${none}`), /not valid/);
});

test('expired token: UNAUTHENTICATED saying so', async () => {
  const expired = await sign({ role: 'ADMIN' }, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
  expectUnauthenticated(await post(`Bearer ${expired}`), /expired/);
});

test('a token accepted before (its verification remembered) is refused once it expires, and one not yet valid is accepted once it is', async () => {
  const now = Math.floor(Date.now() / 1000);
  const shortLived = await sign({ role: 'ADMIN' }, { expiresIn: now + 2 });
  expect((await post(`Bearer ${shortLived}`)).status).toBe(200);
  expect((await post(`Bearer ${shortLived}`)).status).toBe(200);
  await new Promise((r) => setTimeout(r, (now + 2) * 1000 - Date.now() + 50));
  expectUnauthenticated(await post(`Bearer ${shortLived}`), /expired/);

  const later = await sign({ role: 'ADMIN', nbf: Math.floor(Date.now() / 1000) + 2 });
  expectUnauthenticated(await post(`Bearer ${later}`), /not valid/);
  await new Promise((r) => setTimeout(r, 2_100));
  expect((await post(`Bearer ${later}`)).status).toBe(200);
  expect((await post(`Bearer ${later}`)).status).toBe(200);
}, 15_000);

test('unknown claims, wrong role, missing subject: UNAUTHENTICATED', async () => {
  expectUnauthenticated(await post(`Bearer ${await sign({ role: 'ADMIN', scope: 'everything' })}`), /Unknown claims in token: scope/);
  expectUnauthenticated(await post(`Bearer ${await sign({ role: 'SUPERUSER' })}`), /role must be ADMIN, AUDITOR or PRODUCER/);
  expectUnauthenticated(await post(`Bearer ${await sign({ role: 'admin' })}`), /role must be/);
  expectUnauthenticated(await post(`Bearer ${await sign({})}`), /role must be/);
  expectUnauthenticated(await post(`Bearer ${await sign({ role: 'ADMIN' }, { sub: null })}`), /not valid|subject/);
});

test('PRODUCER without producerId, or with one that is not an id; producerId on another role: UNAUTHENTICATED', async () => {
  expectUnauthenticated(await post(`Bearer ${await sign({ role: 'PRODUCER' })}`), /needs a producerId/);
  expectUnauthenticated(await post(`Bearer ${await sign({ role: 'PRODUCER', producerId: '' })}`), /needs a producerId/);
  expectUnauthenticated(await post(`Bearer ${await sign({ role: 'PRODUCER', producerId: '1 OR 1=1' })}`), /needs a producerId/);
  expectUnauthenticated(await post(`Bearer ${await sign({ role: 'AUDITOR', producerId })}`), /Only a PRODUCER token/);
});

test('a refused token writes nothing', async () => {
  const res = await post(`Bearer ${await sign({ role: 'ADMIN' }, { secret: 'another-secret-of-at-least-32-chars!!!' })}`, {
    query: 'mutation { upsertMunicipalities(input: [{ ibgeCode: "4314902", name: "Porto Alegre", semiarid: false }]) { ibgeCode } }',
  });
  expect(res.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  expect(await api.count(`SELECT count(*) FROM municipality WHERE ibge_code = '4314902'`)).toBe(0);
  expect(await api.count('SELECT count(*) FROM audit_entry')).toBe(2);
});

test('health endpoints need no token', async () => {
  const base = api.url.replace(/\/graphql$/, '');
  const health = await fetch(`${base}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ready' });
});

describe('npm run token', () => {
  const script = ['-r', '@swc-node/register', 'scripts/token.ts'];
  const env = { ...process.env, JWT_SECRET: TEST_SECRET };

  test('prints a PRODUCER token the API accepts, scoped to that producer', async () => {
    const { stdout } = await run('node', [...script, '--role', 'PRODUCER', '--producer', producerId, '--sub', 'tax-team', '--hours', '2'], { env });
    const token = stdout.trim();
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: 'tax-team', role: 'PRODUCER', producerId });
    expect(claims.exp! - claims.iat!).toBe(2 * 3600);
    const res = await post(`Bearer ${token}`, { query: '{ producers { totalCount edges { node { id } } } }' });
    expect(res.body.data).toEqual({ producers: { totalCount: 1, edges: [{ node: { id: producerId } }] } });
  }, 30_000);

  test('ADMIN and AUDITOR tokens; refuses a PRODUCER without --producer, an unknown role, no secret', async () => {
    const admin = await run('node', [...script, '--role', 'AUDITOR'], { env });
    expect(decodeJwt(admin.stdout.trim())).toMatchObject({ role: 'AUDITOR', sub: 'auditor' });
    expect((await post(`Bearer ${admin.stdout.trim()}`)).status).toBe(200);
    await expect(run('node', [...script, '--role', 'PRODUCER'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/needs --producer/) });
    await expect(run('node', [...script, '--role', 'ROOT'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/--role must be/) });
    const { JWT_SECRET: _drop, ...noSecret } = env;
    void _drop;
    await expect(run('node', [...script, '--role', 'ADMIN'], { env: noSecret })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/JWT_SECRET/) });
  }, 30_000);
});

test('an asymmetric key is a configuration change: EdDSA tokens verified with the public key only', async () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const verifier = verifierFromEnvironment({ JWT_PUBLIC_KEY: pem, JWT_ALGORITHM: 'EdDSA' }, 'unused-secret');
  const app = await createApp({ dataSource: api.db.dataSource, verifier, logger: pino({ level: 'silent' }) });
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}/graphql`;
    const call = async (token: string) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: QUERY }) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const signed = await new SignJWT({ role: 'AUDITOR' }).setProtectedHeader({ alg: 'EdDSA' }).setSubject('idp-user').setIssuedAt().setExpirationTime('1h').sign(privateKey);
    expect((await call(signed)).body.data).toEqual({ producers: { totalCount: 1 } });
    // an HS256 token, even with the old shared secret, is refused by this server
    const hs = await sign({ role: 'ADMIN' });
    const refused = await call(hs);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  } finally {
    await app.stop();
  }
  expect(() => verifierFromEnvironment({ JWT_PUBLIC_KEY: pem, JWT_ALGORITHM: 'HS256' }, 'x')).toThrow(/JWT_ALGORITHM must be one of/);
});
