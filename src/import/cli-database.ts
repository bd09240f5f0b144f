import fs from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config';
import { openDatabase } from '../database/data-source';
import { prepareDatabase } from '../database/prepare';

interface EmbeddedModule {
  startEmbeddedPostgres(o: { dataDir: string; persistent?: boolean; log?: (m: string) => void }): Promise<{ url: string; stop(): Promise<void> }>;
  fallbackDataDir(dataDir: string): string;
}

/** The port of an embedded PostgreSQL already running on `dir` (`npm start`), from its postmaster.pid. */
function runningPort(dir: string): number | null {
  try {
    const [pid, , , port] = fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n');
    process.kill(Number(pid), 0);
    return Number(port) || null;
  } catch {
    return null;
  }
}

/**
 * The database the command-line tools (`npm run import`, `npm run seed`) work on: DATABASE_URL
 * when set, else the embedded default of `npm start` (the README) — the running one when
 * `npm start` is up, otherwise started for the command and stopped after it.
 */
export async function openCliDatabase(log: (m: string) => void): Promise<{ ds: DataSource; embedded: boolean; close(): Promise<void> }> {
  const config = loadConfig();
  let url = config.databaseUrl;
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    const dir = path.resolve(config.dataDir);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const embedded: EmbeddedModule = require('../database/embedded.mjs');
    const port = runningPort(dir) ?? runningPort(embedded.fallbackDataDir(dir));
    if (port) {
      url = `postgres://postgres:selo@127.0.0.1:${port}/postgres`;
    } else {
      const pg = await embedded.startEmbeddedPostgres({ dataDir: dir, log });
      url = pg.url;
      stop = () => pg.stop();
    }
  }
  const ds = await openDatabase({ url, poolSize: 4 });
  await prepareDatabase(ds);
  return {
    ds,
    embedded: !config.databaseUrl,
    async close() {
      await ds.destroy();
      if (stop) await stop();
    },
  };
}
