import fs from 'node:fs';
import path from 'node:path';
import { openCliDatabase } from '../src/import/cli-database';
import { XmlFile, xmlFiles } from '../src/import/nfe/archive';
import { importNfe, NfeImportError } from '../src/import/nfe/importer';
import { createServices } from '../src/services';
import { SYSTEM_ACTOR } from '../src/services/actor';
import { AppError } from '../src/services/errors';
import { translate } from '../src/i18n';

/**
 * `npm run import -- nfe FILE.xml|FILE.zip… --producer ID [--partial]`: the NF-e import of
 * `POST /import/nfe` from the command line, as the operator, all or nothing unless --partial.
 */
export async function runNfeImport(files: string[], producerId: string | undefined, partial: boolean): Promise<void> {
  if (!producerId) throw new Error('NF-e belong to one producer: add --producer ID');
  const xml: XmlFile[] = files.flatMap((f) => xmlFiles(path.basename(f), fs.readFileSync(f)));
  const db = await openCliDatabase((m) => process.stderr.write(`${m}\n`));
  try {
    const started = process.hrtime.bigint();
    const summary = await importNfe(db.ds, createServices(db.ds), SYSTEM_ACTOR, { producerId, files: xml, partial });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const { problems, ...counts } = summary;
    process.stdout.write(`${JSON.stringify(counts)} in ${seconds.toFixed(2)} s (${(summary.notes / seconds).toFixed(0)} notes/s)\n`);
    for (const p of problems) process.stdout.write(`  not written: ${p.file}${p.key ? ` ${p.key}` : ''}${p.item !== null ? ` item ${p.item}` : ''}: ${translate(p.reason)}\n`);
  } catch (e) {
    if (e instanceof NfeImportError) {
      process.stderr.write('Import refused, nothing was written:\n');
      for (const p of e.problems) process.stderr.write(`  ${p.file}${p.key ? ` ${p.key}` : ''}${p.item !== null ? ` item ${p.item}` : ''}: ${translate(p.reason)}\n`);
      process.exitCode = 1;
    } else if (e instanceof AppError) {
      process.stderr.write(`Import refused, nothing was written (${e.code}): ${e.message}\n`);
      process.exitCode = 1;
    } else {
      throw e;
    }
  } finally {
    await db.close();
  }
}
