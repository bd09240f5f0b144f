// `node -r @swc-node/register bench/nfe-import.ts [NOTES]` (DATABASE_URL: a server for a scratch
// database): NF-e import speed, a ZIP of NOTES two-item notes in one upload, notes/s and peak RSS.
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { Client } from 'pg';
import { openDatabase } from '../src/database/data-source';
import { nfeKey } from '../src/formats/nfe-key';
import { translate } from '../src/i18n';
import { readUpload } from '../src/import/nfe/worker';
import { importNfe } from '../src/import/nfe/importer';
import { createServices } from '../src/services';
import { SYSTEM_ACTOR } from '../src/services/actor';

const TEMPLATE_KEY = '26260311222333000181550010000002011015917195';

async function main(): Promise<void> {
  const notes = Number(process.argv[2] ?? 2000);
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_nfe_${process.pid}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const ds = await openDatabase({ url: url.toString(), poolSize: 2 });
  try {
    await ds.query(`INSERT INTO municipality (ibge_code, name, state, region) VALUES ('2611606', 'Recife', 'PE', 'NORTHEAST'), ('4314902', 'Porto Alegre', 'RS', 'SOUTH')`);
    const [{ id }] = await ds.query(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code) VALUES ('11222333000181', 'Usina', '2611606') RETURNING id::text`);
    await ds.query(`INSERT INTO family_farmer (cpf, name, municipality_code) VALUES ('11144477735', 'João', '4314902')`);
    const template = fs.readFileSync(path.join(__dirname, '..', 'test', 'fixtures', 'nfe', 'entry-note-two-items.xml'), 'utf8');
    const entries: Record<string, Uint8Array> = {};
    for (let n = 1; n <= notes; n++) entries[`${n}.xml`] = Buffer.from(template.replaceAll(TEMPLATE_KEY, nfeKey('11222333000181', 10_000 + n)));
    const zip = Buffer.from(zipSync(entries));
    const started = process.hrtime.bigint();
    const read = readUpload({ name: 'notes.zip', bytes: zip });
    if (read.refused) throw new Error(translate(read.refused.text));
    const summary = await importNfe(ds, createServices(ds), SYSTEM_ACTOR, { producerId: id, read, partial: false });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const rss = process.resourceUsage().maxRSS / 1024;
    process.stdout.write(`${summary.notes} notes (${summary.purchases} purchases), ZIP ${(zip.length / 1024).toFixed(0)} KiB: ${seconds.toFixed(2)} s, ${(summary.notes / seconds).toFixed(0)} notes/s, peak RSS ${rss.toFixed(0)} MiB\n`);
  } finally {
    await ds.destroy();
    await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
