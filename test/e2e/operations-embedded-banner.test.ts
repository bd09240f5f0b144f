import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ApiProcess, exitOf, freePort, killLeftovers, spawnApi, waitForReady, waitForStart } from '../support/api-process';

// `npm start` on the embedded database (README, "Run it"): it prints an ADMIN token, so it listens
// on 127.0.0.1 unless HOST says otherwise; its secret is generated once and kept under the data
// folder, so the tokens it printed still work after a restart (JWT_SECRET still wins); the ready
// line comes first, then the banner in one piece with a GraphiQL link carrying the ADMIN token.

// Reachable by the `postgres` user the embedded cluster runs as when the tests run as root.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-embedded-banner-'));
fs.chmodSync(root, 0o755);
const dataDir = path.join(root, 'pg');
const started: ApiProcess[] = [];

afterAll(() => {
  killLeftovers(started, dataDir);
  fs.rmSync(root, { recursive: true, force: true });
});

async function start(extra: NodeJS.ProcessEnv = {}): Promise<{ api: ApiProcess; port: number }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, SELO_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'JWT_SECRET', 'HOST']) delete env[name];
  const api = spawnApi({ ...env, ...extra }, { detached: true });
  started.push(api);
  expect(await waitForReady(api, port, 120_000)).toBe(true);
  // The banner follows the ready line; with tokens, it ends with the PRODUCER's.
  await waitForStart(api, extra.JWT_SECRET ? 'Selo API ready: ' : 'PRODUCER (', 100);
  return { api, port };
}

async function stop(api: ApiProcess): Promise<void> {
  process.kill(api.child.pid!, 'SIGTERM');
  expect(await exitOf(api)).toBe('exit 0');
}

/** Whether something accepts TCP connections on host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

async function graphql(port: number, token: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ producers(first: 1) { totalCount } }' }),
  });
  return { status: response.status, body: await response.json() };
}

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

let adminToken = '';
let auditorToken = '';

test('npm start: ready line, then the banner in one piece with the GraphiQL link carrying an ADMIN token; on 127.0.0.1 only', async () => {
  const { api, port } = await start();
  const lines = api.out.split('\n');
  const ready = lines.findIndex((l) => l.includes('"msg":"Selo API ready"'));
  const link = lines.findIndex((l) => l.startsWith('Selo API ready: '));
  expect(ready).toBeGreaterThanOrEqual(0);
  expect(link).toBeGreaterThan(ready);
  // Nothing but the banner from its first line to its PRODUCER line: no log line inside it.
  const banner = lines.slice(link, lines.findIndex((l) => l.includes('PRODUCER (')) + 1);
  expect(banner.map((l) => l.replace(/eyJ\S+/g, 'eyJ…'))).toEqual([
    `Selo API ready: http://127.0.0.1:${port}/graphql#token=eyJ… (GraphiQL, signed in as ADMIN)`,
    `Tokens (12 hours; signed with the secret kept in ${path.join(dataDir, 'selo-api.jwt-secret')}, which JWT_SECRET overrides):`,
    '  ADMIN: Bearer eyJ…',
    '  AUDITOR: Bearer eyJ…',
    expect.stringMatching(/^ {2}PRODUCER \(.+, id \d+\): Bearer eyJ…$/),
  ]);
  const fromLink = /#token=(\S+)/.exec(banner[0])![1];
  adminToken = /ADMIN: Bearer (\S+)/.exec(api.out)![1];
  auditorToken = /AUDITOR: Bearer (\S+)/.exec(api.out)![1];
  expect(fromLink).toBe(adminToken);
  expect(claims(fromLink).role).toBe('ADMIN');

  // The link opens GraphiQL; the fragment stays in the browser, whose page script puts the token
  // into the Authorization header (graphiql.test.ts drives it in Chromium).
  const page = await fetch(/(http:\S+)#token=/.exec(banner[0])![1], { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<div id="graphiql">');
  expect(await graphql(port, fromLink)).toEqual({ status: 200, body: { data: { producers: { totalCount: 6 } } } });

  // Listening on 127.0.0.1 only: another loopback address (all of 127/8 reaches this machine) is refused.
  expect(await accepts('127.0.0.1', port)).toBe(true);
  expect(await accepts('127.0.0.2', port)).toBe(false);

  const secretFile = path.join(dataDir, 'selo-api.jwt-secret');
  expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
  expect(fs.readFileSync(secretFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  await stop(api);
}, 180_000);

test('the tokens printed by one start still work after a restart; JWT_SECRET still wins; HOST=0.0.0.0 listens everywhere', async () => {
  expect(adminToken).not.toBe('');
  const again = await start();
  expect(await graphql(again.port, adminToken)).toEqual({ status: 200, body: { data: { producers: { totalCount: 6 } } } });
  expect(await graphql(again.port, auditorToken)).toEqual({ status: 200, body: { data: { producers: { totalCount: 6 } } } });
  await stop(again.api);

  const own = await start({ JWT_SECRET: 'a-secret-of-the-operator-of-32-characters-or-more', HOST: '0.0.0.0' });
  const refused = await graphql(own.port, adminToken);
  expect(refused.status).toBe(401);
  expect(refused.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  // With the operator's secret, no token is printed: the link has none.
  expect(own.api.out).toContain(`Selo API ready: http://127.0.0.1:${own.port}/graphql (GraphiQL)\n`);
  expect(own.api.out).not.toContain('Bearer ');
  expect(await accepts('127.0.0.2', own.port)).toBe(true);
  await stop(own.api);
}, 180_000);
