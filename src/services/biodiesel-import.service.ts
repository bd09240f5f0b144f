import { DataSource, EntityManager } from 'typeorm';
import { BiodieselImport } from '../domain';
import { firstDayOfMonth, IsoDate, lastDayOfMonth } from '../law/dates';
import { Decimal } from '../law/decimal';
import { LawBook } from '../law/law-book';
import { ImportContributionsFigures, ImportFacts, importContributions } from '../law/tax-period';
import { Actor } from './actor';
import { BadInputError, ConflictError } from './errors';
import { Connection } from './pagination';
import { IMPORT_KEYSET } from './keysets';
import { pagesByProducer, ProducerPageKey } from './producer-pages';
import { Problems } from './problems';
import { assertWritable, insertInChunks, requireDate, requireOpenPeriods, requirePositiveDecimal, requireWritableProducers } from './record-batch';
import { requireVisibleProducer } from './seal.service';
import { AuditRecord, mutate } from './transaction';
import { checkedNfeKey } from './nfe-key-input';
import { nfeKeyIssuer } from '../formats/nfe-key';
import { message } from '../i18n';
import { checkMonth } from './validation';
import { activeSql } from './record-state';

export interface RecordImportInput {
  producerId: string;
  clearedOn: string;
  volumeM3: Decimal;
  declarationNumber: string;
  invoiceKey?: string | null;
}

/** A DI (26/1234567-8) or a DUIMP (26BR00000012345-6). */
const DECLARATION = /^[0-9A-Z][0-9A-Z./-]{4,39}$/;

/** A JSON array, for a statement of one or of many producers. */
export function importsOfMonthSql(producer: string, first: string, last: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('id', i.id::text, 'declarationNumber', i.declaration_number, 'clearedOn', i.cleared_on,
              'volumeM3', i.volume_m3::text) ORDER BY i.cleared_on, i.id), '[]'::json)
      FROM biodiesel_import i WHERE i.producer_id = ${producer} AND i.cleared_on BETWEEN ${first} AND ${last} AND ${activeSql('i')})`;
}

export function importFacts(json: Array<{ id: string; declarationNumber: string; clearedOn: string; volumeM3: string }>): ImportFacts[] {
  return json.map((r) => ({ id: r.id, declarationNumber: r.declarationNumber, clearedOn: r.clearedOn, volumeM3: new Decimal(r.volumeM3) }));
}

export async function importsOfMonth(q: DataSource | EntityManager, producerId: string, year: number, month: number): Promise<ImportFacts[]> {
  const [row] = await q.query(`SELECT ${importsOfMonthSql('$1', '$2::date', '$3::date')} AS imports`, [producerId, firstDayOfMonth(year, month), lastDayOfMonth(year, month)]);
  return importFacts(row.imports);
}

export interface ProducerCnpjs { id: string; cnpj: string; establishments: string[] }
export const PRODUCER_CNPJS = ['id', 'cnpj', 'establishments::text[] AS establishments'];

/**
 * The entry NF-e of an imported good is issued by the importer itself (Ajuste SINIEF 07/2005; the
 * key's positions 7 to 20 are the issuer's CNPJ): a key naming another CNPJ than the producer's or
 * one of its establishments is not this import's document (docs/LAW.md).
 */
export function checkIssuer(producer: ProducerCnpjs | undefined, invoiceKey: string | null, field: string, problems: Problems): void {
  if (!producer || invoiceKey === null) return;
  const issuer = nfeKeyIssuer(invoiceKey);
  if (issuer !== producer.cnpj && !producer.establishments.includes(issuer)) {
    problems.add(new BadInputError(field, message('biodieselImport.invoiceKeyIssuer', { issuer })));
  }
}

/** Decreto 10.527/2020, art. 5º §1º; the figures in src/law/tax-period/imports.ts. */
export class BiodieselImportService {
  constructor(private readonly ds: DataSource, private readonly lawBook: () => Promise<LawBook>) {}

  pagesByProducer(actor: Actor, keys: readonly ProducerPageKey[]): Promise<Array<Connection<BiodieselImport> | Error>> {
    return pagesByProducer(this.ds, actor, { entity: BiodieselImport, keyset: IMPORT_KEYSET }, keys);
  }

  /** One bad item writes nothing, and every bad item is reported. */
  async record(actor: Actor, inputs: RecordImportInput[]): Promise<BiodieselImport[]> {
    assertWritable(actor, inputs.map((s, i) => ({ field: `input[${i}].producerId`, id: s.producerId })));
    if (inputs.length === 0) return [];
    return mutate(this.ds, actor, (em) => this.write(em, actor, inputs));
  }

  /** The NF-e import writes several kinds in one transaction. */
  async write(em: EntityManager, actor: Actor, inputs: RecordImportInput[]): Promise<{ result: BiodieselImport[]; audit: AuditRecord[] }> {
    assertWritable(actor, inputs.map((s, i) => ({ field: `input[${i}].producerId`, id: s.producerId })));
    const problems = new Problems();
    const checked = inputs.map((input, i) => problems.check(() => BiodieselImportService.toRow(input, `input[${i}]`)));
    const seen = new Set<string>();
    checked.forEach((r, i) => {
      if (!r) return;
      const key = `${r.producerId}|${r.declarationNumber}`;
      if (seen.has(key)) problems.add(new ConflictError('DUPLICATE', message('biodieselImport.declarationTwice', { number: r.declarationNumber }), `input[${i}].declarationNumber`));
      seen.add(key);
    });
    const items = checked.flatMap((r, i) => (r ? [{ r, i }] : []));
    const producers = await requireWritableProducers<ProducerCnpjs>(
      em, actor, items.map(({ r, i }) => ({ field: `input[${i}].producerId`, id: r.producerId })), problems, PRODUCER_CNPJS,
    );
    // An item whose producer is not found is reported once, at its producerId: the checks below
    // read that producer's records, and its id may not even be a number.
    const known = items.filter(({ r }) => producers.has(r.producerId));
    for (const { r, i } of known) checkIssuer(producers.get(r.producerId), r.invoiceKey, `input[${i}].invoiceKey`, problems);
    const taken: Array<{ producer_id: string; declaration_number: string }> = await em.query(
      `SELECT producer_id::text, declaration_number FROM biodiesel_import
        WHERE (producer_id, declaration_number) IN (SELECT * FROM unnest($1::bigint[], $2::text[]))`,
      [known.map(({ r }) => r.producerId), known.map(({ r }) => r.declarationNumber)],
    );
    const takenKeys = new Set(taken.map((t) => `${t.producer_id}|${t.declaration_number}`));
    for (const { r, i } of known.filter(({ r }) => takenKeys.has(`${r.producerId}|${r.declarationNumber}`))) {
      problems.add(new ConflictError('DUPLICATE', message('biodieselImport.declarationTaken', { number: r.declarationNumber, producerId: r.producerId }), `input[${i}].declarationNumber`));
    }
    // The contributions are due in the month of clearance, which must be open.
    await requireOpenPeriods(em, checked.map((r) => (r && producers.has(r.producerId) ? r : undefined)), (r) => r.clearedOn, (n) => `input[${n}].clearedOn`, problems);
    problems.throwIfAny();
    const rows = checked as BiodieselImport[];
    await insertInChunks(em, BiodieselImport, rows);
    return {
      result: rows,
      audit: rows.map((r) => ({ operation: 'recordImports', entity: 'BiodieselImport', entityId: r.id, producerId: r.producerId, after: r })),
    };
  }

  static toRow(input: RecordImportInput, at: string): BiodieselImport {
    const clearedOn = requireDate(input.clearedOn, `${at}.clearedOn`);
    const volumeM3 = requirePositiveDecimal(input.volumeM3, `${at}.volumeM3`);
    const declarationNumber = typeof input.declarationNumber === 'string' ? input.declarationNumber.trim().toUpperCase() : '';
    if (!DECLARATION.test(declarationNumber)) {
      throw new BadInputError(`${at}.declarationNumber`, message('biodieselImport.declarationNumber', { field: 'declarationNumber' }));
    }
    const invoiceKey = input.invoiceKey == null ? null : checkedNfeKey(input.invoiceKey, `${at}.invoiceKey`);
    return Object.assign(new BiodieselImport(), { producerId: input.producerId, clearedOn, volumeM3, declarationNumber, invoiceKey });
  }

  /** A PRODUCER its own; another is NOT_FOUND. */
  async contributions(actor: Actor, producerId: string, year: number, month: number, asKnownOn: IsoDate): Promise<ImportContributionsFigures> {
    checkMonth(year, month);
    await requireVisibleProducer(this.ds, actor, producerId);
    return importContributions(await this.lawBook(), await importsOfMonth(this.ds, producerId, year, month), asKnownOn);
  }
}
