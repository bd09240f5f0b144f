import { DataSource, EntityManager } from 'typeorm';
import { FamilyFarmer, Municipality, Purchase } from '../domain';
import { Decimal } from '../law/decimal';
import { Feedstock, OrganizationKind, PurchasePurpose, SupplierKind } from '../law/types';
import { CreditProduct, CreditSupplier, RevenueGroup } from '../law/credits/types';
import { Actor } from './actor';
import { BadInputError, ConflictError, NotFoundError } from './errors';
import { Connection } from './pagination';
import { PURCHASE_KEYSET } from './keysets';
import { PageJoin, pagesByProducer, ProducerPageKey } from './producer-pages';
import {
  assertWritable, findVisibleByIds, insertInChunks, isId, optionalText, requireDate, requireOpenPeriods, requirePositiveDecimal, requireRecords, requireWritableProducers,
} from './record-batch';
import { assertVisible } from './scope';
import { AuditRecord, mutate } from './transaction';
import { requireMunicipalities } from './validation';
import { message } from '../i18n';
import { Problems } from './problems';
import { checkedNfeKey } from './nfe-key-input';
import { taxpayerDocument } from '../formats/brazilian';

export interface RecordPurchaseInput {
  producerId: string;
  purchasedOn: string;
  consumedOn?: string | null;
  feedstock: Feedstock;
  quantityKg: Decimal;
  cost?: Decimal | null;
  supplierKind: SupplierKind;
  familyFarmerId?: string | null;
  organizationId?: string | null;
  supplierName?: string | null;
  /** The supplier's CNPJ or CPF (EFD-Contribuições C191/C195 field 02). */
  supplierDocument?: string | null;
  originMunicipalityCode: string;
  contractId?: string | null;
  purpose?: PurchasePurpose | null;
  externalId?: string | null;
  invoiceKey?: string | null;
  /** Read from an NF-e: the item's number and its PIS/Cofins CST. */
  invoiceItem?: number | null;
  pisCofinsCst?: string | null;
  /** The Cofins CST where it differs from pisCofinsCst; null or absent: the same. */
  cofinsCst?: string | null;
  creditSupplier?: CreditSupplier | null;
  creditProduct?: CreditProduct | null;
  icmsValue?: Decimal | null;
  importPisPaid?: Decimal | null;
  importCofinsPaid?: Decimal | null;
  /** The CBS the invoice states (vCBS; LC 214/2025, art. 47). */
  cbsValue?: Decimal | null;
  creditRevenueGroup?: RevenueGroup | null;
}

/** Shared records a page of purchases fetches in its own statement when the query selects them (Purchase.familyFarmer, .originMunicipality). */
const PAGE_JOINS: PageJoin[] = [
  { relation: 'familyFarmer', entity: FamilyFarmer, table: 'family_farmer', from: 'family_farmer_id', to: 'id' },
  { relation: 'originMunicipality', entity: Municipality, table: 'municipality', from: 'origin_municipality_code', to: 'ibge_code' },
];
export const PURCHASE_PAGE_JOINS = PAGE_JOINS.map((j) => j.relation);

type NfeItemRef = { producerId: string; invoiceKey?: string | null; invoiceItem?: number | null };
/** A lot's NF-e item as `recordedItems` names it. */
export const itemKeyOf = (r: NfeItemRef) => `${r.producerId}|${r.invoiceKey}|${r.invoiceItem}`;

/** The active purchases recording these NF-e items, by `itemKeyOf`, other than `except` (migration PurchaseInvoiceItem). */
export async function recordedItems(em: EntityManager, refs: readonly NfeItemRef[], except: string | null = null): Promise<Map<string, string>> {
  if (refs.length === 0) return new Map();
  const rows: Array<{ item: string; id: string }> = await em.query(
    `SELECT p.producer_id || '|' || p.invoice_key || '|' || p.invoice_item AS item, p.id::text AS id FROM purchase p
       JOIN unnest($1::bigint[], $2::text[], $3::int[]) AS k(producer_id, key, item) ON p.producer_id = k.producer_id AND p.invoice_key = k.key AND p.invoice_item = k.item
      WHERE p.state = 'ACTIVE' AND p.id IS DISTINCT FROM $4::bigint`,
    [refs.map((r) => r.producerId), refs.map((r) => r.invoiceKey), refs.map((r) => r.invoiceItem), except],
  );
  return new Map(rows.map((x) => [x.item, x.id]));
}

const FEEDSTOCKS: ReadonlySet<string> = new Set(Object.values(Feedstock));
const PURPOSES: ReadonlySet<string> = new Set(Object.values(PurchasePurpose));

/** A supplier kind that needs `field` (naming it at `at`). */
function supplierNeeds(at: string, kind: SupplierKind, field: string): BadInputError {
  return new BadInputError(`${at}.${field}`, message('purchase.supplierNeeds', { kind, field }));
}

/** A supplier kind that takes no `field`. */
function supplierTakesNo(at: string, kind: SupplierKind, field: string): BadInputError {
  return new BadInputError(`${at}.${field}`, message('purchase.supplierTakesNo', { kind, field }));
}

/**
 * Lots of raw material acquired or produced (Decreto 10.527/2020, art. 3º §2 I a–b; art. 6º
 * §§3º–4º). Recorded in batches, all or nothing.
 */
export class PurchaseService {
  constructor(private readonly ds: DataSource) {}

  /** By id, within the actor's scope: another producer's purchase is NOT_FOUND, like a missing one. */
  async get(actor: Actor, id: string): Promise<Purchase> {
    const purchase = isId(id) ? await this.ds.getRepository(Purchase).findOneBy({ id }) : null;
    if (!purchase) throw new NotFoundError('Purchase', id);
    assertVisible(actor, 'Purchase', id, purchase.producerId);
    return purchase;
  }

  /** Purchases by id for loaders; out-of-scope ids are left out (the loader answers null). */
  findByIds(actor: Actor, ids: readonly string[]): Promise<Purchase[]> {
    return findVisibleByIds(this.ds, actor, Purchase, ids);
  }

  /** Producer.purchases for many producers at once, ordered by consumedOn then id; from/to bound consumedOn. */
  pagesByProducer(actor: Actor, keys: readonly ProducerPageKey[]): Promise<Array<Connection<Purchase> | Error>> {
    return pagesByProducer(this.ds, actor, { entity: Purchase, keyset: PURCHASE_KEYSET, joins: PAGE_JOINS }, keys);
  }

  /**
   * Record a batch: every item is validated, then all are inserted in multi-row INSERTs; bad items
   * write nothing, and every one of them is reported (Problems), not only the first.
   */
  async record(actor: Actor, inputs: RecordPurchaseInput[]): Promise<Purchase[]> {
    assertWritable(actor, inputs.map((p, i) => ({ field: `input[${i}].producerId`, id: p.producerId })));
    if (inputs.length === 0) return [];
    return mutate(this.ds, actor, (em) => this.write(em, actor, inputs));
  }

  /** record's work in a transaction the caller holds (the NF-e import writes several kinds in one). */
  async write(em: EntityManager, actor: Actor, inputs: RecordPurchaseInput[]): Promise<{ result: Purchase[]; audit: AuditRecord[] }> {
    assertWritable(actor, inputs.map((p, i) => ({ field: `input[${i}].producerId`, id: p.producerId })));
    const problems = new Problems();
    const checked = inputs.map((input, i) => problems.check(() => PurchaseService.toRow(input, `input[${i}]`)));
    PurchaseService.rejectRepeatedExternalIds(checked, problems);
    await this.checkBatch(em, actor, checked, inputs.map((input) => (input.consumedOn == null ? 'purchasedOn' : 'consumedOn')), problems);
    problems.throwIfAny();
    const rows = checked as Purchase[];
    await insertInChunks(em, Purchase, rows);
    return {
      result: rows,
      audit: rows.map((r) => ({ operation: 'recordPurchases', entity: 'Purchase', entityId: r.id, producerId: r.producerId, after: r })),
    };
  }

  /** The checks one item needs no database for (docs/API.md "Errors"), naming the offending field. */
  static toRow(input: RecordPurchaseInput, at: string): Purchase {
    const purchasedOn = requireDate(input.purchasedOn, `${at}.purchasedOn`);
    // art. 6º §3º: the raw material is weighed in the period it is used; by default, when bought.
    const consumedOn = input.consumedOn == null ? purchasedOn : requireDate(input.consumedOn, `${at}.consumedOn`);
    if (consumedOn < purchasedOn) throw new BadInputError(`${at}.consumedOn`, message('purchase.consumedBeforePurchased', { field: `${at}.consumedOn` }));
    if (!FEEDSTOCKS.has(input.feedstock)) throw new BadInputError(`${at}.feedstock`, message('input.unknownValue', { what: 'feedstock', value: String(input.feedstock) }));
    const quantityKg = requirePositiveDecimal(input.quantityKg, `${at}.quantityKg`);
    const kind = input.supplierKind;
    const farmerId = input.familyFarmerId ?? null;
    const organizationId = input.organizationId ?? null;
    const supplierName = optionalText(input.supplierName);
    // Each rule is a test, its message made only when it fails (an import runs these for every line).
    switch (kind) {
      case SupplierKind.FAMILY_FARMER:
        if (farmerId === null) throw supplierNeeds(at, kind, 'familyFarmerId');
        if (organizationId !== null) throw supplierTakesNo(at, kind, 'organizationId');
        break;
      case SupplierKind.COOPERATIVE:
      case SupplierKind.ASSOCIATION:
        if (organizationId === null) throw supplierNeeds(at, kind, 'organizationId');
        if (farmerId !== null) throw supplierTakesNo(at, kind, 'familyFarmerId');
        break;
      case SupplierKind.THIRD_PARTY:
        if (farmerId !== null) throw supplierTakesNo(at, kind, 'familyFarmerId');
        if (organizationId !== null) throw supplierTakesNo(at, kind, 'organizationId');
        if (supplierName === null) throw supplierNeeds(at, kind, 'supplierName');
        break;
      case SupplierKind.OWN_PRODUCTION:
        if (farmerId !== null) throw supplierTakesNo(at, kind, 'familyFarmerId');
        if (organizationId !== null) throw supplierTakesNo(at, kind, 'organizationId');
        if (supplierName !== null) throw supplierTakesNo(at, kind, 'supplierName');
        break;
      default:
        throw new BadInputError(`${at}.supplierKind`, message('input.unknownValue', { what: 'supplierKind', value: String(kind) }));
    }
    // art. 6º §4º: own production has no acquisition cost (it is valued at the period's average
    // third-party price per kg); every other lot must carry its cost.
    let cost: Decimal | null = null;
    if (kind === SupplierKind.OWN_PRODUCTION) {
      if (input.cost != null) throw new BadInputError(`${at}.cost`, message('purchase.ownProductionCost'));
    } else {
      if (input.cost == null) throw new BadInputError(`${at}.cost`, message('purchase.costRequired', { kind }));
      cost = requirePositiveDecimal(input.cost, `${at}.cost`);
    }
    const purpose = input.purpose ?? PurchasePurpose.BIODIESEL_FEEDSTOCK;
    if (!PURPOSES.has(purpose)) throw new BadInputError(`${at}.purpose`, message('input.unknownValue', { what: 'purpose', value: String(purpose) }));
    let externalId: string | null = null;
    if (input.externalId != null) {
      externalId = optionalText(input.externalId);
      if (externalId === null) throw new BadInputError(`${at}.externalId`, message('input.blank', { field: 'externalId' }));
    }
    const invoiceKey = input.invoiceKey == null ? null : checkedNfeKey(input.invoiceKey, `${at}.invoiceKey`);
    const invoiceItem = input.invoiceItem ?? null;
    // MOC 4.00, det/@nItem: 1 to 990; an item number names an item of the note the key names.
    if (invoiceItem !== null && (!Number.isInteger(invoiceItem) || invoiceItem < 1 || invoiceItem > 990 || invoiceKey === null)) {
      throw new BadInputError(`${at}.invoiceItem`, message('purchase.invoiceItem', { value: String(invoiceItem) }));
    }
    let supplierDocument: string | null = null;
    if (input.supplierDocument != null) {
      if (kind === SupplierKind.OWN_PRODUCTION) throw supplierTakesNo(at, kind, 'supplierDocument');
      supplierDocument = taxpayerDocument(input.supplierDocument);
      if (supplierDocument === null) throw new BadInputError(`${at}.supplierDocument`, message('purchase.supplierDocument', { value: input.supplierDocument }));
    }
    // Not `{ ...creditFacts, … }`: V8 builds a spread object with properties after it 100× slower
    // (40 µs a row, most of a 1M-line import's time).
    const row = Object.assign(new Purchase(), {
      producerId: input.producerId,
      purchasedOn,
      consumedOn,
      feedstock: input.feedstock,
      quantityKg,
      cost,
      supplierKind: kind,
      familyFarmerId: farmerId,
      organizationId,
      supplierName,
      supplierDocument,
      originMunicipalityCode: input.originMunicipalityCode,
      contractId: input.contractId ?? null,
      purpose,
      externalId,
      invoiceKey,
      invoiceItem,
      pisCofinsCst: input.pisCofinsCst ?? null,
    });
    return Object.assign(row, PurchaseService.creditFacts(input, at, cost));
  }

  /** The facts of the credit (Lei 10.637/2002, art. 3º), all optional; amounts never negative, ICMS never above the cost. */
  static creditFacts(input: RecordPurchaseInput, at: string, cost: Decimal | null) {
    const cst = input.pisCofinsCst ?? null;
    if (cst !== null && !/^[0-9]{2}$/.test(cst)) throw new BadInputError(`${at}.pisCofinsCst`, message('input.unknownValue', { what: 'pisCofinsCst', value: cst }));
    const cofinsCst = input.cofinsCst ?? null;
    if (cofinsCst !== null && !/^[0-9]{2}$/.test(cofinsCst)) throw new BadInputError(`${at}.cofinsCst`, message('input.unknownValue', { what: 'cofinsCst', value: cofinsCst }));
    const amount = (value: Decimal | null | undefined, field: string) => {
      if (value == null) return null;
      if (value.isNegative()) throw new BadInputError(`${at}.${field}`, message('law.nonNegativeDecimal', { key: field }));
      return value;
    };
    const icmsValue = amount(input.icmsValue, 'icmsValue');
    if (icmsValue && cost && icmsValue.gt(cost)) throw new BadInputError(`${at}.icmsValue`, message('law.nonNegativeDecimal', { key: 'cost - icmsValue' }));
    return {
      // Kept only where it differs: the same CST on both is the one pisCofinsCst.
      cofinsCst: cofinsCst === cst ? null : cofinsCst,
      creditSupplier: input.creditSupplier ?? null, creditProduct: input.creditProduct ?? null, icmsValue,
      importPisPaid: amount(input.importPisPaid, 'importPisPaid'), importCofinsPaid: amount(input.importCofinsPaid, 'importCofinsPaid'),
      cbsValue: amount(input.cbsValue, 'cbsValue'), creditRevenueGroup: input.creditRevenueGroup ?? null,
    };
  }

  /**
   * An NF-e item is one active purchase (migration PurchaseInvoiceItem): one given twice in the batch,
   * or already recorded (typed, or imported from the note), is CONFLICT DUPLICATE naming the purchase.
   */
  private static async rejectRecordedItems(em: EntityManager, items: Array<{ r: Purchase; i: number }>, at: (i: number, field: string) => string, problems: Problems, except: string | null) {
    const itemised = items.filter(({ r }) => r.invoiceItem !== null);
    const recorded = await recordedItems(em, itemised.map(({ r }) => r), except);
    const seen = new Set<string>();
    for (const { r, i } of itemised) {
      const key = itemKeyOf(r);
      const id = recorded.get(key);
      if (id !== undefined) problems.add(new ConflictError('DUPLICATE', message('purchase.invoiceItemRecorded', { item: String(r.invoiceItem), key: r.invoiceKey!, id }), at(i, 'invoiceItem')));
      else if (seen.has(key)) problems.add(new ConflictError('DUPLICATE', message('purchase.invoiceItemTwice', { item: String(r.invoiceItem), key: r.invoiceKey! }), at(i, 'invoiceItem')));
      seen.add(key);
    }
  }

  /** externalId is unique per producer: a repetition inside the batch is a CONFLICT too (each one, with `problems`). */
  static rejectRepeatedExternalIds(rows: Array<Purchase | undefined>, problems?: Problems): void {
    const seen = new Set<string>();
    rows.forEach((r, i) => {
      if (!r || r.externalId === null) return;
      const key = JSON.stringify([r.producerId, r.externalId]);
      if (seen.has(key)) {
        const error = new ConflictError('DUPLICATE', message('purchase.externalIdTwice', { externalId: r.externalId, producerId: r.producerId }), `input[${i}].externalId`);
        if (!problems) throw error;
        problems.add(error);
      }
      seen.add(key);
    });
  }

  /**
   * The checks against the database, inside the mutation's transaction, with one statement per
   * kind of referenced record whatever the batch size. This is where every rule that reads
   * stored data is applied before the batch is written.
   */
  async checkBatch(
    em: EntityManager, actor: Actor, checked: Array<Purchase | undefined>, consumedOnField: string[], problems: Problems,
    correcting?: { id: string; at: string },
  ): Promise<void> {
    const at = (i: number, field: string) => (correcting ? `${correcting.at}.${field}` : `input[${i}].${field}`);
    // The items that passed the checks needing no database, with their place in the input.
    const items = checked.flatMap((r, i) => (r ? [{ r, i }] : []));
    const producers = await requireWritableProducers(em, actor, items.map(({ r, i }) => ({ field: at(i, 'producerId'), id: r.producerId })), problems);
    // An item whose producer is not found is reported once, at its producerId: the checks that
    // read that producer's records skip it (its id may not even be a number).
    const known = items.filter(({ r }) => producers.has(r.producerId));
    await requireMunicipalities(em, items.map(({ r, i }) => ({ field: at(i, 'originMunicipalityCode'), code: r.originMunicipalityCode })), problems);

    const farmers = items.flatMap(({ r, i }) => (r.familyFarmerId === null ? [] : [{ field: at(i, 'familyFarmerId'), id: r.familyFarmerId }]));
    await requireRecords(em, 'family_farmer', 'FamilyFarmer', farmers, ['id'], problems);

    const orgRefs = items.flatMap(({ r, i }) => (r.organizationId === null ? [] : [{ field: at(i, 'organizationId'), id: r.organizationId, r, i }]));
    const orgs = await requireRecords<{ id: string; kind: OrganizationKind }>(em, 'family_farming_organization', 'FamilyFarmingOrganization', orgRefs, ['id', 'kind'], problems);
    for (const ref of orgRefs) {
      const kind = orgs.get(ref.id)?.kind;
      if (kind !== undefined && kind !== (ref.r.supplierKind as string)) {
        problems.add(new BadInputError(at(ref.i, 'supplierKind'), message('purchase.organizationKind', { given: ref.r.supplierKind, id: ref.id, kind })));
      }
    }

    // A contract of another producer is reported as a missing one (the access rules, README "Tokens").
    const contractRefs = known.flatMap(({ r, i }) => (r.contractId === null ? [] : [{ field: at(i, 'contractId'), id: r.contractId, r }]));
    const contracts = await requireRecords<{ id: string; producer_id: string }>(em, 'contract', 'Contract', contractRefs, ['id', 'producer_id'], problems);
    for (const ref of contractRefs) {
      const contract = contracts.get(ref.id);
      if (contract && String(contract.producer_id) !== String(ref.r.producerId)) problems.add(new NotFoundError('Contract', `${ref.id} (${ref.field})`, ref.field));
    }

    const keyed = known.flatMap(({ r, i }) => (r.externalId === null ? [] : [{ i, producerId: r.producerId, externalId: r.externalId }]));
    if (keyed.length > 0) {
      const taken: Array<{ producer_id: string; external_id: string }> = await em.query(
        `SELECT producer_id, external_id FROM purchase
          WHERE (producer_id, external_id) IN (SELECT * FROM unnest($1::bigint[], $2::text[])) AND id IS DISTINCT FROM $3::bigint`,
        [keyed.map((k) => k.producerId), keyed.map((k) => k.externalId), correcting?.id ?? null],
      );
      const takenKeys = new Set(taken.map((t) => JSON.stringify([String(t.producer_id), t.external_id])));
      for (const clash of keyed.filter((k) => takenKeys.has(JSON.stringify([String(k.producerId), k.externalId])))) {
        problems.add(new ConflictError('DUPLICATE', message('purchase.externalIdTaken', { producerId: clash.producerId, externalId: clash.externalId }), at(clash.i, 'externalId')));
      }
    }

    await PurchaseService.rejectRecordedItems(em, known, at, problems, correcting?.id ?? null);

    // A correction judges the closed months of the lot before and after it itself (an ADMIN may change them).
    if (correcting) return;
    // art. 6º §3º: a lot weighs in the month it is used, so the month of consumedOn must be open
    // (the error names purchasedOn where consumedOn was left to default to it). art. 6º §4º: a
    // third-party lot of raw material also enters the average price per kg of the month it was
    // acquired in, so that month must be open too. One call, so the months are locked in order.
    const periods = known.flatMap(({ r, i }) => [
      { producerId: r.producerId, date: r.consumedOn, field: at(i, consumedOnField[i]) },
      ...(r.supplierKind !== SupplierKind.OWN_PRODUCTION && r.purpose === PurchasePurpose.BIODIESEL_FEEDSTOCK && r.purchasedOn.slice(0, 7) !== r.consumedOn.slice(0, 7)
        ? [{ producerId: r.producerId, date: r.purchasedOn, field: at(i, 'purchasedOn') }] : []),
    ]);
    await requireOpenPeriods(em, periods, (e) => e.date, (j) => periods[j].field, problems);
  }
}
