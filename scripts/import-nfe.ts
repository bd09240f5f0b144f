import fs from 'node:fs';
import path from 'node:path';
import { openCliDatabase } from '../src/import/cli-database';
import { importNfe, NfeImportError } from '../src/import/nfe/importer';
import { NFE_LIMITS } from '../src/import/nfe/archive';
import { ReadUpload, readUpload, uploadTooManyItems } from '../src/import/nfe/worker';
import { BadInputError } from '../src/services/errors';
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
  // Read here, on the command line's own thread: there is no other request to keep answering.
  const read: ReadUpload = { files: 0, items: 0, documents: [], problems: [], problemCount: 0 };
  for (const f of files) {
    const one = readUpload({ name: path.basename(f), bytes: fs.readFileSync(f) });
    if (one.refused) throw new BadInputError(one.refused.field, one.refused.text);
    // The files given are one import, one transaction: capped in items as one upload is.
    read.items += one.items;
    if (read.items > NFE_LIMITS.items) throw uploadTooManyItems();
    read.files += one.files;
    for (const d of one.documents) read.documents.push(d);
    for (const p of one.problems) read.problems.push(p);
    read.problemCount += one.problemCount;
  }
  const db = await openCliDatabase((m) => process.stderr.write(`${m}\n`));
  try {
    const started = process.hrtime.bigint();
    const summary = await importNfe(db.ds, createServices(db.ds), SYSTEM_ACTOR, { producerId, read, partial });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const { problems, problemCount, ...counts } = summary;
    process.stdout.write(`${JSON.stringify(counts)} in ${seconds.toFixed(2)} s (${(summary.notes / seconds).toFixed(0)} notes/s)\n`);
    for (const p of problems) process.stdout.write(`  not written: ${p.file}${p.key ? ` ${p.key}` : ''}${p.item !== null ? ` item ${p.item}` : ''}: ${translate(p.reason)}\n`);
    if (problemCount > problems.length) process.stdout.write(`  … ${problemCount - problems.length} more not written\n`);
  } catch (e) {
    if (e instanceof NfeImportError) {
      process.stderr.write('Import refused, nothing was written:\n');
      for (const p of e.problems) process.stderr.write(`  ${p.file}${p.key ? ` ${p.key}` : ''}${p.item !== null ? ` item ${p.item}` : ''}: ${translate(p.reason)}\n`);
      if (e.problemCount > e.problems.length) process.stderr.write(`  … and ${e.problemCount - e.problems.length} more\n`);
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
