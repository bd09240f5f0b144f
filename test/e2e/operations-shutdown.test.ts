import { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { signToken } from '../../src/graphql/auth/token';
import { Role } from '../../src/law/types';
import { TEST_SECRET } from '../support/api';
import { exitOf, freePort, sleep, spawnApi, waitForShutdownLog, waitForStart } from '../support/api-process';
import { createTestDatabase, TestDatabase } from '../support/database';

// `npm start`'s process with DATABASE_URL: it prepares the database (the shipped law) and, on
// SIGTERM (graceful shutdown; the README), stops accepting connections, lets the requests in
// flight finish, closes the pool and exits 0.

let db: TestDatabase;
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await db?.drop();
});

test('start-up loads the shipped law; on SIGTERM the request in flight completes, new connections are refused, the process exits 0', async () => {
  db = await createTestDatabase(2);
  await db.dataSource.query(`INSERT INTO municipality (ibge_code, name, state, region) VALUES ('2611606', 'Recife', 'PE', 'NORTHEAST')`);
  await db.dataSource.destroy();
  const port = await freePort();

  const api = spawnApi({ ...process.env, DATABASE_URL: db.url, JWT_SECRET: TEST_SECRET, PORT: String(port), LOG_LEVEL: 'info' });
  child = api.child;
  await waitForStart(api, 'Selo API ready: ', 600);

  const token = await signToken(TEST_SECRET, { sub: 'shutdown-test', role: Role.AUDITOR });
  // Start-up loaded the shipped law: the per-m³ amounts of Decreto 10.527/2020 arts. 5º §1º and
  // 6º §1º in force on 2026-03-01, before the zero window.
  const law = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, connection: 'close' },
    body: JSON.stringify({ query: '{ coefficientRules(on: "2026-03-01") { category pisPerM3 cofinsPerM3 } }' }),
  });
  const rules = ((await law.json()) as { data: { coefficientRules: Array<{ category: string; pisPerM3: string; cofinsPerM3: string }> } }).data.coefficientRules;
  expect(Object.fromEntries(rules.map((r) => [r.category, [Number(r.pisPerM3), Number(r.cofinsPerM3)]]))).toEqual({
    GENERAL: [26.41, 121.59],
    CASTOR_PALM_PRIORITY_REGION: [22.48, 103.51],
    FAMILY_FARMING: [10.39, 47.85],
    FAMILY_FARMING_PRIORITY_REGION: [0, 0],
  });

  // A request whose body is still arriving when SIGTERM comes.
  const body = JSON.stringify({ query: 'query InFlight { municipality(ibgeCode: "2611606") { name region } }' });
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let response = '';
  socket.on('data', (c) => { response += String(c); });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\n` +
    `x-request-id: in-flight-at-sigterm\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.slice(0, 12));
  await sleep(200);

  child.kill('SIGTERM');
  await waitForShutdownLog(api);
  await sleep(200);
  // The listening socket is closed: a new connection is refused.
  await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  expect(child.exitCode).toBeNull();

  socket.write(body.slice(12));
  await closed;
  expect(response).toMatch(/^HTTP\/1\.1 200 /);
  expect(response).toMatch(/x-request-id: in-flight-at-sigterm/i);
  expect(response.slice(response.indexOf('\r\n\r\n') + 4)).toBe(JSON.stringify({ data: { municipality: { name: 'Recife', region: 'NORTHEAST' } } }) + '\n');

  expect(await exitOf(api)).toBe('exit 0');
  const lines = api.out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  expect(lines.find((l) => l.msg === 'request' && l.requestId === 'in-flight-at-sigterm')).toMatchObject({ method: 'POST', path: '/graphql', operation: 'InFlight', status: 200 });
  expect(lines.find((l) => String(l.msg).startsWith('shutting down'))).toMatchObject({ signal: 'SIGTERM' });
}, 90000);
