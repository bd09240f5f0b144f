import { DataSource, EntityManager } from 'typeorm';
import { Producer } from '../domain';
import {
  ApportionmentMethod, Balance, CBS_FROM, CbsCredit, cbsCredit, ClaimFacts, ClaimIssue, ClaimKind, Contribution, CreditKind, CreditPart, CreditProduct, CreditSupplier, EfdAcquisition, foldNet,
  monthCbsCredits, monthCredits, MonthCredits,
  CreditReversal, GROUP_ORDER, mergeReversals, MonthNet, monthsBetween, originReversals, productOfFeedstock, PurchaseCredit, purchaseCredit, RevenueGroup, RevenuePart, supplierOfKind,
} from '../law/credits';
import { firstDayOfMonth, IsoDate, lastDayOfMonth, monthOf, today, yearOf } from '../law/dates';
import { Decimal, ZERO } from '../law/decimal';
import { LawBook } from '../law/law-book';
import { FuelTax, FuelTaxStatus, Market } from '../law/types';
import { Actor } from './actor';
import { BadInputError, ConflictError, ConflictReason, NotFoundError } from './errors';
import { message } from '../i18n';
import { requireDate, requirePositiveDecimal, requireWritableProducers } from './record-batch';
import { requireVisibleProducer } from './seal.service';
import { TaxPeriodService, TaxPeriodView } from './tax-period.service';
import { activeSql } from './record-state';
import { mutate, readsOn } from './transaction';
import { Turns } from './turns';
import { checkMonth } from './validation';
import { stopIfAnswered } from '../request-context';

export interface MonthCreditsView extends MonthCredits {
  year: number;
  month: number;
  method: ApportionmentMethod | null;
  /** Null: none recorded, read as non-cumulative. */
  incidence: IncidenceRegime | null;
  purchases: PurchaseCredit[];
  /** From 2027: each purchase's CBS credit (LC 214/2025, arts. 47, 168 and 180). */
  cbs: CbsCredit[];
  net: MonthNet;
  balances: Balance[];
  /** Months whose debit could not be computed (their credits carried whole), and recorded claims the balances no longer support. */
  warnings: string[];
  /** The recorded claims up to the month, each with the amount its balance gave (less than recorded where `claimIssues` says so). */
  claims: ClaimFacts[];
  /** Recorded claims the balances no longer support, up to the month (docs/LAW.md, "Credits, balances and refunds"). */
  claimIssues: ClaimIssue[];
}

export interface RecordCreditClaimInput {
  producerId: string;
  tax: Contribution;
  originYear: number;
  originMonth: number;
  codCred: string;
  kind: ClaimKind;
  filedOn: string;
  amount: Decimal;
  documentNumber?: string | null;
}

/** 0110 COD_INC_TRIB 1 or 2. */
export enum IncidenceRegime { NON_CUMULATIVE = 'NON_CUMULATIVE', CUMULATIVE = 'CUMULATIVE' }

export interface ElectIncidenceInput {
  producerId: string;
  year: number;
  regime: IncidenceRegime;
  electedOn: string;
}

export interface ElectApportionmentInput {
  producerId: string;
  year: number;
  method: ApportionmentMethod;
  electedOn: string;
}

interface PurchaseRow {
  /** credit_on: the day the credit is taken (a return's, the day of the return); purchased_on: the acquisition's, whose rules apply. */
  id: string; credit_on: string; purchased_on: string; feedstock: string; supplier_kind: string; cost: string | null; pis_cofins_cst: string | null; cofins_cst: string | null;
  credit_supplier: CreditSupplier | null; credit_product: CreditProduct | null; icms_value: string | null; import_pis_paid: string | null;
  import_cofins_paid: string | null; cbs_value: string | null; credit_revenue_group: RevenueGroup | null;
}

const dec = (v: string | null) => (v === null ? null : new Decimal(v));
/** What a closed month kept of its credits (`tax_period.credits_snapshot`); `cbs` absent in months closed before it was kept. */
type KeptCredits = MonthCredits & { purchases: PurchaseCredit[]; cbs?: CbsCredit[]; method: ApportionmentMethod | null };
const toYm = (d: IsoDate) => ({ year: yearOf(d), month: monthOf(d) });
const monthKey = (m: { year: number; month: number }) => `${m.year}-${m.month}`;
type YearMonth = { year: number; month: number };
const monthIndex = (m: YearMonth) => m.year * 12 + m.month - 1;
/** The non-cumulative Cofins began in 02/2004 (Lei 10.833/2003): the credits are folded from then. */
const CREDITS_FROM: YearMonth = { year: 2004, month: 2 };

/**
 * Credits are folded month by month from the producer's first record (at the earliest 02/2004), so
 * a far month costs a fold per month between: asked no later than December of next year (today in
 * Brazil), where a planned month can still fall.
 */
function withinHorizon(year: number, month: number, field: string): void {
  const last = yearOf(today()) + 1;
  if (year > last) throw new BadInputError(field, message('credits.horizon', { field, asked: `${year}-${String(month).padStart(2, '0')}`, last }));
}

/** A month whose credits can be folded: a calendar month from 02/2004 to December of next year. */
function checkCreditMonth(year: number, month: number, field: string): void {
  checkMonth(year, month);
  withinHorizon(year, month, field);
  if (monthIndex({ year, month }) < monthIndex(CREDITS_FROM)) {
    throw new BadInputError(field, message('credits.start', { field, asked: `${year}-${String(month).padStart(2, '0')}` }));
  }
}

/** How many credit folds a process computes at once (docs/SCALING.md, "Heavy computations per process"). */
export const FOLDS_AT_ONCE = 2;

/** Lei 10.637/2002 and Lei 10.833/2003, art. 3º: balances folded month by month; from 2027 against the CBS. */
export class CreditService {
  /** Where the month's facts are read: the pool, or a close's own transaction (`within`). */
  private reader: DataSource | EntityManager;
  /** Folds computed at once in this process, as Selo years (two cores). */
  private readonly turns = new Turns(FOLDS_AT_ONCE);

  constructor(private readonly ds: DataSource, private lawBook: () => Promise<LawBook>, private taxPeriods: TaxPeriodService) {
    this.reader = ds;
  }

  /**
   * This service reading through `em` alone, with the law book `law`: a close holds its month, and
   * the records waiting for the month may hold every other connection of the pool.
   */
  private within(em: EntityManager, law: LawBook): CreditService {
    const bound = Object.create(this) as CreditService;
    bound.reader = em;
    bound.lawBook = async () => law;
    bound.taxPeriods = this.taxPeriods.within(em, law);
    return bound;
  }

  /**
   * The producer is already within the caller's scope; `extra`: a claim not yet recorded, folded as if
   * it were (recordClaim's check). A fold reads every month from the first record on (seconds for
   * thirty aliases), so it takes a turn as Selo years do (docs/SCALING.md); a close's or a claim's
   * fold (`within`) runs in the transaction it holds and takes none.
   */
  ofMonth(producer: Producer, year: number, month: number, asKnownOn: IsoDate, extra: ClaimFacts[] = []): Promise<MonthCreditsView> {
    if (this.reader !== this.ds) return this.fold(producer, year, month, asKnownOn, extra);
    return this.turns.run(() => this.fold(producer, year, month, asKnownOn, extra));
  }

  private async fold(producer: Producer, year: number, month: number, asKnownOn: IsoDate, extra: ClaimFacts[]): Promise<MonthCreditsView> {
    checkCreditMonth(year, month, 'month');
    const law = await this.lawBook();
    const first = await this.firstMonth(producer.id, year, month);
    const [recorded, elections, incidences] = await readsOn(this.reader, () => this.claims(producer.id), () => this.elections(producer.id), () => this.incidences(producer.id));
    // In the order filed (a stable sort: the recorded ones of a day keep their order, a new one comes after them).
    const claims = [...recorded, ...extra].sort((a, b) => (a.filedOn < b.filedOn ? -1 : a.filedOn > b.filedOn ? 1 : 0));
    const months = monthsBetween(first, { year, month });
    const inputs = [];
    const warnings: string[] = [];
    let last: { credits: MonthCredits; purchases: PurchaseCredit[]; cbs: CbsCredit[]; method: ApportionmentMethod | null; incidence: IncidenceRegime | null } | null = null;
    const closed = await this.closedSnapshots(producer.id);
    // Each month's credit parts, where a later return of its purchases finds the balance to reverse.
    const partsOf = new Map<string, CreditPart[]>();
    for (const m of months) {
      // Months are many when the first record is old: a request already answered stops here.
      stopIfAnswered();
      const [view, { purchases, cbs: cbsOfMonth }, sales] = await readsOn(this.reader,
        () => this.taxPeriods.ofProducer(producer, m.year, m.month, asKnownOn).catch((error: Error) => error),
        () => this.purchaseCredits(producer.id, m.year, m.month, law, asKnownOn),
        () => this.salesByDay(producer.id, m.year, m.month),
      );
      // Interpretation (docs/LAW.md): a month whose debit cannot be computed deducts nothing; its credits are carried whole.
      if (view instanceof Error) warnings.push(`${m.year}-${String(m.month).padStart(2, '0')}: ${view.message}`);
      const kept = closed.get(monthKey(m));
      const method = kept ? kept.method : elections.get(m.year) ?? null;
      // A closed month keeps the credits it closed with; an open one is computed as known on asKnownOn.
      // The cumulative regime has no credits and deducts none (Lei 10.637/2002 art. 8º; Lei 10.833/2003 art. 10; docs/LAW.md).
      const cumulative = incidences.get(m.year) === IncidenceRegime.CUMULATIVE;
      // A return of an earlier month's purchase reverses the parts that purchase gave there (docs/LAW.md, "Returns");
      // one whose purchase has no part there (no credit then, or a month closed before its parts were kept) nets here.
      const own: PurchaseCredit[] = [];
      const reversals: CreditReversal[] = [];
      for (const p of cumulative ? [] : purchases) {
        const bought = p.purchasedOn ? toYm(p.purchasedOn) : null;
        const origin = bought && monthKey(bought) !== monthKey(m) ? bought : null;
        const reversed = origin && originReversals(p, { ...origin, parts: partsOf.get(monthKey(origin)) ?? [] });
        if (reversed) reversals.push(...reversed);
        else own.push(p);
      }
      const credits: MonthCredits = kept ?? {
        ...monthCredits({ purchases: own, revenue: cumulative || view instanceof Error ? [] : revenueParts(view, sales), method, law, asKnownOn }),
        reversals: mergeReversals(reversals),
      };
      partsOf.set(monthKey(m), credits.parts ?? []);
      const extinct = firstDayOfMonth(m.year, m.month) >= CBS_FROM;
      const cbs = view instanceof Error ? undefined : view.fuelTaxes?.find((t) => t.tax === FuelTax.CBS);
      const cbsCredits = kept ? kept.cbs ?? [] : cbsOfMonth;
      inputs.push({
        year: m.year, month: m.month,
        pisDebit: view instanceof Error || extinct ? null : view.pisDue, cofinsDebit: view instanceof Error || extinct ? null : view.cofinsDue,
        lines: credits.lines, reversals: credits.reversals ?? [], cbsLevied: extinct, cbsDue: cbs && cbs.status === FuelTaxStatus.COMPUTED ? cbs.due : null,
        cbsCredits: monthCbsCredits(cbsCredits).total,
        claims: claims.filter((c) => toYm(c.filedOn).year === m.year && toYm(c.filedOn).month === m.month), deducts: !cumulative,
      });
      last = { credits, purchases: kept ? kept.purchases : cumulative ? [] : purchases, cbs: cbsCredits, method, incidence: incidences.get(m.year) ?? null };
    }
    const { nets, balances, claims: applied, issues } = foldNet(inputs);
    // A claim the balances no longer support (a record written after it) is said on its month and after, never an error.
    for (const i of issues) warnings.push(claimWarning(i));
    const { credits, cbs } = last!;
    return {
      year, month, ...credits, awaiting: [...new Set([...credits.awaiting, ...monthCbsCredits(cbs).awaiting])], method: last!.method, incidence: last!.incidence, purchases: last!.purchases, cbs,
      reversals: credits.reversals ?? [], net: nets[nets.length - 1], balances, warnings, claims: applied, claimIssues: issues,
    };
  }

  async efdCredits(producer: Producer, year: number, month: number, asKnownOn: IsoDate) {
    const now = await this.ofMonth(producer, year, month, asKnownOn);
    const [py, pm] = month === 1 ? [year - 1, 12] : [year, month - 1];
    const first = await this.firstMonth(producer.id, year, month);
    const before = first.year < year || (first.year === year && first.month < month) ? (await this.ofMonth(producer, py, pm, asKnownOn)).balances : [];
    const end = lastDayOfMonth(year, month);
    const revenue = Object.fromEntries(GROUP_ORDER.map((g) => [g, now.presumed.filter((p) => p.group === g).reduce((t, p) => t.plus(p.revenue), ZERO)])) as Record<RevenueGroup, Decimal>;
    // A month closed before its parts were kept: the same allocation again, from what it kept.
    const parts = now.parts ?? monthCredits({ purchases: now.purchases, revenue: now.presumed, method: now.method, law: await this.lawBook(), asKnownOn }).parts!;
    return {
      // The claims as the balances gave them: a claim beyond its balance is written for what it took (the month's warnings say the rest).
      year, month, lines: now.lines, net: now.net, before, after: now.balances, claims: now.claims.filter((c) => c.filedOn <= end),
      method: now.method, awaitingElection: now.awaitingElection, revenue, acquisitions: await this.acquisitions(producer, parts),
    };
  }

  /** The purchases behind the month's credit parts, with what C190/C191 write of them (item, participant, CFOP). */
  private async acquisitions(producer: Producer, parts: CreditPart[]): Promise<EfdAcquisition[]> {
    const own = new Set([producer.cnpj, ...producer.establishments]);
    const ids = [...new Set(parts.filter((p) => p.kind !== CreditKind.PRESUMED).map((p) => p.purchaseId))];
    if (!ids.length) return [];
    const rows: Array<{ id: string; purchased_on: string; feedstock: string; credit_product: CreditProduct | null; credit_supplier: CreditSupplier | null; supplier_kind: string;
      supplier_document: string | null; organization_cnpj: string | null; invoice_key: string | null; origin_municipality_code: string; cost: string;
      pis_cofins_cst: string | null; cofins_cst: string | null }> = await this.ds.query(
      `SELECT p.id::text AS id, to_char(p.purchased_on, 'YYYY-MM-DD') AS purchased_on, p.feedstock, p.credit_product, p.credit_supplier, p.supplier_kind, p.supplier_document,
              o.cnpj AS organization_cnpj, p.invoice_key, p.origin_municipality_code, p.cost::text AS cost, p.pis_cofins_cst, p.cofins_cst
         FROM purchase p LEFT JOIN family_farming_organization o ON o.id = p.organization_id
        WHERE p.producer_id = $1 AND p.id = ANY($2::bigint[])`,
      [producer.id, ids],
    );
    // The participant: as recorded, else the organization's CNPJ, else the issuer of the note when it is not the producer's own entry note.
    const issuer = (key: string | null) => (key && !own.has(key.slice(6, 20)) ? key.slice(6, 20) : null);
    const facts = new Map(rows.map((r) => [r.id, r]));
    return parts.filter((p) => p.kind !== CreditKind.PRESUMED).map((part) => {
      const r = facts.get(part.purchaseId)!;
      return {
        part, purchasedOn: r.purchased_on, feedstock: r.feedstock, product: r.credit_product ?? productOfFeedstock(r.feedstock),
        abroad: (r.credit_supplier ?? supplierOfKind(r.supplier_kind)) === CreditSupplier.ABROAD,
        document: r.supplier_document ?? r.organization_cnpj ?? issuer(r.invoice_key),
        originMunicipalityCode: r.origin_municipality_code, cost: new Decimal(r.cost), pisCst: r.pis_cofins_cst, cofinsCst: r.cofins_cst,
      };
    });
  }

  /** In TaxPeriodService.close's transaction. */
  async snapshot(em: EntityManager, producer: Producer, year: number, month: number, law: LawBook): Promise<void> {
    // A month closed again after a reopening still holds its first close's credits: the fold would
    // read them as this month's kept credits instead of computing the month as it closes now.
    await em.query('UPDATE tax_period SET credits_snapshot = NULL WHERE producer_id = $1 AND year = $2 AND month = $3', [producer.id, year, month]);
    const v = await this.within(em, law).ofMonth(producer, year, month, today());
    const kept = { lines: v.lines, parts: v.parts, reversals: v.reversals, purchases: v.purchases, cbs: v.cbs, presumed: v.presumed, awaiting: v.awaiting, awaitingElection: v.awaitingElection, method: v.method };
    await em.query('UPDATE tax_period SET credits_snapshot = $4 WHERE producer_id = $1 AND year = $2 AND month = $3', [producer.id, year, month, JSON.stringify(kept)]);
  }

  private async closedSnapshots(producerId: string): Promise<Map<string, KeptCredits>> {
    const rows: Array<{ year: number; month: number; credits_snapshot: Record<string, unknown> }> = await this.reader.query(
      `SELECT year, month, credits_snapshot FROM tax_period WHERE producer_id = $1 AND status = 'CLOSED' AND credits_snapshot IS NOT NULL`, [producerId]);
    return new Map(rows.map((r) => [monthKey(r), revive(r.credits_snapshot) as KeptCredits]));
  }

  async balancesOn(actor: Actor, producerId: string, on: IsoDate, asKnownOn: IsoDate): Promise<Balance[]> {
    await requireVisibleProducer(this.ds, actor, producerId);
    const producer = await this.ds.getRepository(Producer).findOneByOrFail({ id: producerId });
    const { year, month } = toYm(requireDate(on, 'on'));
    checkCreditMonth(year, month, 'on');
    return (await this.ofMonth(producer, year, month, asKnownOn)).balances;
  }

  /** Lei 11.116/2005, art. 16; Lei 10.637/2002, art. 5º § 2º; from 2027 LC 214/2025, art. 378 IV. */
  async recordClaim(actor: Actor, input: RecordCreditClaimInput): Promise<ClaimFacts> {
    const filedOn = requireDate(input.filedOn, 'input.filedOn');
    const amount = requirePositiveDecimal(input.amount, 'input.amount');
    if (!Object.values(Contribution).includes(input.tax)) throw new BadInputError('input.tax', `Unknown tax ${String(input.tax)}`);
    if (!Object.values(ClaimKind).includes(input.kind)) throw new BadInputError('input.kind', `Unknown claim kind ${String(input.kind)}`);
    if (!/^[123]0[1-9]$/.test(input.codCred ?? '')) throw new BadInputError('input.codCred', 'codCred is a COD_CRED of table 4.3.6 (three digits, e.g. 301)');
    checkMonth(input.originYear, input.originMonth);
    checkCreditMonth(yearOf(filedOn), monthOf(filedOn), 'input.filedOn');
    // Read before the producer's claims are held: holding them, a claim takes no other connection of
    // the pool, which the claims waiting behind it may hold every one of.
    const law = await this.lawBook();
    return mutate(this.ds, actor, async (em) => {
      const producers = await requireWritableProducers<Producer>(em, actor, [{ field: 'input.producerId', id: input.producerId }]);
      if (!producers.has(input.producerId)) throw new NotFoundError('Producer', input.producerId);
      const producer = await em.getRepository(Producer).findOneByOrFail({ id: input.producerId });
      // Serialise claims of a producer: two at once could each see the same balance.
      await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`credit-claim:${producer.id}`]);
      const { year, month } = toYm(filedOn);
      const claim: ClaimFacts = { id: 'new', tax: input.tax, originYear: input.originYear, originMonth: input.originMonth, codCred: input.codCred, kind: input.kind, filedOn, amount };
      // Folded as it will be once recorded: against the balance carried into its month, after the claims filed before it,
      // and on to the last claim on record, which a claim filed before it may leave short (docs/LAW.md, "order of the month's claims").
      const [{ last }]: Array<{ last: string | null }> = await em.query(`SELECT to_char(max(filed_on), 'YYYY-MM-DD') AS last FROM credit_claim WHERE producer_id = $1`, [producer.id]);
      const until = last !== null && last > filedOn ? toYm(last) : { year, month };
      const credits = this.within(em, law);
      const issues = (await credits.ofMonth(producer, until.year, until.month, today(), [claim])).claimIssues;
      const issue = issues.find((i) => i.claim === claim);
      if (issue) {
        throw new ConflictError('CREDIT_CLAIM', `The claim cannot be recorded: ${issue.reason}`, 'input.amount', { claimReason: issue.reason, available: issue.available.toFixed() });
      }
      // Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 4º: a balance is used once. A claim on record the fold
      // without this one already finds short (a record written after it) is not this claim's doing; one it
      // leaves short, or shorter, is.
      if (issues.length) {
        const before = new Map((await credits.ofMonth(producer, until.year, until.month, today())).claimIssues.map((i) => [i.claim.id, i.excess]));
        const short = issues.find((i) => !before.has(i.claim.id) || i.excess.gt(before.get(i.claim.id)!));
        if (short) {
          const c = short.claim;
          throw new ConflictError('CREDIT_CLAIM', `The claim cannot be recorded: claim ${c.id} (${c.kind} of ${c.amount.toFixed(2)}, filed ${c.filedOn}) would exceed its balance by ${short.excess.toFixed(2)}`,
            'input.amount', { claimReason: 'LATER_CLAIM_SHORT', laterClaimId: c.id, laterFiledOn: c.filedOn, available: short.available.toFixed(), shortBy: short.excess.toFixed() });
        }
      }
      const [row]: Array<{ id: string }> = await em.query(
        `INSERT INTO credit_claim (producer_id, tax, origin_year, origin_month, cod_cred, kind, filed_on, amount, document_number)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::text AS id`,
        [producer.id, claim.tax, claim.originYear, claim.originMonth, claim.codCred, claim.kind, filedOn, amount.toFixed(), input.documentNumber?.trim() || null],
      );
      const saved = { ...claim, id: row.id };
      return { result: saved, audit: [{ operation: 'recordCreditClaim', entity: 'CreditClaim', entityId: row.id, producerId: producer.id, after: { ...saved, amount: amount.toFixed() } }] };
    });
  }

  /** Lei 10.637/2002, art. 3º §§ 8º–9º. */
  elect(actor: Actor, input: ElectApportionmentInput): Promise<ElectApportionmentInput & { id: string }> {
    if (!Object.values(ApportionmentMethod).includes(input.method)) throw new BadInputError('input.method', `Unknown method ${String(input.method)}`);
    return this.electForYear(actor, input, { table: 'credit_apportionment_election', column: 'method', value: input.method, operation: 'electCreditApportionment',
      entity: 'CreditApportionmentElection', conflict: 'APPORTIONMENT_ALREADY_ELECTED', what: 'apportionment method' });
  }

  /** Irrevocable (Lei 10.637/2002 art. 8º; Lei 10.833/2003 art. 10). */
  electIncidence(actor: Actor, input: ElectIncidenceInput): Promise<ElectIncidenceInput & { id: string }> {
    if (!Object.values(IncidenceRegime).includes(input.regime)) throw new BadInputError('input.regime', `Unknown regime ${String(input.regime)}`);
    return this.electForYear(actor, input, { table: 'incidence_election', column: 'regime', value: input.regime, operation: 'electIncidenceRegime',
      entity: 'IncidenceElection', conflict: 'INCIDENCE_ALREADY_ELECTED', what: 'incidence regime' });
  }

  async incidenceOf(producerId: string, year: number): Promise<IncidenceRegime | null> {
    return (await this.incidences(producerId)).get(year) ?? null;
  }

  private async electForYear<I extends { producerId: string; year: number; electedOn: string }>(
    actor: Actor, input: I, e: { table: string; column: string; value: string; operation: string; entity: string; conflict: ConflictReason; what: string },
  ): Promise<I & { id: string }> {
    const electedOn = requireDate(input.electedOn, 'input.electedOn');
    if (!Number.isInteger(input.year) || input.year < 2002 || input.year > 2026) throw new BadInputError('input.year', 'year is a calendar year of the non-cumulative regime, 2002 to 2026');
    return mutate(this.ds, actor, async (em) => {
      await requireWritableProducers(em, actor, [{ field: 'input.producerId', id: input.producerId }]);
      const rows: Array<{ id: string }> = await em.query(
        `INSERT INTO ${e.table} (producer_id, year, ${e.column}, elected_on) VALUES ($1, $2, $3, $4)
         ON CONFLICT (producer_id, year) DO NOTHING RETURNING id::text AS id`,
        [input.producerId, input.year, e.value, electedOn],
      );
      if (rows.length === 0) throw new ConflictError(e.conflict, `The ${e.what} of ${input.year} is already elected`, 'input.year');
      const saved = { ...input, electedOn, id: rows[0].id };
      return { result: saved, audit: [{ operation: e.operation, entity: e.entity, entityId: rows[0].id, producerId: input.producerId, after: saved }] };
    });
  }

  private async firstMonth(producerId: string, year: number, month: number): Promise<{ year: number; month: number }> {
    const [row]: Array<{ first: string | null }> = await this.reader.query(
      `SELECT to_char(least((SELECT min(purchased_on) FROM purchase WHERE producer_id = $1), (SELECT min(sold_on) FROM sale WHERE producer_id = $1), $2::date), 'YYYY-MM-DD') AS first`,
      [producerId, firstDayOfMonth(year, month)],
    );
    // The non-cumulative credits start with Cofins in 02/2004 (Lei 10.833/2003).
    return toYm(row.first! < '2004-02-01' ? '2004-02-01' : row.first!);
  }

  /** Each purchase's PIS/Cofins credit, and from 2027 its CBS credit, from one read. */
  private async purchaseCredits(producerId: string, year: number, month: number, law: LawBook, asKnownOn: IsoDate): Promise<{ purchases: PurchaseCredit[]; cbs: CbsCredit[] }> {
    // Interpretation (docs/LAW.md): the credit is the month's of acquisition (Lei 10.637/2002, art. 3º § 1º I), not of use.
    const rows: PurchaseRow[] = await this.reader.query(
      `SELECT o.id::text AS id, to_char(o.purchased_on, 'YYYY-MM-DD') AS credit_on, to_char(o.purchased_on, 'YYYY-MM-DD') AS purchased_on, o.feedstock, o.supplier_kind, o.cost::text AS cost, o.pis_cofins_cst, o.cofins_cst, o.credit_supplier,
              o.credit_product, o.icms_value::text AS icms_value, o.import_pis_paid::text AS import_pis_paid, o.import_cofins_paid::text AS import_cofins_paid,
              o.cbs_value::text AS cbs_value, o.credit_revenue_group
         FROM purchase o WHERE o.producer_id = $1 AND o.purchased_on BETWEEN $2::date AND $3::date AND o.supplier_kind <> 'OWN_PRODUCTION' AND ${activeSql('o')}
       UNION ALL
       -- An active return of an active purchase reverses its share of the credit on its day, under the rules of the
       -- purchase's own day (docs/LAW.md, "Returns"): a 2026 lot returned in 2027 reverses its PIS/Cofins credit, no CBS.
       SELECT o.id::text, to_char(r.returned_on, 'YYYY-MM-DD'), to_char(o.purchased_on, 'YYYY-MM-DD'), o.feedstock, o.supplier_kind, (-r.value)::text, o.pis_cofins_cst, o.cofins_cst, o.credit_supplier, o.credit_product,
              (-o.icms_value * r.value / o.cost)::text, (-o.import_pis_paid * r.value / o.cost)::text, (-o.import_cofins_paid * r.value / o.cost)::text,
              (-o.cbs_value * r.value / o.cost)::text, o.credit_revenue_group
         FROM record_return r JOIN purchase o ON o.id = r.purchase_id AND ${activeSql('o')} AND o.cost > 0 AND o.supplier_kind <> 'OWN_PRODUCTION'
        WHERE r.producer_id = $1 AND r.returned_on BETWEEN $2::date AND $3::date AND ${activeSql('r')}
        ORDER BY 2, 1`,
      [producerId, firstDayOfMonth(year, month), lastDayOfMonth(year, month)],
    );
    const facts = rows.map((r) => ({ r, supplier: r.credit_supplier ?? supplierOfKind(r.supplier_kind), product: r.credit_product ?? productOfFeedstock(r.feedstock) }));
    return {
      purchases: facts.map(({ r, supplier, product }) => purchaseCredit({
        purchaseId: r.id, purchasedOn: r.purchased_on, on: r.credit_on, supplier, product, cst: r.pis_cofins_cst, cofinsCst: r.cofins_cst, cost: dec(r.cost), icms: dec(r.icms_value),
        importPisPaid: dec(r.import_pis_paid), importCofinsPaid: dec(r.import_cofins_paid), allocatedTo: r.credit_revenue_group,
      }, law, asKnownOn)),
      cbs: facts.filter(({ r }) => r.purchased_on >= CBS_FROM)
        .map(({ r, supplier, product }) => cbsCredit({ purchaseId: r.id, on: r.credit_on, purchasedOn: r.purchased_on, supplier, product, cost: dec(r.cost), cbsValue: dec(r.cbs_value) }, law, asKnownOn)),
    };
  }

  /** Interpretation (docs/LAW.md): the art. 31 base is every biodiesel sale's revenue. */
  private async salesByDay(producerId: string, year: number, month: number): Promise<Array<{ on: IsoDate; market: Market; revenue: Decimal }>> {
    const rows: Array<{ on: string; market: Market; revenue: string }> = await this.reader.query(
      `SELECT to_char(s.sold_on, 'YYYY-MM-DD') AS on, s.market, sum(s.revenue)::text AS revenue
         FROM (SELECT sold_on, market, revenue FROM sale WHERE producer_id = $1 AND sold_on BETWEEN $2::date AND $3::date AND ${activeSql()}
               UNION ALL
               -- Each active return of an active sale, negative, on its day (docs/LAW.md, "Returns").
               SELECT r.returned_on, o.market, -r.value FROM record_return r JOIN sale o ON o.id = r.sale_id AND ${activeSql('o')}
                WHERE r.producer_id = $1 AND r.returned_on BETWEEN $2::date AND $3::date AND ${activeSql('r')}) s
        GROUP BY s.sold_on, s.market ORDER BY 1, 2`,
      [producerId, firstDayOfMonth(year, month), lastDayOfMonth(year, month)],
    );
    return rows.map((r) => ({ on: r.on, market: r.market, revenue: new Decimal(r.revenue) }));
  }

  private async claims(producerId: string): Promise<ClaimFacts[]> {
    const rows: Array<{ id: string; tax: Contribution; origin_year: number; origin_month: number; cod_cred: string; kind: ClaimKind; filed_on: string; amount: string }> = await this.reader.query(
      `SELECT id::text AS id, tax, origin_year, origin_month, cod_cred, kind, to_char(filed_on, 'YYYY-MM-DD') AS filed_on, amount::text AS amount
         FROM credit_claim WHERE producer_id = $1 ORDER BY filed_on, id`,
      [producerId],
    );
    return rows.map((r) => ({ id: r.id, tax: r.tax, originYear: r.origin_year, originMonth: r.origin_month, codCred: r.cod_cred, kind: r.kind, filedOn: r.filed_on, amount: new Decimal(r.amount) }));
  }

  private async incidences(producerId: string): Promise<Map<number, IncidenceRegime>> {
    const rows: Array<{ year: number; regime: IncidenceRegime }> = await this.reader.query('SELECT year, regime FROM incidence_election WHERE producer_id = $1', [producerId]);
    return new Map(rows.map((r) => [r.year, r.regime]));
  }

  private async elections(producerId: string): Promise<Map<number, ApportionmentMethod>> {
    const rows: Array<{ year: number; method: ApportionmentMethod }> = await this.reader.query(
      'SELECT year, method FROM credit_apportionment_election WHERE producer_id = $1', [producerId]);
    return new Map(rows.map((r) => [r.year, r.method]));
  }
}

const DECIMAL_KEYS = new Set(['base', 'pisRate', 'cofinsRate', 'pis', 'cofins', 'revenue', 'share', 'rate', 'amount']);
function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, DECIMAL_KEYS.has(k) && typeof v === 'string' ? new Decimal(v) : revive(v)]));
}

/** A claim the balances no longer support, in the words of `warnings`. */
function claimWarning(i: ClaimIssue): string {
  const c = i.claim;
  const ym = `${i.year}-${String(i.month).padStart(2, '0')}`;
  const origin = `${c.tax} ${c.originYear}-${String(c.originMonth).padStart(2, '0')} COD_CRED ${c.codCred}`;
  const what = i.reason === 'EXCEEDS_BALANCE'
    ? `exceeds the balance by ${i.excess.toFixed(2)} (${i.available.toFixed(2)} available, taken)`
    : `${i.reason}: no balance of it is taken (${i.excess.toFixed(2)} unsupported)`;
  return `${ym}: claim ${c.id} (${c.kind} of ${c.amount.toFixed(2)}, ${origin}, filed ${c.filedOn}) ${what}`;
}

/** Group 200 where the amount is R$ 0,00 (Lei 11.033/2004, art. 17); reading in docs/LAW.md. */
function revenueParts(view: TaxPeriodView, sales: Array<{ on: IsoDate; market: Market; revenue: Decimal }>): RevenuePart[] {
  return sales.map((s) => {
    if (s.market === Market.EXPORT) return { on: s.on, group: RevenueGroup.EXPORT, revenue: s.revenue };
    const seg = view.segments.find((x) => x.from <= s.on && s.on <= x.to);
    const amount = seg ? (seg.blendedPisPerM3 ?? seg.pisRate ?? ZERO) : ZERO;
    const taxed = seg !== undefined && (amount.gt(0) || seg.pisDue.gt(0));
    return { on: s.on, group: taxed ? RevenueGroup.TAXED_DOMESTIC : RevenueGroup.UNTAXED_DOMESTIC, revenue: s.revenue };
  });
}

export { ApportionmentMethod, CbsCreditKind, ClaimKind, Contribution, CreditKind, CreditProduct, CreditStatus, CreditSupplier, RevenueGroup } from '../law/credits/types';
