// Jest global setup: with no DATABASE_URL, start a throwaway embedded PostgreSQL for the run.
// Each test file then creates its own database in it (test/support/database.ts).
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { EmbeddedPostgresError, startEmbeddedPostgres } from '../../src/database/embedded.mjs';

export default async function globalSetup() {
  if (process.env.DATABASE_URL) return;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-api-test-pg-'));
  fs.chmodSync(root, 0o755);
  let pg;
  try {
    pg = await startEmbeddedPostgres({ dataDir: path.join(root, 'data'), persistent: false });
  } catch (e) {
    // Nothing of the run stays behind; the cause is said in its one line, without a stack.
    fs.rmSync(root, { recursive: true, force: true });
    if (!(e instanceof EmbeddedPostgresError)) throw e;
    process.stderr.write(`\nselo-api tests: ${e.message}\n`);
    process.exit(1);
  }
  process.env.DATABASE_URL = pg.url;
  globalThis.__SELO_TEST_PG__ = { ...pg, root };
}
