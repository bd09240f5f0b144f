import { Between, DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { Purchase, RecordReturn, Sale } from '../domain';
import { message } from '../i18n';
import { Decimal } from '../law/decimal';
import { Feedstock, RecordState, Role } from '../law/types';
import { Actor } from './actor';
import { BadInputError, ConflictError, NotFoundError } from './errors';
import { checkedNfeKey } from './nfe-key-input';
import { Problems } from './problems';
import { insertInChunks, isId, requireDate, requirePositiveDecimal } from './record-batch';
import { judge, Touch } from './record-change.service';
import { canSee } from './scope';
import { AuditRecord, mutate } from './transaction';

export interface RecordReturnInput {
  originalKey: string;
  purchaseId?: string | null;
  saleId?: string | null;
  returnedOn: string;
  quantity: Decimal;
  value: Decimal;
  invoiceKey?: string | null;
  /** Instead of purchaseId: the purchase of this feedstock recorded with originalKey. */
  feedstock?: Feedstock | null;
  /** The original note's item number (nItem): needed when its key has two purchases of the feedstock. */
  originalItem?: number | null;
}

/**
 * Returns (a return note, finNFe 4, referencing the original NF-e): each reduces one purchase's
 * kg and cost or one sale's m³ and revenue in the month of the return, never the original month
 * (docs/LAW.md, "Returns"). All or nothing, like every batch.
 */
export class RecordReturnService {
  constructor(private readonly ds: DataSource) {}

  /** The returns of purchases or sales (already in the caller's scope), by date then id. */
  ofRecords(kind: 'purchase' | 'sale', ids: readonly string[]): Promise<RecordReturn[]> {
    return this.ds.getRepository(RecordReturn).find({ where: { [kind === 'purchase' ? 'purchaseId' : 'saleId']: In([...ids]) }, order: { returnedOn: 'ASC', id: 'ASC' } });
  }

  /** A producer's active returns of active sales dated in [from, to], each with its sale (the producer already in scope). */
  async saleReturnsIn(producerId: string, from: string, to: string): Promise<Array<{ returned: RecordReturn; sale: Sale }>> {
    const rows = await this.ds.getRepository(RecordReturn).find({
      where: { producerId, state: RecordState.ACTIVE, saleId: Not(IsNull()), returnedOn: Between(from, to) }, order: { returnedOn: 'ASC', id: 'ASC' },
    });
    const sales = rows.length ? await this.ds.getRepository(Sale).findBy({ id: In(rows.map((r) => r.saleId!)), state: RecordState.ACTIVE }) : [];
    const byId = new Map(sales.map((x) => [x.id, x]));
    return rows.filter((r) => byId.has(r.saleId!)).map((r) => ({ returned: r, sale: byId.get(r.saleId!)! }));
  }

  async record(actor: Actor, inputs: RecordReturnInput[]): Promise<RecordReturn[]> {
    if (inputs.length === 0) return [];
    return mutate(this.ds, actor, (em) => this.write(em, actor, inputs, true));
  }

  /**
   * record's work in a transaction the caller holds (the NF-e import writes several kinds in one).
   * `typed`: the rows name no item of their return note, so a record returned again under the same
   * note is a batch sent twice (the NF-e import refuses a note already recorded, item by item).
   */
  async write(em: EntityManager, actor: Actor, inputs: RecordReturnInput[], typed = false): Promise<{ result: RecordReturn[]; audit: AuditRecord[] }> {
    const problems = new Problems();
    const rows = inputs.map((input, i) => problems.check(() => toRow(input, `input[${i}]`)));
    await byKey(em, actor, inputs, rows, problems);
    const items = rows.flatMap((r, i) => (r && (r.purchaseId !== null || r.saleId !== null) ? [{ r, i }] : []));
    const purchaseIds = items.flatMap(({ r }) => (r.purchaseId ? [r.purchaseId] : []));
    const saleIds = items.flatMap(({ r }) => (r.saleId ? [r.saleId] : []));
    // Locked: two batches returning the same record are judged one after the other.
    const purchases = new Map((purchaseIds.length ? await em.getRepository(Purchase).find({ where: { id: In(purchaseIds) }, lock: { mode: 'pessimistic_write' } }) : []).map((p) => [p.id, p]));
    const sales = new Map((saleIds.length ? await em.getRepository(Sale).find({ where: { id: In(saleIds) }, lock: { mode: 'pessimistic_write' } }) : []).map((s) => [s.id, s]));
    const earlier: Array<{ purchase_id: string | null; sale_id: string | null; quantity: string; value: string }> = await em.query(
      `SELECT purchase_id::text, sale_id::text, sum(quantity)::text AS quantity, sum(value)::text AS value FROM record_return
        WHERE state = 'ACTIVE' AND (purchase_id = ANY($1::bigint[]) OR sale_id = ANY($2::bigint[])) GROUP BY 1, 2`,
      [purchaseIds, saleIds],
    );
    const returned = new Map(earlier.map((e) => [recordKeyOf({ purchaseId: e.purchase_id, saleId: e.sale_id }), { quantity: new Decimal(e.quantity), value: new Decimal(e.value) }]));
    const noted = typed ? await returnsByNote(em, items.map(({ r }) => r)) : new Map<string, string>();
    const seen = new Set<string>();
    for (const { r, i } of items) {
      const at = `input[${i}]`;
      const entity = r.purchaseId ? 'Purchase' : 'Sale';
      const original = r.purchaseId ? purchases.get(r.purchaseId) : sales.get(r.saleId!);
      const field = r.purchaseId ? `${at}.purchaseId` : `${at}.saleId`;
      if (!original || !canSee(actor, original.producerId)) {
        problems.add(new NotFoundError(entity, r.purchaseId ?? r.saleId!, field));
        continue;
      }
      r.producerId = original.producerId;
      if (original.state !== RecordState.ACTIVE) { problems.add(new ConflictError('CANCELLED', message('record.cancelled', { entity, id: original.id }), field)); continue; }
      if (original.invoiceKey !== r.originalKey) {
        problems.add(new BadInputError(`${at}.originalKey`, message('return.notItsKey', { entity, id: original.id, key: r.originalKey, recorded: original.invoiceKey ?? '—' })));
        continue;
      }
      if (original instanceof Purchase && r.originalItem !== null && original.invoiceItem !== null && r.originalItem !== original.invoiceItem) {
        problems.add(new BadInputError(`${at}.originalItem`, message('return.notItsItem', { id: original.id, item: r.originalItem, recorded: original.invoiceItem })));
        continue;
      }
      if (original instanceof Purchase) r.originalItem = original.invoiceItem ?? r.originalItem;
      if (typed && r.invoiceKey !== null) {
        const note = noteKeyOf(r);
        const id = noted.get(note);
        if (id !== undefined || seen.has(note)) {
          problems.add(new ConflictError('DUPLICATE', message(id !== undefined ? 'return.noteRecorded' : 'return.noteTwice', { entity, id: original.id, key: r.invoiceKey, returnId: id ?? '' }), `${at}.invoiceKey`));
          continue;
        }
        seen.add(note);
      }
      const date = original instanceof Purchase ? original.purchasedOn : original.soldOn;
      if (r.returnedOn < date) problems.add(new BadInputError(`${at}.returnedOn`, message('return.beforeOriginal', { returnedOn: r.returnedOn, entity, date })));
      const key = recordKeyOf(r);
      const sum = returned.get(key) ?? { quantity: new Decimal(0), value: new Decimal(0) };
      sum.quantity = sum.quantity.plus(r.quantity);
      sum.value = sum.value.plus(r.value);
      returned.set(key, sum);
      const quantity = original instanceof Purchase ? original.quantityKg : original.volumeM3;
      const value = original instanceof Purchase ? (original.cost ?? new Decimal(0)) : original.revenue;
      if (sum.quantity.gt(quantity)) problems.add(new BadInputError(`${at}.quantity`, message('return.tooMuch', { entity, id: original.id, what: 'quantity', returned: sum.quantity.toFixed(), original: quantity.toFixed() })));
      if (sum.value.gt(value)) problems.add(new BadInputError(`${at}.value`, message('return.tooMuch', { entity, id: original.id, what: 'value', returned: sum.value.toFixed(), original: value.toFixed() })));
    }
    problems.throwIfAny();
    const written = rows as RecordReturn[];
    // The month and Selo year of the return are those it changes: closed or evaluated, only an ADMIN's is made.
    const touches = new Map<string, Touch>();
    for (const r of written) {
      const t = touches.get(r.producerId) ?? { producerId: r.producerId, taxDays: [], seloDays: [] };
      t.taxDays.push(r.returnedOn);
      t.seloDays.push(r.returnedOn);
      touches.set(r.producerId, t);
    }
    await judge(em, actor, [...touches.values()], (producerId, at) => `input[${written.findIndex((r) => r.producerId === producerId && r.returnedOn.startsWith(at))}].returnedOn`);
    await insertInChunks(em, RecordReturn, written);
    return { result: written, audit: written.map((r) => ({ operation: 'recordReturns', entity: 'RecordReturn', entityId: r.id, producerId: r.producerId, after: r })) };
  }
}

/** The record a return takes back: `P<purchase id>` or `S<sale id>`. */
const recordKeyOf = (r: Pick<RecordReturn, 'purchaseId' | 'saleId'>) => (r.purchaseId ? `P${r.purchaseId}` : `S${r.saleId}`);
const noteKeyOf = (r: Pick<RecordReturn, 'invoiceKey' | 'purchaseId' | 'saleId'>) => `${r.invoiceKey}|${recordKeyOf(r)}`;

/** The active returns recorded under the rows' return notes, by note and record returned. */
async function returnsByNote(em: EntityManager, rows: readonly RecordReturn[]): Promise<Map<string, string>> {
  const keys = [...new Set(rows.flatMap((r) => (r.invoiceKey === null ? [] : [r.invoiceKey])))];
  if (keys.length === 0) return new Map();
  const recorded: Array<{ invoice_key: string; purchase_id: string | null; sale_id: string | null; id: string }> = await em.query(
    `SELECT invoice_key, purchase_id::text, sale_id::text, min(id)::text AS id FROM record_return
      WHERE state = 'ACTIVE' AND invoice_key = ANY($1::text[]) GROUP BY 1, 2, 3`, [keys]);
  return new Map(recorded.map((x) => [noteKeyOf({ invoiceKey: x.invoice_key, purchaseId: x.purchase_id, saleId: x.sale_id }), x.id]));
}

function toRow(input: RecordReturnInput, at: string): RecordReturn {
  const purchaseId = input.purchaseId ?? null;
  const saleId = input.saleId ?? null;
  const named = (purchaseId === null ? 0 : 1) + (saleId === null ? 0 : 1) + (input.feedstock == null ? 0 : 1);
  if (named !== 1) throw new BadInputError(`${at}.purchaseId`, message('return.oneRecord'));
  const originalItem = input.originalItem ?? null;
  if (originalItem !== null && (!Number.isInteger(originalItem) || originalItem < 1 || originalItem > 990)) throw new BadInputError(`${at}.originalItem`, message('return.itemRange'));
  if (saleId !== null && originalItem !== null) throw new BadInputError(`${at}.originalItem`, message('return.itemOfPurchase'));
  const id = purchaseId ?? saleId;
  if (id !== null && !isId(id)) throw new NotFoundError(purchaseId ? 'Purchase' : 'Sale', id, purchaseId ? `${at}.purchaseId` : `${at}.saleId`);
  return Object.assign(new RecordReturn(), {
    originalItem,
    producerId: '',
    purchaseId, saleId,
    originalKey: checkedNfeKey(input.originalKey, `${at}.originalKey`),
    invoiceKey: input.invoiceKey == null ? null : checkedNfeKey(input.invoiceKey, `${at}.invoiceKey`),
    returnedOn: requireDate(input.returnedOn, `${at}.returnedOn`),
    quantity: requirePositiveDecimal(input.quantity, `${at}.quantity`),
    value: requirePositiveDecimal(input.value, `${at}.value`),
  });
}

/**
 * The purchase of each return named by its key and feedstock (no purchaseId): the one of the
 * caller's scope, told by originalItem (the note's nItem) when the key has several of that feedstock.
 */
async function byKey(em: EntityManager, actor: Actor, inputs: RecordReturnInput[], rows: Array<RecordReturn | undefined>, problems: Problems): Promise<void> {
  for (const [i, r] of rows.entries()) {
    const feedstock = inputs[i].feedstock;
    if (!r || r.purchaseId !== null || r.saleId !== null || feedstock == null) continue;
    const at = `input[${i}]`;
    const found: Array<{ id: string; item: number | null }> = await em.query(
      `SELECT id::text, invoice_item AS item FROM purchase WHERE invoice_key = $1 AND feedstock = $2 AND state = 'ACTIVE'
          AND ($3::bigint IS NULL OR producer_id = $3) AND ($4::int IS NULL OR invoice_item = $4) ORDER BY invoice_item, id`,
      [r.originalKey, feedstock, actor.role === Role.PRODUCER ? actor.producerId : null, r.originalItem],
    );
    if (found.length === 0) problems.add(new NotFoundError('Purchase', `${r.originalKey} ${feedstock}${r.originalItem === null ? '' : ` item ${r.originalItem}`}`, `${at}.originalKey`));
    else if (found.length > 1) problems.add(new BadInputError(`${at}.originalItem`, message('return.whichItem', { key: r.originalKey, feedstock, items: found.map((f) => f.item ?? '—').join(', ') })));
    else r.purchaseId = found[0].id;
  }
}
