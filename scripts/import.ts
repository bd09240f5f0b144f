// `npm run import -- <kind> FILE.csv|FILE.xlsx [--producer ID] [--delimiter ;] [--locale pt-BR]`,
// all or nothing, as ADMIN on DATABASE_URL or the embedded database. Kinds: municipalities,
// semiarid (`--act`, `--valid-from`, `--valid-until`), farmers, purchases, sales, nfe (README).
import 'reflect-metadata';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { openCliDatabase } from '../src/import/cli-database';
import { ImportLineError, ImportProblemsError } from '../src/import/import-error';
import { parseLocale } from '../src/formats/brazilian';
import { translate } from '../src/i18n';
import { importFile } from '../src/import/importer';
import { IMPORT_KINDS } from '../src/import/kinds';
import { formatSummary, progressReporter } from '../src/import/progress';
import { SYSTEM_ACTOR } from '../src/services/actor';
import { AppError } from '../src/services/errors';
import { runNfeImport } from './import-nfe';

const USAGE = `Usage: npm run import -- municipalities FILE.csv
       npm run import -- semiarid FILE.csv --act "Resolução Condel/Sudene nº 176/2024" --valid-from 2024-01-03 [--valid-until D]
       npm run import -- purchases|sales|farmers FILE.csv|FILE.xlsx --producer ID
       npm run import -- nfe FILE.xml|FILE.zip… --producer ID [--partial]
Options: --act, --valid-from, --valid-until   the edition of a semiarid file: its act and the days it delimits
                                   the Semiárido for (municipalities absent from it leave on --valid-from)
         --delimiter ','|';'|tab   CSV separator (default: detected from the header line)
         --locale pt-BR|en         numbers and dates as 30.120,50 and 03/11/2026 (pt-BR) or 30120.50 and
                                   2026-11-03 (en); messages in that language (default: detected from the file)`;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      producer: { type: 'string' }, act: { type: 'string' }, 'valid-from': { type: 'string' }, 'valid-until': { type: 'string' }, delimiter: { type: 'string' }, locale: { type: 'string' }, help: { type: 'boolean' }, partial: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) fail(USAGE, 0);
  const [kind, file] = positionals;
  if (kind === 'nfe') return runNfeImport(positionals.slice(1), values.producer, values.partial === true);
  if (!kind || !file || positionals.length > 2) fail(USAGE);
  if (!(kind in IMPORT_KINDS)) fail(`Unknown import "${kind}".\n${USAGE}`);
  if ((kind === 'purchases' || kind === 'sales') && !values.producer) fail(`A ${kind} file belongs to one producer: add --producer ID.\n${USAGE}`);
  if (!fs.existsSync(file)) fail(`No such file: ${file}`);
  const size = fs.statSync(file).size;
  const delimiter = values.delimiter === 'tab' ? '\t' : values.delimiter;
  if (delimiter !== undefined && ![',', ';', '\t'].includes(delimiter)) fail(`--delimiter must be ',', ';' or tab.\n${USAGE}`);
  const locale = parseLocale(values.locale);
  if (locale === undefined) fail(`--locale must be pt-BR or en.\n${USAGE}`);

  const db = await openCliDatabase((m) => process.stderr.write(`${m}\n`));
  const progress = progressReporter(process.stderr, size, `${kind} ${file}`);
  try {
    const summary = await importFile(db.ds, SYSTEM_ACTOR, {
      kind,
      producerId: values.producer ?? null,
      edition: { act: values.act ?? null, validFrom: values['valid-from'] ?? null, validUntil: values['valid-until'] ?? null },
      input: fs.createReadStream(file, { highWaterMark: 1 << 20 }),
      delimiter,
      locale,
      onProgress: progress.onProgress,
      progressEveryMs: process.stderr.isTTY ? 100 : 1000,
    });
    progress.stop();
    process.stdout.write(`${formatSummary(summary)}\n`);
  } catch (e) {
    progress.stop();
    if (e instanceof AppError) {
      const reason = (e instanceof ImportLineError || e instanceof ImportProblemsError) && e.reason ? ` ${e.reason}` : '';
      const message = translate(e.text, locale ?? 'en');
      process.stderr.write(locale === 'pt-BR'
        ? `\nImportação recusada, nada foi gravado (${e.code}${reason}): ${message}\n`
        : `\nImport refused, nothing was written (${e.code}${reason}): ${message}\n`);
      // Every bad line (up to MAX_REPORTED_PROBLEMS), one a line, when there is more than one.
      if (e instanceof ImportProblemsError && e.problemCount > 1) {
        for (const p of e.problems) process.stderr.write(`  ${p.code}${p.reason ? ` ${p.reason}` : ''}: ${translate(p.text, locale ?? 'en')}\n`);
      }
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
