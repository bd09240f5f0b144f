import { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { signToken } from '../../src/graphql/auth/token';
import { Role } from '../../src/law/types';
import { TEST_SECRET } from '../support/api';
import { freePort, sleep, spawnApi, waitForStart } from '../support/api-process';
import { createTestDatabase, TestDatabase } from '../support/database';

// An import still arriving when SIGTERM comes and still arriving past the drain's grace period is
// cut off unanswered: the shutdown log says so, not that every request was answered.

let db: TestDatabase;
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await db?.drop();
});

test('a shutdown that cuts an import off says how many requests it cut', async () => {
  db = await createTestDatabase(2);
  await db.dataSource.destroy();
  const port = await freePort();
  const api = spawnApi({ ...process.env, DATABASE_URL: db.url, JWT_SECRET: TEST_SECRET, PORT: String(port), LOG_LEVEL: 'info' });
  child = api.child;
  await waitForStart(api, 'Selo API ready: ', 600);

  const token = await signToken(TEST_SECRET, { sub: 'shutdown-import', role: Role.ADMIN });
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.on('error', () => undefined);
  socket.write(`POST /import/municipalities HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nAuthorization: Bearer ${token}\r\nTransfer-Encoding: chunked\r\n\r\n`);
  // Faster than the minimum upload rate (8 KB/s), so that only the shutdown can end it.
  const line = 'ibgeCode,name,semiarid\n'.padEnd(4_096, ' ');
  const trickle = setInterval(() => socket.write(`${line.length.toString(16)}\r\n${line}\r\n`), 100);
  try {
    await sleep(500);
    api.child.kill('SIGTERM');
    const code = await Promise.race([api.exited, sleep(40_000).then(() => 'still running')]);
    expect(code).toBe(0);
  } finally {
    clearInterval(trickle);
    socket.destroy();
  }
  expect(api.out).toMatch(/"requestsCut":1,"importsStillRunning":1/);
  expect(api.out).toMatch(/HTTP server closed: 1 request\(s\) in flight were cut off unanswered/);
  expect(api.out).not.toMatch(/every request in flight was answered/);
}, 90_000);
