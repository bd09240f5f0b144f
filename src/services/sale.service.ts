import { DataSource, EntityManager } from 'typeorm';
import { Sale } from '../domain';
import { Decimal } from '../law/decimal';
import { BiodieselOrigin, Market } from '../law/types';
import { Actor } from './actor';
import { BadInputError, ConflictError } from './errors';
import { Connection } from './pagination';
import { SALE_KEYSET } from './keysets';
import { pagesByProducer, ProducerPageKey } from './producer-pages';
import { assertWritable, insertInChunks, requireDate, requireOpenPeriods, requirePositiveDecimal, requireWritableProducers } from './record-batch';
import { AuditRecord, mutate } from './transaction';
import { message } from '../i18n';
import { nfeKeyIssuer } from '../formats/nfe-key';
import { checkedNfeKey } from './nfe-key-input';
import { Problems } from './problems';

export interface RecordSaleInput {
  producerId: string;
  soldOn: string;
  volumeM3: Decimal;
  revenue: Decimal;
  origin?: BiodieselOrigin | null;
  market?: Market | null;
  invoiceKey?: string | null;
}


/**
 * Sales of biodiesel: the PIS/Cofins base (Lei 11.116/2005, arts. 3º–4º) and the Selo base
 * (Decreto 10.527/2020, art. 3º §3º II–III). Recorded in batches, all or nothing.
 */
export class SaleService {
  constructor(private readonly ds: DataSource) {}

  /** Producer.sales for many producers at once, ordered by soldOn then id; from/to bound soldOn. */
  pagesByProducer(actor: Actor, keys: readonly ProducerPageKey[]): Promise<Array<Connection<Sale> | Error>> {
    return pagesByProducer(this.ds, actor, { entity: Sale, keyset: SALE_KEYSET }, keys);
  }

  /** Record a batch: every item is validated, then all are inserted in multi-row INSERTs; one bad item writes nothing. */
  async record(actor: Actor, inputs: RecordSaleInput[]): Promise<Sale[]> {
    assertWritable(actor, inputs.map((s, i) => ({ field: `input[${i}].producerId`, id: s.producerId })));
    if (inputs.length === 0) return [];
    return mutate(this.ds, actor, (em) => this.write(em, actor, inputs));
  }

  /** record's work in a transaction the caller holds (the NF-e import writes several kinds in one). */
  async write(em: EntityManager, actor: Actor, inputs: RecordSaleInput[]): Promise<{ result: Sale[]; audit: AuditRecord[] }> {
    assertWritable(actor, inputs.map((s, i) => ({ field: `input[${i}].producerId`, id: s.producerId })));
    const problems = new Problems();
    const checked = inputs.map((input, i) => problems.check(() => SaleService.toRow(input, `input[${i}]`)));
    SaleService.rejectRepeatedInvoiceKeys(checked, problems);
    await this.checkBatch(em, actor, checked, problems);
    problems.throwIfAny();
    const rows = checked as Sale[];
    await insertInChunks(em, Sale, rows);
    return {
      result: rows,
      audit: rows.map((r) => ({ operation: 'recordSales', entity: 'Sale', entityId: r.id, producerId: r.producerId, after: r })),
    };
  }

  /** The checks one item needs no database for (docs/API.md "Errors"), naming the offending field. */
  static toRow(input: RecordSaleInput, at: string): Sale {
    const soldOn = requireDate(input.soldOn, `${at}.soldOn`);
    const volumeM3 = requirePositiveDecimal(input.volumeM3, `${at}.volumeM3`);
    const revenue = requirePositiveDecimal(input.revenue, `${at}.revenue`);
    const origin = input.origin ?? BiodieselOrigin.OWN_PRODUCTION;
    if (!Object.values(BiodieselOrigin).includes(origin)) throw new BadInputError(`${at}.origin`, message('input.unknownValue', { what: 'origin', value: String(origin) }));
    const market = input.market ?? Market.DOMESTIC;
    if (!Object.values(Market).includes(market)) throw new BadInputError(`${at}.market`, message('input.unknownValue', { what: 'market', value: String(market) }));
    const invoiceKey = input.invoiceKey == null ? null : checkedNfeKey(input.invoiceKey, `${at}.invoiceKey`);
    return Object.assign(new Sale(), { producerId: input.producerId, soldOn, volumeM3, revenue, origin, market, invoiceKey });
  }

  /** An invoiceKey twice in the batch is a CONFLICT too (a key names one sale). */
  static rejectRepeatedInvoiceKeys(rows: Array<Sale | undefined>, problems?: Problems): void {
    const seen = new Set<string>();
    rows.forEach((r, i) => {
      if (!r || r.invoiceKey === null) return;
      if (seen.has(r.invoiceKey)) {
        const error = new ConflictError('DUPLICATE', message('sale.invoiceKeyTwice', { key: r.invoiceKey }), `input[${i}].invoiceKey`);
        if (!problems) throw error;
        problems.add(error);
      }
      seen.add(r.invoiceKey);
    });
  }

  /**
   * The checks against the database, inside the mutation's transaction, with one statement per
   * kind whatever the batch size. This is where every rule that reads stored data is applied
   * before the batch is written.
   */
  async checkBatch(em: EntityManager, actor: Actor, rows: Array<Sale | undefined>, problems: Problems, correcting?: { id: string; at: string }): Promise<void> {
    const at = (i: number) => correcting?.at ?? `input[${i}]`;
    const items = rows.flatMap((r, i) => (r ? [{ r, i }] : []));
    // With each producer's CNPJs: a key names its issuer, the producer's CNPJ or one of its
    // establishments, else it is not this producer's to record (whoever else it may be).
    const producers = await requireWritableProducers<{ id: string; cnpj: string; establishments: string[] }>(
      em, actor, items.map(({ r, i }) => ({ field: `${at(i)}.producerId`, id: r.producerId })), problems, ['id', 'cnpj', 'establishments::text[] AS establishments'],
    );
    // An item whose producer is not found is reported once, at its producerId: the checks below
    // read that producer's records, and its id may not even be a number.
    const known = items.filter(({ r }) => producers.has(r.producerId));
    const keyed = known.filter(({ r }) => r.invoiceKey !== null);
    if (keyed.length > 0) {
      const producerIds = [...new Set(keyed.map(({ r }) => r.producerId))];
      const allowed = new Map([...producers.values()].map((p) => [p.id, new Set([p.cnpj, ...p.establishments])]));
      const own = keyed.filter(({ r, i }) => {
        const issuer = nfeKeyIssuer(r.invoiceKey!);
        if (allowed.get(r.producerId)?.has(issuer) ?? true) return true;
        problems.add(new BadInputError(`${at(i)}.invoiceKey`, message('sale.invoiceKeyIssuer', { issuer })));
        return false;
      });
      // Unique per producer (that is, per issuer): only the producer's own sales are looked at.
      const taken: Array<{ producer_id: string; invoice_key: string }> = own.length === 0 ? [] : await em.query(
        'SELECT producer_id::text AS producer_id, invoice_key FROM sale WHERE invoice_key = ANY($1::char(44)[]) AND producer_id = ANY($2::bigint[]) AND id IS DISTINCT FROM $3::bigint',
        [own.map(({ r }) => r.invoiceKey), producerIds, correcting?.id ?? null],
      );
      const takenKeys = new Set(taken.map((t) => `${t.producer_id}|${t.invoice_key}`));
      for (const { r, i } of own.filter(({ r }) => takenKeys.has(`${r.producerId}|${r.invoiceKey}`))) {
        problems.add(new ConflictError('DUPLICATE', message('sale.invoiceKeyTaken', { key: r.invoiceKey! }), `${at(i)}.invoiceKey`));
      }
    }
    // A correction judges the closed months before and after it itself (an ADMIN may change them).
    if (correcting) return;
    // A sale is taxed in the month of soldOn, which must be open.
    await requireOpenPeriods(em, rows.map((r) => (r && producers.has(r.producerId) ? r : undefined)), (r) => r.soldOn, (i) => `input[${i}].soldOn`, problems);
  }
}
