/**
 * `npm run export -- tax-period|seal-compliance|purchases|efd --producer ID …` (or `program --year Y`): the exports of
 * GET /export/<kind> written to a file (or standard output with `--out -`), run as the operator
 * (ADMIN) on DATABASE_URL or, without it, on the embedded database of `npm start`.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Exporter, ExportFile, requireAsKnownOn, requireEfdFormat, requireFormat, requireIncidence, requireInt } from '../src/export/exporter';
import { parseLocale } from '../src/formats/brazilian';
import { openCliDatabase } from '../src/import/cli-database';
import { SYSTEM_ACTOR } from '../src/services/actor';
import { createServices } from '../src/services';
import { AppError } from '../src/services/errors';

const USAGE = `Usage: npm run export -- tax-period --producer ID --year YYYY --month M [--format csv|xlsx|pdf]
       npm run export -- seal-compliance --producer ID --year YYYY [--format csv|xlsx|pdf]
       npm run export -- purchases --producer ID [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--first N] [--after CURSOR] [--format csv|xlsx|pdf]
       npm run export -- efd --producer ID --year YYYY --month M [--format sped|draft] [--incidence non-cumulative|cumulative]
                                      (EFD-Contribuições of a closed month, special regime: the whole file, or the annotated draft)
       npm run export -- program --year YYYY [--format csv|xlsx|pdf]  (the Selo program as a whole)
Options: --as-known-on YYYY-MM-DD   law as known on that date (tax-period, seal-compliance, program; default today)
         --locale pt-BR|en          labels and notation (default pt-BR: ";", 30120,50, 03/11/2026)
         --out FILE                 where to write (default: the export's own file name here; "-" for standard output)`;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      producer: { type: 'string' }, year: { type: 'string' }, month: { type: 'string' }, format: { type: 'string' }, locale: { type: 'string' },
      'as-known-on': { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, first: { type: 'string' }, after: { type: 'string' },
      out: { type: 'string' }, incidence: { type: 'string' }, help: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) fail(USAGE, 0);
  const [kind] = positionals;
  if (!kind || positionals.length > 1 || !['tax-period', 'seal-compliance', 'purchases', 'efd', 'program'].includes(kind)) fail(USAGE);
  if (!values.producer && kind !== 'program') fail(`--producer ID is required.\n${USAGE}`);
  const locale = parseLocale(values.locale ?? 'pt-BR');
  if (!locale) fail(`--locale must be pt-BR or en.\n${USAGE}`);

  const db = await openCliDatabase((m) => process.stderr.write(`${m}\n`));
  const exporter = new Exporter(createServices(db.ds));
  try {
    const producerId = values.producer ?? '';
    const asKnownOn = requireAsKnownOn(values['as-known-on']);
    let file: ExportFile;
    if (kind === 'program') {
      file = await exporter.program(SYSTEM_ACTOR, { year: requireInt(values.year, 'year'), asKnownOn }, requireFormat(values.format ?? 'csv'), locale);
    } else if (kind === 'tax-period') {
      file = await exporter.taxPeriod(SYSTEM_ACTOR, { producerId, year: requireInt(values.year, 'year'), month: requireInt(values.month, 'month'), asKnownOn }, requireFormat(values.format ?? 'csv'), locale);
    } else if (kind === 'seal-compliance') {
      file = await exporter.sealCompliance(SYSTEM_ACTOR, { producerId, year: requireInt(values.year, 'year'), asKnownOn }, requireFormat(values.format ?? 'csv'), locale);
    } else if (kind === 'purchases') {
      file = await exporter.purchases(SYSTEM_ACTOR, {
        producerId, from: values.from ?? null, to: values.to ?? null, after: values.after ?? null, first: values.first ? requireInt(values.first, 'first') : null,
      }, requireFormat(values.format ?? 'csv'), locale);
    } else {
      file = await exporter.efd(SYSTEM_ACTOR, {
        producerId, year: requireInt(values.year, 'year'), month: requireInt(values.month, 'month'), format: requireEfdFormat(values.format), incidence: requireIncidence(values.incidence),
      });
    }
    const out = values.out ?? file.filename;
    if (out === '-') process.stdout.write(file.body);
    else {
      fs.writeFileSync(out, file.body);
      process.stderr.write(`Wrote ${out} (${file.body.length} bytes)${file.page?.hasNextPage ? `; more purchases after --after ${file.page.endCursor}` : ''}\n`);
    }
  } catch (e) {
    if (e instanceof AppError) {
      process.stderr.write(`Export refused (${e.code}): ${e.message}\n`);
      process.exitCode = 1;
    } else {
      throw e;
    }
  } finally {
    await exporter.close();
    await db.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
