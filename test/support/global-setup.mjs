// Jest global setup: with no DATABASE_URL, start a throwaway embedded PostgreSQL for the run.
// Each test file then creates its own database in it (test/support/database.ts).
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { startEmbeddedPostgres } from '../../src/database/embedded.mjs';

export default async function globalSetup() {
  if (process.env.DATABASE_URL) return;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-api-test-pg-'));
  fs.chmodSync(dataDir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'data'), persistent: false });
  process.env.DATABASE_URL = pg.url;
  globalThis.__SELO_TEST_PG__ = { ...pg, root: dataDir };
}
