import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ApiProcess, freePort, killLeftovers, postgresPids as postgresPidsOf, sleep, spawnApi, waitForShutdownLog, waitForStart } from '../support/api-process';

// `npm start` with no DATABASE_URL: the embedded PostgreSQL (the README). On Ctrl-C in a terminal
// (SIGINT to the whole foreground process group) and on SIGTERM to the API's process alone, the
// request in flight is answered from the database, the cluster is stopped after it, and the
// process exits 0 (README, "Endpoints": graceful shutdown).

// Reachable by the `postgres` user the embedded cluster runs as when the tests run as root.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-embedded-shutdown-'));
fs.chmodSync(dataDir, 0o755);
let child: ApiProcess | undefined;

afterAll(() => {
  killLeftovers(child ? [child] : [], dataDir);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const postgresPids = () => postgresPidsOf(dataDir);

/**
 * Start the API on the embedded database in a process group of its own (as a terminal runs a
 * foreground command), send a request whose body is still arriving, signal, then finish the body.
 */
async function stopWhileInFlight(signal: 'SIGINT' | 'SIGTERM', toGroup: boolean): Promise<{ status: string; body: string; exit: number | null; out: string }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, SELO_DATA_DIR: path.join(dataDir, 'pg'), PORT: String(port), LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  delete env.JWT_SECRET;
  const api = spawnApi(env, { detached: true });
  child = api;
  await waitForStart(api, 'AUDITOR: Bearer ', 1200);
  const token = /AUDITOR: Bearer (\S+)/.exec(api.out)![1];

  const body = JSON.stringify({ query: 'query InFlight { coefficientRules(on: "2026-03-01") { category pisPerM3 cofinsPerM3 } }' });
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let response = '';
  socket.on('data', (c) => { response += String(c); });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`);
  socket.write(body.slice(0, 12));
  await sleep(200);

  process.kill(toGroup ? -api.child.pid! : api.child.pid!, signal);
  await waitForShutdownLog(api);
  await sleep(300);
  socket.write(body.slice(12));
  await closed;
  const exit = await api.exited;
  return { status: response.split('\r\n')[0], body: response.slice(response.indexOf('\r\n\r\n') + 4), exit, out: api.out };
}

/** Decreto 10.527/2020 art. 5º §1º and art. 6º §1º: the per-m³ amounts in force on 2026-03-01, before the zero window. */
const RULES_2026_03_01 = {
  data: {
    coefficientRules: [
      { category: 'GENERAL', pisPerM3: '26.41', cofinsPerM3: '121.59' },
      { category: 'CASTOR_PALM_PRIORITY_REGION', pisPerM3: '22.48', cofinsPerM3: '103.51' },
      { category: 'FAMILY_FARMING', pisPerM3: '10.39', cofinsPerM3: '47.85' },
      { category: 'FAMILY_FARMING_PRIORITY_REGION', pisPerM3: '0.00', cofinsPerM3: '0.00' },
    ],
  },
};

test('Ctrl-C (SIGINT to the process group, the cluster included): the request in flight is answered, the cluster stops after it, exit 0', async () => {
  const r = await stopWhileInFlight('SIGINT', true);
  expect(r.status).toBe('HTTP/1.1 200 OK');
  expect(JSON.parse(r.body)).toEqual(RULES_2026_03_01);
  expect(r.exit).toBe(0);
  expect(r.out).toContain('"msg":"database pool closed"');
  expect(postgresPids()).toEqual([]);
}, 120000);

test('SIGTERM to the API alone, on the data kept from the first run: the same', async () => {
  const r = await stopWhileInFlight('SIGTERM', false);
  expect(r.status).toBe('HTTP/1.1 200 OK');
  expect(JSON.parse(r.body)).toEqual(RULES_2026_03_01);
  expect(r.exit).toBe(0);
  expect(postgresPids()).toEqual([]);
}, 120000);
