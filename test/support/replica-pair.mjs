// A PostgreSQL primary and a streaming hot standby of it, from the embedded binaries (which have
// no pg_basebackup): the standby's data is a file copy of the cleanly stopped primary, started
// with standby.signal and primary_conninfo. Run as a child process by the read-replica tests:
// prints {"primary","standby"} as one JSON line, then obeys `stop-standby` / `start-standby`
// lines on stdin (answering `ok`). When stdin closes (the test ended, or its process died), or
// on SIGTERM/SIGINT, both clusters stop and every folder is removed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/database/embedded.mjs';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-api-replica-'));
// The postgres user (when run as root) must walk into it.
fs.chmodSync(root, 0o755);
const clusters = [];
const folders = [root];

async function cleanUp() {
  await Promise.all(clusters.map((c) => c.stop().catch(() => undefined)));
  for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
}

let ending;
function end(code) {
  ending ??= cleanUp().finally(() => process.exit(code));
  return ending;
}
process.on('SIGTERM', () => void end(0));
process.on('SIGINT', () => void end(0));

/** Copy `from` to `to` with the owner and modes of the original (the cluster's user, 0700 folders). */
function copyCluster(from, to) {
  fs.cpSync(from, to, { recursive: true });
  const { uid, gid } = fs.statSync(from);
  const own = (p) => {
    fs.chownSync(p, uid, gid);
    if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) own(path.join(p, e));
  };
  own(to);
  fs.chmodSync(to, 0o700);
}

async function query(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

async function main() {
  const primary = await startEmbeddedPostgres({ dataDir: path.join(root, 'primary'), persistent: true, ownSignals: true });
  clusters.push(primary);
  if (!primary.dataDir.startsWith(root)) folders.push(primary.dataDir);
  // A slot keeps every WAL segment the standby has not received yet, from the copy's checkpoint on.
  await query(primary.url, `SELECT pg_create_physical_replication_slot('standby', true)`);
  await primary.stop();
  const standbyDir = path.join(path.dirname(primary.dataDir), `${path.basename(primary.dataDir)}-standby`);
  if (!standbyDir.startsWith(root)) folders.push(standbyDir);
  copyCluster(primary.dataDir, standbyDir);
  for (const f of ['postmaster.pid', 'postmaster.opts', 'selo-api.owner']) fs.rmSync(path.join(standbyDir, f), { force: true });
  // The primary's slot is the primary's: a standby's copy of it would only hold WAL back there.
  for (const s of fs.readdirSync(path.join(standbyDir, 'pg_replslot'))) fs.rmSync(path.join(standbyDir, 'pg_replslot', s), { recursive: true, force: true });
  const { port } = primary;
  fs.appendFileSync(path.join(standbyDir, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${port} user=postgres password=selo application_name=standby'\nprimary_slot_name = 'standby'\nhot_standby_feedback = on\n`);
  fs.writeFileSync(path.join(standbyDir, 'standby.signal'), '');
  const { uid, gid } = fs.statSync(standbyDir);
  fs.chownSync(path.join(standbyDir, 'standby.signal'), uid, gid);
  await primary.restart();
  const standby = await startEmbeddedPostgres({ dataDir: standbyDir, persistent: true });
  clusters.push(standby);
  const [{ recovery }] = await query(standby.url, 'SELECT pg_is_in_recovery() AS recovery');
  if (!recovery) throw new Error('the standby is not in recovery');
  process.stdout.write(`${JSON.stringify({ primary: primary.url, standby: standby.url })}\n`);

  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', async (line) => {
    try {
      if (line === 'stop-standby') await standby.stop();
      else if (line === 'start-standby') await standby.restart();
      else throw new Error(`unknown command ${line}`);
      process.stdout.write('ok\n');
    } catch (e) {
      process.stdout.write(`error ${e instanceof Error ? e.message : String(e)}\n`);
    }
  });
  lines.on('close', () => void end(0));
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  void end(1);
});
