/**
 * `npm run import -- <kind> FILE.csv [--producer ID] [--delimiter ;]`: load a CSV file, all or
 * nothing. Kinds: municipalities (ibgeCode, name, semiarid: the official Semiárido list),
 * farmers, purchases, sales (the fields of the GraphQL inputs). Runs as the operator (ADMIN) on
 * DATABASE_URL or, without it, on the embedded database of `npm start`.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { openCliDatabase } from '../src/import/cli-database';
import { ImportLineError } from '../src/import/import-error';
import { detectDelimiter, importCsv } from '../src/import/importer';
import { IMPORT_KINDS } from '../src/import/kinds';
import { formatSummary, progressReporter } from '../src/import/progress';
import { SYSTEM_ACTOR } from '../src/services/actor';
import { AppError } from '../src/services/errors';

const USAGE = `Usage: npm run import -- municipalities FILE.csv
       npm run import -- purchases|sales|farmers FILE.csv --producer ID
Options: --delimiter ','|';'|tab (default: guessed from the header line)`;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { producer: { type: 'string' }, delimiter: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) fail(USAGE, 0);
  const [kind, file] = positionals;
  if (!kind || !file || positionals.length > 2) fail(USAGE);
  if (!(kind in IMPORT_KINDS)) fail(`Unknown import "${kind}".\n${USAGE}`);
  if ((kind === 'purchases' || kind === 'sales') && !values.producer) fail(`A ${kind} file belongs to one producer: add --producer ID.\n${USAGE}`);
  if (!fs.existsSync(file)) fail(`No such file: ${file}`);
  const size = fs.statSync(file).size;
  let delimiter = values.delimiter === 'tab' ? '\t' : values.delimiter;
  if (!delimiter) {
    const fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(Math.min(size, 8192));
    fs.readSync(fd, head, 0, head.length, 0);
    fs.closeSync(fd);
    delimiter = detectDelimiter(head.toString('utf8'));
  }

  const db = await openCliDatabase((m) => process.stderr.write(`${m}\n`));
  const progress = progressReporter(process.stderr, size, `${kind} ${file}`);
  try {
    const summary = await importCsv(db.ds, SYSTEM_ACTOR, {
      kind,
      producerId: values.producer ?? null,
      input: fs.createReadStream(file, { highWaterMark: 1 << 20 }),
      delimiter,
      onProgress: progress.onProgress,
      progressEveryMs: process.stderr.isTTY ? 100 : 1000,
    });
    progress.stop();
    process.stdout.write(`${formatSummary(summary)}\n`);
  } catch (e) {
    progress.stop();
    if (e instanceof AppError) {
      const reason = e instanceof ImportLineError && e.reason ? ` ${e.reason}` : '';
      process.stderr.write(`\nImport refused, nothing was written (${e.code}${reason}): ${e.message}\n`);
      process.exitCode = 1;
    } else {
      throw e;
    }
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
