import { DataSource, EntityManager, In } from 'typeorm';
import { BiodieselImport, FomentoExpense, Producer, Purchase, RecordReturn, Sale, SealEvaluation, TaxPeriod } from '../domain';
import { message } from '../i18n';
import { monthOf, today, yearOf } from '../law/dates';
import { RecordState, Role, TaxPeriodStatus } from '../law/types';
import { Actor } from './actor';
import { BadInputError, ConflictError, NotFoundError, RecordName } from './errors';
import { Decimal } from '../law/decimal';
import { BiodieselImportService, checkIssuer, PRODUCER_CNPJS, RecordImportInput } from './biodiesel-import.service';
import { FomentoService, RecordFomentoInput } from './fomento.service';
import { isId, requireRecords } from './record-batch';
import { requireMunicipalities } from './validation';
import { checkedNfeKey } from './nfe-key-input';
import { PERIOD_LOCK_KEY } from './period-lock';
import { Problems } from './problems';
import { PurchaseService, RecordPurchaseInput } from './purchase.service';
import { RecordSaleInput, SaleService } from './sale.service';
import { assertVisible } from './scope';
import { TaxPeriodService, TaxPeriodView } from './tax-period.service';
import { AuditRecord, mutate } from './transaction';

/** The closed months and evaluated Selo years a change reached (an ADMIN's change; empty otherwise). */
export interface Reached {
  closedPeriods: TaxPeriodView[];
  evaluatedSeloYears: number[];
}

export interface DocumentCancellation extends Reached {
  key: string;
  purchases: Purchase[];
  sales: Sale[];
  imports: BiodieselImport[];
  fomentoExpenses: FomentoExpense[];
  /** The returns the note documented, when it is a return note (finNFe 4). */
  returns: RecordReturn[];
}

export interface PurchaseCorrection extends Reached { purchase: Purchase }
export interface SaleCorrection extends Reached { sale: Sale }
export interface ImportCorrection extends Reached { biodieselImport: BiodieselImport }
export interface FomentoCorrection extends Reached { fomentoExpense: FomentoExpense }

/** A correction: the fields to change (absent = kept); producerId is never changed. */
export type PurchaseChanges = Partial<Omit<RecordPurchaseInput, 'producerId'>>;
export type SaleChanges = Partial<Omit<RecordSaleInput, 'producerId'>>;
export type ImportChanges = Partial<Omit<RecordImportInput, 'producerId'>>;
export type FomentoChanges = Partial<Omit<RecordFomentoInput, 'producerId'>>;

/** The days of one producer a change touches: tax months by day, Selo years by day. */
export interface Touch { producerId: string; taxDays: string[]; seloDays: string[] }

/**
 * Cancellations and corrections. One reaching a closed month or an evaluated Selo year is refused
 * with the month to reopen; an ADMIN's is made, the closed snapshot kept with its drift shown.
 */
export class RecordChangeService {
  constructor(private readonly ds: DataSource, private readonly taxPeriods: TaxPeriodService) {}

  async cancelDocument(actor: Actor, keyInput: string): Promise<DocumentCancellation> {
    const key = checkedNfeKey(keyInput, 'key');
    const { records, touched } = await mutate(this.ds, actor, (em) => this.cancelWith(em, actor, key));
    return { ...records, ...(await this.reachedViews(touched)) };
  }

  /**
   * cancelDocument's work in a transaction the caller holds (the NF-e import's cancellation events).
   * `producerId` limits it to that producer's records whatever the role: an import for one producer
   * cancels nothing of another's, an ADMIN's included.
   */
  async cancelWith(em: EntityManager, actor: Actor, key: string, producerId?: string) {
    const own = producerId ?? (actor.role === Role.PRODUCER ? actor.producerId : null);
    // Locked in one order (table, id), so two cancellations of one note queue rather than deadlock.
    const find = async <T extends { id: string }>(entity: new () => T, table: string): Promise<T[]> => {
      const rows: Array<{ id: string }> = await em.query(
        `SELECT id::text AS id FROM ${table} WHERE invoice_key = $1 AND ($2::bigint IS NULL OR producer_id = $2) ORDER BY id FOR UPDATE`, [key, own]);
      return rows.length === 0 ? [] : em.getRepository(entity).find({ where: { id: In(rows.map((r) => r.id)) } as never, order: { id: 'ASC' } as never });
    };
    const purchases = await find(Purchase, 'purchase');
    const sales = await find(Sale, 'sale');
    const imports = await find(BiodieselImport, 'biodiesel_import');
    const fomentoExpenses = await find(FomentoExpense, 'fomento_expense');
    const returns = await find(RecordReturn, 'record_return');
    const all: Array<{ entity: string; table: string; row: Purchase | Sale | BiodieselImport | FomentoExpense | RecordReturn }> = [
      ...returns.map((row) => ({ entity: 'RecordReturn', table: 'record_return', row })),
      ...purchases.map((row) => ({ entity: 'Purchase', table: 'purchase', row })), ...sales.map((row) => ({ entity: 'Sale', table: 'sale', row })),
      ...imports.map((row) => ({ entity: 'BiodieselImport', table: 'biodiesel_import', row })),
      ...fomentoExpenses.map((row) => ({ entity: 'FomentoExpense', table: 'fomento_expense', row })),
    ];
    if (all.length === 0) throw new NotFoundError('Document', key, 'key');
    const active = all.filter((r) => r.row.state === RecordState.ACTIVE);
    if (active.length === 0) throw new ConflictError('CANCELLED', message('record.alreadyCancelled', { key }), 'key');
    // The months each record weighs in: a lot in the month used and, bought from others, in the
    // month acquired (art. 6º §§3º–4º); a sale in its month; an import in the month cleared.
    const touches = new Map<string, Touch>();
    for (const { row } of active) {
      const t = touches.get(row.producerId) ?? { producerId: row.producerId, taxDays: [], seloDays: [] };
      if (row instanceof Purchase) { t.taxDays.push(row.consumedOn, row.purchasedOn); t.seloDays.push(row.purchasedOn); }
      if (row instanceof Sale) { t.taxDays.push(row.soldOn); t.seloDays.push(row.soldOn); }
      if (row instanceof BiodieselImport) t.taxDays.push(row.clearedOn);
      if (row instanceof FomentoExpense) t.seloDays.push(row.spentOn);
      if (row instanceof RecordReturn) { t.taxDays.push(row.returnedOn); t.seloDays.push(row.returnedOn); }
      touches.set(row.producerId, t);
    }
    const reached = await judge(em, actor, [...touches.values()], 'key');
    const audit: AuditRecord[] = [];
    for (const { entity, table, row } of active) {
      await em.query(`UPDATE ${table} SET state = $2, version = version + 1 WHERE id = $1`, [row.id, RecordState.CANCELLED]);
      audit.push({ operation: 'cancelDocument', entity, entityId: row.id, producerId: row.producerId,
        before: { state: row.state, version: row.version }, after: { state: RecordState.CANCELLED, version: row.version + 1, invoiceKey: key } });
      Object.assign(row, { state: RecordState.CANCELLED, version: row.version + 1 });
    }
    return { result: { records: { key, purchases, sales, imports, fomentoExpenses, returns }, touched: reached }, audit };
  }

  async correctPurchase(actor: Actor, id: string, changes: PurchaseChanges, expectedVersion: number): Promise<PurchaseCorrection> {
    const { row, reached } = await mutate(this.ds, actor, async (em) => {
      const before = await locked(em, Purchase, 'Purchase', actor, id, expectedVersion);
      const merged: RecordPurchaseInput = { ...before, ...defined(changes), producerId: before.producerId };
      const problems = new Problems();
      const after = problems.check(() => PurchaseService.toRow(merged, 'input'));
      await new PurchaseService(this.ds).checkBatch(em, actor, [after], ['consumedOn'], problems, { id, at: 'input' });
      problems.throwIfAny();
      await keepsItsReturns(em, 'Purchase', id, after!.quantityKg, after!.cost ?? new Decimal(0), 'input.quantityKg', 'input.cost');
      const row = Object.assign(after!, { id, state: before.state, version: before.version + 1, createdAt: before.createdAt });
      const touched = await judge(em, actor, [{
        producerId: row.producerId, taxDays: [before.consumedOn, before.purchasedOn, row.consumedOn, row.purchasedOn], seloDays: [before.purchasedOn, row.purchasedOn],
      }], 'id');
      await em.getRepository(Purchase).save(row);
      return { result: { row, reached: touched }, audit: [{ operation: 'correctPurchase', entity: 'Purchase', entityId: id, producerId: row.producerId, before, after: row }] };
    });
    return { purchase: row, ...(await this.reachedViews(reached)) };
  }

  async correctSale(actor: Actor, id: string, changes: SaleChanges, expectedVersion: number): Promise<SaleCorrection> {
    const { row, reached } = await mutate(this.ds, actor, async (em) => {
      const before = await locked(em, Sale, 'Sale', actor, id, expectedVersion);
      const merged: RecordSaleInput = { ...before, ...defined(changes), producerId: before.producerId };
      const problems = new Problems();
      const after = problems.check(() => SaleService.toRow(merged, 'input'));
      await new SaleService(this.ds).checkBatch(em, actor, [after], problems, { id, at: 'input' });
      problems.throwIfAny();
      await keepsItsReturns(em, 'Sale', id, after!.volumeM3, after!.revenue, 'input.volumeM3', 'input.revenue');
      const row = Object.assign(after!, { id, state: before.state, version: before.version + 1, createdAt: before.createdAt });
      const touched = await judge(em, actor, [{ producerId: row.producerId, taxDays: [before.soldOn, row.soldOn], seloDays: [before.soldOn, row.soldOn] }], 'id');
      await em.getRepository(Sale).save(row);
      return { result: { row, reached: touched }, audit: [{ operation: 'correctSale', entity: 'Sale', entityId: id, producerId: row.producerId, before, after: row }] };
    });
    return { sale: row, ...(await this.reachedViews(reached)) };
  }

  async correctImport(actor: Actor, id: string, changes: ImportChanges, expectedVersion: number): Promise<ImportCorrection> {
    const { row, reached } = await mutate(this.ds, actor, async (em) => {
      const before = await locked(em, BiodieselImport, 'BiodieselImport', actor, id, expectedVersion);
      const merged: RecordImportInput = { ...before, ...defined(changes), producerId: before.producerId };
      const after = BiodieselImportService.toRow(merged, 'input');
      // As recordImports: the key is the producer's own entry NF-e.
      const problems = new Problems();
      const [producer] = await em.query(`SELECT ${PRODUCER_CNPJS.join(', ')} FROM producer WHERE id = $1`, [after.producerId]);
      checkIssuer(producer, after.invoiceKey, 'input.invoiceKey', problems);
      problems.throwIfAny();
      const [taken] = await em.query(`SELECT 1 FROM biodiesel_import WHERE producer_id = $1 AND declaration_number = $2 AND id <> $3`, [after.producerId, after.declarationNumber, id]);
      if (taken) throw new ConflictError('DUPLICATE', message('biodieselImport.declarationTaken', { number: after.declarationNumber, producerId: after.producerId }), 'input.declarationNumber');
      const row = Object.assign(after, { id, state: before.state, version: before.version + 1, createdAt: before.createdAt });
      // An import's contributions are due in the month of clearance (art. 5º §1º); it is not in the Selo year.
      const touched = await judge(em, actor, [{ producerId: row.producerId, taxDays: [before.clearedOn, row.clearedOn], seloDays: [] }], 'id');
      await em.getRepository(BiodieselImport).save(row);
      return { result: { row, reached: touched }, audit: [{ operation: 'correctImport', entity: 'BiodieselImport', entityId: id, producerId: row.producerId, before, after: row }] };
    });
    return { biodieselImport: row, ...(await this.reachedViews(reached)) };
  }

  async correctFomento(actor: Actor, id: string, changes: FomentoChanges, expectedVersion: number): Promise<FomentoCorrection> {
    const { row, reached } = await mutate(this.ds, actor, async (em) => {
      const before = await locked(em, FomentoExpense, 'FomentoExpense', actor, id, expectedVersion);
      const merged: RecordFomentoInput = { ...before, ...defined(changes), producerId: before.producerId };
      const after = FomentoService.toRow(merged, 'input');
      const problems = new Problems();
      await requireMunicipalities(em, [{ field: 'input.municipalityCode', code: after.municipalityCode }], problems);
      if (after.organizationId !== null) await requireRecords(em, 'family_farming_organization', 'FamilyFarmingOrganization', [{ field: 'input.organizationId', id: after.organizationId }], ['id'], problems);
      problems.throwIfAny();
      const row = Object.assign(after, { id, state: before.state, version: before.version + 1, createdAt: before.createdAt, invoiceKey: before.invoiceKey });
      // Fomento counts in the Selo year of its date (art. 3º §2º I c), not in a tax month.
      const touched = await judge(em, actor, [{ producerId: row.producerId, taxDays: [], seloDays: [before.spentOn, row.spentOn] }], 'id');
      await em.getRepository(FomentoExpense).save(row);
      return { result: { row, reached: touched }, audit: [{ operation: 'correctFomento', entity: 'FomentoExpense', entityId: id, producerId: row.producerId, before, after: row }] };
    });
    return { fomentoExpense: row, ...(await this.reachedViews(reached)) };
  }

  /**
   * Each return's tax month when CLOSED (an ADMIN's return into it), as it reads now: its snapshot
   * and drift; else null. A page of returns: one statement for the months, those closed computed together.
   */
  async closedMonthsOf(returns: readonly RecordReturn[]): Promise<Array<TaxPeriodView | Error | null>> {
    const keyOf = (producerId: string, year: number, month: number) => `${producerId}|${year}|${month}`;
    const monthKey = (r: RecordReturn) => keyOf(r.producerId, yearOf(r.returnedOn), monthOf(r.returnedOn));
    if (returns.length === 0) return [];
    // The producers' closed months of those years: a superset, matched to each return's month below.
    const closed = await this.ds.getRepository(TaxPeriod).find({
      select: { producerId: true, year: true, month: true },
      where: { producerId: In([...new Set(returns.map((r) => r.producerId))]), year: In([...new Set(returns.map((r) => yearOf(r.returnedOn)))]), status: TaxPeriodStatus.CLOSED },
    });
    const closedKeys = new Set(closed.map((t) => keyOf(t.producerId, t.year, t.month)));
    const reached = returns.filter((r) => closedKeys.has(monthKey(r)));
    if (reached.length === 0) return returns.map(() => null);
    const producers = new Map((await this.ds.getRepository(Producer).findBy({ id: In([...new Set(reached.map((r) => r.producerId))]) })).map((p) => [p.id, p]));
    const asKnownOn = today();
    const views = await this.taxPeriods.ofPage(reached.map((r) => ({ producer: producers.get(r.producerId)!, year: yearOf(r.returnedOn), month: monthOf(r.returnedOn), asKnownOn })));
    const byMonth = new Map(reached.map((r, i) => [monthKey(r), views[i]]));
    return returns.map((r) => byMonth.get(monthKey(r)) ?? null);
  }

  /** Each return's Selo year when already evaluated, else null: one statement for a page of returns. */
  async evaluatedYearsOf(returns: readonly RecordReturn[]): Promise<Array<number | null>> {
    if (returns.length === 0) return [];
    const evaluated = await this.ds.getRepository(SealEvaluation).find({
      select: { producerId: true, year: true },
      where: { producerId: In([...new Set(returns.map((r) => r.producerId))]), year: In([...new Set(returns.map((r) => yearOf(r.returnedOn)))]) },
    });
    const years = new Set(evaluated.map((e) => `${e.producerId}|${e.year}`));
    return returns.map((r) => (years.has(`${r.producerId}|${yearOf(r.returnedOn)}`) ? yearOf(r.returnedOn) : null));
  }

  /** The closed months reached, as they read after the change: the snapshot and its drift. */
  private async reachedViews(reached: ReachedKeys): Promise<Reached> {
    const closedPeriods: TaxPeriodView[] = [];
    for (const m of reached.months) {
      const producer = await this.ds.getRepository(Producer).findOneByOrFail({ id: m.producerId });
      closedPeriods.push(await this.taxPeriods.ofProducer(producer, m.year, m.month, today()));
    }
    return { closedPeriods, evaluatedSeloYears: reached.years };
  }
}

export interface ReachedKeys { months: Array<{ producerId: string; year: number; month: number }>; years: number[] }

/** The record `id` of `entity`, locked, in the actor's scope, active and at `expectedVersion`. */
async function locked<T extends Purchase | Sale | BiodieselImport | FomentoExpense>(
  em: EntityManager, entity: new () => T, name: RecordName, actor: Actor, id: string, expectedVersion: number,
): Promise<T> {
  const row = isId(id) ? await em.getRepository(entity).findOne({ where: { id } as never, lock: { mode: 'pessimistic_write' } }) : null;
  if (!row) throw new NotFoundError(name, id, 'id');
  assertVisible(actor, name, id, row.producerId);
  if (row.state !== RecordState.ACTIVE) throw new ConflictError('CANCELLED', message('record.cancelled', { entity: name, id }), 'id');
  if (row.version !== expectedVersion) {
    throw new ConflictError('VERSION_MISMATCH', message('record.versionMismatch', { entity: name, id, version: row.version, expected: expectedVersion }), 'expectedVersion');
  }
  return row;
}

/** A corrected purchase or sale still holds what was returned of it (BAD_USER_INPUT otherwise). */
async function keepsItsReturns(em: EntityManager, entity: 'Purchase' | 'Sale', id: string, quantity: Decimal, value: Decimal, quantityField: string, valueField: string): Promise<void> {
  const [sum]: Array<{ quantity: string | null; value: string | null }> = await em.query(
    `SELECT sum(quantity)::text AS quantity, sum(value)::text AS value FROM record_return WHERE ${entity === 'Purchase' ? 'purchase_id' : 'sale_id'} = $1 AND state = 'ACTIVE'`, [id]);
  if (sum.quantity !== null && new Decimal(sum.quantity).gt(quantity)) {
    throw new BadInputError(quantityField, message('return.tooMuch', { entity, id, what: 'quantity', returned: sum.quantity, original: quantity.toFixed() }));
  }
  if (sum.value !== null && new Decimal(sum.value).gt(value)) {
    throw new BadInputError(valueField, message('return.tooMuch', { entity, id, what: 'value', returned: sum.value, original: value.toFixed() }));
  }
}

function defined<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Under the shared lock closeTaxPeriod takes exclusively, so a close never misses a change.
 * CONFLICT PERIOD_CLOSED for anyone but an ADMIN, whose change is made and told.
 */
export async function judge(em: EntityManager, actor: Actor, touches: Touch[], field: string | ((producerId: string, at: string) => string)): Promise<ReachedKeys> {
  const fieldOf = (producerId: string, at: string) => (typeof field === 'string' ? field : field(producerId, at));
  const reached: ReachedKeys = { months: [], years: [] };
  for (const t of [...touches].sort((a, b) => Number(BigInt(a.producerId) - BigInt(b.producerId)))) {
    const months = [...new Set(t.taxDays.map((d) => yearOf(d) * 100 + monthOf(d)))].sort((a, b) => a - b);
    for (const m of months) await em.query(`SELECT pg_advisory_xact_lock_shared(${PERIOD_LOCK_KEY})`, [t.producerId, Math.floor(m / 100), m % 100]);
    const closed: Array<{ year: number; month: number }> = await em.query(
      `SELECT year, month FROM tax_period WHERE producer_id = $1 AND status = 'CLOSED' AND (year * 100 + month) = ANY($2::int[]) ORDER BY year, month`,
      [t.producerId, months],
    );
    const years = [...new Set(t.seloDays.map(yearOf))];
    const evaluated: Array<{ year: number; on: string }> = await em.query(
      `SELECT year, to_char(max(communicated_on), 'YYYY-MM-DD') AS on FROM seal_evaluation WHERE producer_id = $1 AND year = ANY($2::int[]) GROUP BY year ORDER BY year`,
      [t.producerId, years],
    );
    if (actor.role !== Role.ADMIN) {
      if (closed.length > 0) {
        const period = `${closed[0].year}-${String(closed[0].month).padStart(2, '0')}`;
        throw new ConflictError('PERIOD_CLOSED', message('record.closedMonth', { period, producerId: t.producerId }), fieldOf(t.producerId, period), { period });
      }
      if (evaluated.length > 0) {
        throw new ConflictError('PERIOD_CLOSED', message('record.evaluatedYear', { year: evaluated[0].year, producerId: t.producerId, on: evaluated[0].on }), fieldOf(t.producerId, String(evaluated[0].year)), { seloYear: evaluated[0].year });
      }
    }
    reached.months.push(...closed.map((c) => ({ producerId: t.producerId, year: c.year, month: c.month })));
    reached.years.push(...evaluated.map((e) => e.year));
  }
  return reached;
}
