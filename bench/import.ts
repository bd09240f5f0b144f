// `node -r @swc-node/register bench/import.ts [--rows 1000000] [--json]`: generate a purchases CSV
// (into the OS temp dir) and import it as `npm run import -- purchases` does, printing rows/s and
// the process's peak RSS (target: >= 50,000 rows/s, peak RSS < 300 MB). Uses the server of DATABASE_URL, or a
// throwaway embedded PostgreSQL; either way in a database of its own, dropped at the end.
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { recordSemiaridEditions } from '../src/database/semiarid-editions';
import { openDatabase } from '../src/database/data-source';
import { prepareDatabase } from '../src/database/prepare';
import { importFile } from '../src/import/importer';
import { progressReporter } from '../src/import/progress';
import { SYSTEM_ACTOR } from '../src/services/actor';

const HEADER = 'purchasedOn,consumedOn,feedstock,quantityKg,cost,supplierKind,familyFarmerId,organizationId,supplierName,originMunicipalityCode,contractId,purpose,externalId';

/** A database of its own on the server of DATABASE_URL (dropped after), or a throwaway embedded cluster. */
async function database(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const server = process.env.DATABASE_URL;
    const name = `selo_bench_import_${process.pid}`;
    const admin = async (sql: string) => {
      const c = new Client({ connectionString: server });
      await c.connect();
      try { await c.query(sql); } finally { await c.end(); }
    };
    await admin(`CREATE DATABASE ${name}`);
    const u = new URL(server);
    u.pathname = `/${name}`;
    return { url: u.toString(), stop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-bench-import-'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const embedded = require('../src/database/embedded.mjs') as { startEmbeddedPostgres(o: { dataDir: string; persistent?: boolean }): Promise<{ url: string; stop(): Promise<void> }> };
  const pg = await embedded.startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), persistent: false });
  return { url: pg.url, stop: async () => { await pg.stop(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

/** The file: farmers under contracts (60%), cooperatives (10%), third parties (20%), own production (10%), each line with an externalId. */
function generate(file: string, rows: number, ids: { farmers: string[]; cooperative: string; contracts: Map<string, string> }): void {
  const out = fs.openSync(file, 'w');
  let chunk = `${HEADER}\n`;
  const codes = ['2611101', '4314100', '5107925', '2910800'];
  for (let i = 0; i < rows; i++) {
    const day = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    const kg = `${100 + (i % 900)}.${i % 100}`;
    const cost = `${(250 + (i % 900)) * 2}.${i % 90}`;
    const k = i % 10;
    const code = codes[i % codes.length];
    if (k < 6) {
      const farmer = ids.farmers[i % ids.farmers.length];
      chunk += `${day},,SOYBEAN,${kg},${cost},FAMILY_FARMER,${farmer},,,${code},${ids.contracts.get(farmer)},,nf-${i}\n`;
    } else if (k === 6) chunk += `${day},,CASTOR_BEAN,${kg},${cost},COOPERATIVE,,${ids.cooperative},,${code},,,nf-${i}\n`;
    else if (k < 9) chunk += `${day},,SOYBEAN,${kg},${cost},THIRD_PARTY,,,Cerealista ${i % 50},${code},,,nf-${i}\n`;
    else chunk += `${day},,SOYBEAN,${kg},,OWN_PRODUCTION,,,,${code},,,nf-${i}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, json: { type: 'boolean', default: false } } });
  const rows = Number(values.rows);
  const db = await database();
  const ds = await openDatabase({ url: db.url, poolSize: 2 });
  const file = path.join(os.tmpdir(), `selo-bench-purchases-${process.pid}.csv`);
  try {
    await prepareDatabase(ds);
    const q = (sql: string, params: unknown[] = []) => ds.query(sql, params);
    const added: Array<{ ibge_code: string }> = await q(`INSERT INTO municipality (ibge_code, name, state, region) VALUES
               ('2611101', 'Petrolina', 'PE', 'NORTHEAST'), ('4314100', 'Passo Fundo', 'RS', 'SOUTH'),
               ('5107925', 'Sorriso', 'MT', 'CENTER_WEST'), ('2910800', 'Feira de Santana', 'BA', 'NORTHEAST')
             ON CONFLICT DO NOTHING RETURNING ibge_code`);
    await recordSemiaridEditions(ds.manager, added.map((m) => m.ibge_code).filter((c) => c === '2611101' || c === '2910800'));
    const [{ id: producerId }] = await q(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code) VALUES (lpad((70000000000000 + $1::bigint)::text, 14, '0'), 'Usina do benchmark de importação', '2611101') RETURNING id::text`, [process.pid]);
    const farmers: Array<{ id: string }> = await q(`INSERT INTO family_farmer (cpf, name, municipality_code)
                                                     SELECT lpad((60000000000 + $1::bigint * 1000 + g)::text, 11, '0'), 'Agricultor ' || g, '2611101' FROM generate_series(1, 500) g RETURNING id::text`, [process.pid % 1000000]);
    const contracts: Array<{ id: string; family_farmer_id: string }> = await q(
      `INSERT INTO contract (producer_id, family_farmer_id, signed_on, valid_from, valid_until, feedstock, quantity_kg, price_per_kg, technical_assistance)
       SELECT $1, id, '2025-12-01', '2026-01-01', '2026-12-31', 'SOYBEAN', 10000000, 2.5, true FROM unnest($2::bigint[]) id RETURNING id::text, family_farmer_id::text`,
      [producerId, farmers.map((f) => f.id)],
    );
    const [{ id: cooperative }] = await q(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members)
                                           VALUES (lpad((50000000000000 + $1::bigint)::text, 14, '0'), 'Cooperativa do benchmark', 'COOPERATIVE', '2910800', 100, 80) RETURNING id::text`, [process.pid]);
    generate(file, rows, { farmers: farmers.map((f) => f.id), cooperative, contracts: new Map(contracts.map((c) => [c.family_farmer_id, c.id])) });
    const bytes = fs.statSync(file).size;

    const baselineRss = process.memoryUsage.rss();
    let peak = baselineRss;
    let peakHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 25);
    const progress = progressReporter(process.stderr, bytes, `purchases ${rows} lines`);
    const summary = await importFile(ds, SYSTEM_ACTOR, { kind: 'purchases', producerId, input: fs.createReadStream(file, { highWaterMark: 1 << 20 }), onProgress: progress.onProgress, progressEveryMs: 1000 });
    progress.stop();
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss(), process.resourceUsage().maxRSS * 1024);
    const stored = Number((await q('SELECT count(*) AS n FROM purchase WHERE producer_id = $1', [producerId]))[0].n);
    const result = {
      rows: summary.rows, stored, fileMB: Math.round(bytes / 2 ** 20), seconds: Math.round(summary.seconds * 100) / 100,
      rowsPerSecond: Math.round(summary.rowsPerSecond), peakRssMB: Math.round(peak / 2 ** 20), rssBeforeImportMB: Math.round(baselineRss / 2 ** 20), peakHeapMB: Math.round(peakHeap / 2 ** 20),
      pass: stored === rows && summary.rowsPerSecond >= 50_000 && peak < 300 * 2 ** 20,
    };
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else process.stdout.write(`import of ${rows} purchases (${result.fileMB} MB): ${result.seconds} s, ${result.rowsPerSecond} rows/s, peak RSS ${result.peakRssMB} MB (${result.rssBeforeImportMB} MB before the import; peak JS heap ${result.peakHeapMB} MB) — ${result.pass ? 'meets' : 'misses'} >= 50,000 rows/s and < 300 MB\n`);
  } finally {
    fs.rmSync(file, { force: true });
    await ds.destroy();
    await db.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
