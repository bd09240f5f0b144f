import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ApiProcess, exitOf, freePort, killLeftovers, postgresPids as postgresPidsOf, ROOT, spawnApi, waitForReady } from '../support/api-process';

// `npm start` on the embedded database after the API was killed (SIGKILL, an OOM kill, a closed
// container): the cluster lives in a process group of its own (so that Ctrl-C drains the requests
// first) and survives. The next start finds it by its postmaster.pid, stops it cleanly and starts
// its own on the same data; a cluster another running API uses is left alone, said in one line;
// a server PostgreSQL refuses to start says PostgreSQL's reason (src/database/embedded.mjs).

// Reachable by the `postgres` user the embedded cluster runs as when the tests run as root.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-embedded-restart-'));
fs.chmodSync(root, 0o755);
const dataDir = path.join(root, 'pg');
const pidFile = path.join(dataDir, 'postmaster.pid');
const started: ApiProcess[] = [];

afterAll(() => {
  killLeftovers(started, dataDir);
  fs.rmSync(root, { recursive: true, force: true });
});

const postgresPids = () => postgresPidsOf(dataDir);

/** Whether `pid` is a running process (a zombie waiting for its parent is not). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** `npm start` on the test's data folder, in a process group of its own as a terminal would run it. */
async function start(): Promise<{ api: ApiProcess; port: number }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, SELO_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  delete env.JWT_SECRET;
  const api = spawnApi(env, { detached: true });
  started.push(api);
  return { api, port };
}

/**
 * What a start printed, less its structured log lines below error level (pino JSON: e.g. the
 * warning that the binaries run from a copy, when the checkout is one the postgres user cannot
 * enter): a failure to start is the one plain line that remains.
 */
function plainLines(out: string): string[] {
  return out.trim().split('\n').filter((line) => {
    if (!line.startsWith('{')) return true;
    try { return (JSON.parse(line) as { level?: number }).level! >= 50; } catch { return true; }
  });
}

/** The postmaster's pid and port, from its lock file. */
function postmaster(): { pid: number; port: number } {
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

async function sql<T>(port: number, text: string): Promise<T[]> {
  const client = new Client({ connectionString: `postgres://postgres:selo@127.0.0.1:${port}/postgres` });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

test('after the API is killed (SIGKILL), npm start stops the cluster it left running, starts on the same data and serves /readyz', async () => {
  const first = await start();
  expect(await waitForReady(first.api, first.port, 120_000)).toBe(true);
  const before = postmaster();
  await sql(before.port, "CREATE TABLE written_before_the_kill (note text); INSERT INTO written_before_the_kill VALUES ('kept')");

  process.kill(first.api.child.pid!, 'SIGKILL');
  await first.api.exited;
  // The situation to recover from: the cluster outlived the API, its lock file in place.
  expect(running(before.pid)).toBe(true);
  expect(postmaster().pid).toBe(before.pid);

  const second = await start();
  // Its output in the failure message (toMatchObject would show only the keys expected): a start that exits says why.
  const secondReady = await waitForReady(second.api, second.port, 120_000);
  expect({ ready: secondReady, out: secondReady ? '' : second.api.out }).toEqual({ ready: true, out: '' });
  expect(second.api.out).toContain(`a PostgreSQL server (pid ${before.pid}) left running on ${dataDir} by an earlier start that was killed; stopping it`);
  expect(running(before.pid)).toBe(false);
  const after = postmaster();
  expect(after.pid).not.toBe(before.pid);
  expect(await sql(after.port, 'SELECT note FROM written_before_the_kill')).toEqual([{ note: 'kept' }]);
  // The demo dataset was not loaded a second time.
  expect(await sql(after.port, 'SELECT count(*)::int AS n FROM producer')).toEqual([{ n: 6 }]);

  // A second npm start while this one runs leaves its cluster alone and says why, in one line.
  const third = await start();
  expect(await third.api.exited).toBe(1);
  expect(plainLines(third.api.out)).toEqual([
    `selo-api: embedded PostgreSQL: ${dataDir} is in use by a PostgreSQL server (pid ${after.pid}) that another running start (pid ${second.api.child.pid}) owns; stop that one first, give this one another SELO_DATA_DIR, or set DATABASE_URL to a PostgreSQL server`,
  ]);
  expect(running(after.pid)).toBe(true);
  expect((await fetch(`http://127.0.0.1:${second.port}/readyz`)).status).toBe(200);

  process.kill(second.api.child.pid!, 'SIGTERM');
  expect(await exitOf(second.api)).toBe('exit 0');
  expect(postgresPids()).toEqual([]);
}, 300_000);

test('a cluster PostgreSQL refuses to start: npm start prints PostgreSQL\'s reason in one line and exits 1', async () => {
  const conf = path.join(dataDir, 'postgresql.conf');
  const original = fs.readFileSync(conf, 'utf8');
  fs.appendFileSync(conf, '\nshared_buffers = plenty\n');
  try {
    const { api } = await start();
    expect(await api.exited).toBe(1);
    const lines = plainLines(api.out);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^selo-api: embedded PostgreSQL did not start on \S+: .*configuration file "\S+postgresql.conf" contains errors; correct that, or set DATABASE_URL to a PostgreSQL server$/);
  } finally {
    fs.writeFileSync(conf, original);
  }
  expect(postgresPids()).toEqual([]);
}, 120_000);

// A postmaster being waited for as it stops has, for an instant, an empty command line before it
// is a zombie (kernel threads always do): the lock check must read that as "not a postmaster",
// not fail the start. Checked on the processes of this machine whose command line is empty.
test('a process with an empty command line is not taken for a postmaster (and does not fail the check)', () => {
  const empty = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).filter((pid) => {
    try { return fs.readFileSync(`/proc/${pid}/cmdline`).length === 0 && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
  });
  expect(empty.length).toBeGreaterThan(0);
  const script = `import { isPostmasterOf } from ${JSON.stringify(path.join(ROOT, 'src/database/embedded.mjs'))};
    process.stdout.write(JSON.stringify(${JSON.stringify(empty.slice(0, 5))}.map((pid) => isPostmasterOf(Number(pid), '/nowhere'))));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual(empty.slice(0, 5).map(() => false));
});
