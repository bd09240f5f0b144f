/**
 * `npm run seed`: load the demo dataset (src/database/demo-data.ts) into DATABASE_URL or, without
 * it, into the embedded database of `npm start`. Refuses, changing nothing, when it is already
 * loaded.
 */
import 'reflect-metadata';
import { demoDataLoaded, DEMO_MARKER_CNPJ, loadDemoData } from '../src/database/demo-data';
import { openCliDatabase } from '../src/import/cli-database';

async function main(): Promise<void> {
  const db = await openCliDatabase((m) => process.stderr.write(`${m}\n`));
  try {
    if (await demoDataLoaded(db.ds)) {
      process.stdout.write(`The demo dataset is already loaded (producer with CNPJ ${DEMO_MARKER_CNPJ}); nothing was changed.\n`);
      return;
    }
    const started = performance.now();
    const counts = await loadDemoData(db.ds);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    process.stdout.write(`Demo dataset loaded in ${seconds} s: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
    const [first] = await db.ds.query('SELECT id::text, legal_name FROM producer WHERE cnpj = $1', [DEMO_MARKER_CNPJ]);
    process.stdout.write(`Try it: npm run token -- --role PRODUCER --producer ${first.id}   (${first.legal_name})\n`);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
