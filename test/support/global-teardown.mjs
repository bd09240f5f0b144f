import fs from 'node:fs';

export default async function globalTeardown() {
  const pg = globalThis.__SELO_TEST_PG__;
  if (!pg) return;
  try {
    await pg.stop();
  } finally {
    fs.rmSync(pg.root, { recursive: true, force: true });
  }
}
