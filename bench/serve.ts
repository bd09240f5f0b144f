// `node -r @swc-node/register bench/serve.ts [--quick]`: builds the benchmark data in a fresh
// database and serves the API on PORT (default 4400), printing an ADMIN token, so that the nested
// page can be profiled (`node --cpu-prof`) or loaded by hand. Ctrl-C drops the database (unless
// BENCH_DATABASE named an existing one).
import 'reflect-metadata';
import { Client } from 'pg';
import pino from 'pino';
import { openDatabase } from '../src/database/data-source';
import { prepareDatabase } from '../src/database/prepare';
import { hs256, signToken } from '../src/graphql/auth/token';
import { Role } from '../src/law/types';
import { createApp } from '../src/server';
import { buildBenchData, SCALES } from './data';

const SECRET = 'bench-secret-with-enough-length-0123456789abcdef';

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('bench/serve.ts needs DATABASE_URL');
  // BENCH_DATABASE names a database already built by a previous run: served as it is, kept.
  const reuse = process.env.BENCH_DATABASE;
  const name = reuse ?? `selo_serve_${process.pid}`;
  if (!reuse) {
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  const ds = await openDatabase({ url: u.toString(), poolSize: 20 });
  await prepareDatabase(ds);
  if (!reuse) await buildBenchData(ds, process.argv.includes('--quick') ? SCALES.quick : SCALES.full);
  const app = await createApp({ dataSource: ds, verifier: hs256(SECRET), logger: pino({ level: 'silent' }) });
  const port = Number(process.env.PORT ?? 4400);
  await new Promise<void>((r) => app.httpServer.listen(port, '127.0.0.1', r));
  process.stdout.write(`READY ${port} ${await signToken(SECRET, { sub: 'bench', role: Role.ADMIN })}\n`);
  const stop = async () => {
    await app.stop();
    await ds.destroy();
    if (reuse) process.exit(0);
    const c = new Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
