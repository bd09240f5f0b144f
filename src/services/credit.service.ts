import { DataSource, EntityManager } from 'typeorm';
import { Producer } from '../domain';
import {
  ApportionmentMethod, Balance, balanceDifferences, CBS_FROM, FiledBalances, CbsCredit, cbsCredit, ClaimFacts, ClaimIssue, ClaimKind, Contribution, CreditKind, CreditPart, CreditProduct, CreditSupplier, EfdAcquisition, foldNet,
  FoldState, monthCbsCredits, monthCredits, MonthCredits, NetMonthInput,
  CreditReversal, GROUP_ORDER, mergeReversals, MonthNet, monthsBetween, originReversals, productOfFeedstock, PurchaseCredit, purchaseCredit, RevenueGroup, RevenuePart, supplierOfKind,
} from '../law/credits';
import { firstDayOfMonth, IsoDate, lastDayOfMonth, monthOf, today, yearOf } from '../law/dates';
import { Decimal, ZERO } from '../law/decimal';
import { LawBook } from '../law/law-book';
import { FigureDifference } from '../law/tax-period';
import { FuelTax, FuelTaxStatus, Market } from '../law/types';
import { Actor } from './actor';
import { BadInputError, ConflictError, ConflictReason, NotFoundError } from './errors';
import { message } from '../i18n';
import { requireDate, requirePositiveDecimal, requireWritableProducers } from './record-batch';
import { requireVisibleProducer } from './seal.service';
import { TaxPeriodService, TaxPeriodView } from './tax-period.service';
import { activeSql } from './record-state';
import { mutate, untilAnswered } from './transaction';
import { groupBy } from './group-by';
import { Turns } from './turns';
import { checkMonth } from './validation';
import { assertPeriodsOpen } from './period-lock';
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
  /** The net and balances as the fold gives them now: `net` and `balances` but where a closed month shows what it filed. */
  live: { net: MonthNet; balances: Balance[] };
  /** A closed month that kept its balances: each figure of its net and balances the fold now gives otherwise. */
  differences: FigureDifference[];
  /** What a closed month filed of its balances; null for an open month, or one closed before they were kept. */
  filed: FiledBalances | null;
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
/**
 * What a closed month kept of its credits (`tax_period.credits_snapshot`); `cbs` absent in months closed before it was kept,
 * `filed` (its net and balances) in those closed before they were.
 */
type KeptCredits = MonthCredits & { purchases: PurchaseCredit[]; cbs?: CbsCredit[]; method: ApportionmentMethod | null; filed?: FiledBalances };
const toYm = (d: IsoDate) => ({ year: yearOf(d), month: monthOf(d) });
const monthKey = (m: { year: number; month: number }) => `${m.year}-${m.month}`;
type YearMonth = { year: number; month: number };
const monthIndex = (m: YearMonth) => m.year * 12 + m.month - 1;
/** The non-cumulative Cofins began in 02/2004 (Lei 10.833/2003): the credits are folded from then. */
const CREDITS_FROM: YearMonth = { year: 2004, month: 2 };

/**
 * Credits are folded month by month from the producer's first record (at the earliest 02/2004), so
 * a far month costs every month between: asked no later than December of next year (today in
 * Brazil), where a planned month can still fall.
 */
function withinHorizon(year: number, month: number, field: string): void {
  const last = yearOf(today()) + 1;
  if (year > last) throw new BadInputError(field, message('credits.horizon', { field, asked: `${year}-${String(month).padStart(2, '0')}`, last }));
}

/** A month whose credits can be folded: a calendar month (`year`, `month`) from 02/2004 to December of next year. */
function checkCreditMonth(year: number, month: number, field: string): void {
  checkMonth(year, month);
  foldable(year, month, field);
}

/**
 * The month of a date (`on`, `input.filedOn`) whose credits can be folded, BAD_USER_INPUT naming
 * the date: its year and month are a calendar's, and a year before 2000 is before 02/2004.
 */
function checkCreditDay(on: IsoDate, field: string): YearMonth {
  const asked = toYm(on);
  foldable(asked.year, asked.month, field);
  return asked;
}

function foldable(year: number, month: number, field: string): void {
  withinHorizon(year, month, field);
  if (monthIndex({ year, month }) < monthIndex(CREDITS_FROM)) {
    throw new BadInputError(field, message('credits.start', { field, asked: `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}` }));
  }
}

/** How many credit folds a process computes at once (docs/SCALING.md, "Heavy computations per process"). */
export const FOLDS_AT_ONCE = 2;

/** A producer's month asked as known on a day (the loaders' key). */
export interface CreditMonthAsked {
  producer: Producer;
  year: number;
  month: number;
  asKnownOn: IsoDate;
}

/** The months asked of one producer as known on one day; `extra`: claims not yet recorded, folded as if they were (recordClaim's check). */
interface FoldAsked {
  producer: Producer;
  asKnownOn: IsoDate;
  months: readonly YearMonth[];
  extra?: ClaimFacts[];
}

/** A producer's facts read for its folds as known on a day, and the months they answer without reading again. */
interface FoldRead {
  /** The months it was read for. */
  asked: readonly YearMonth[];
  /** The month its fold starts: its first record's, at the earliest 02/2004; null when it has none. */
  first: YearMonth | null;
  /** From `first` to the latest month asked from the first record on, each folded from `first`. */
  through: YearMonth[];
  /** The months asked before the first record, each folded alone. */
  alone: YearMonth[];
  facts: FoldFacts;
}

/** What a fold reads once per producer. */
interface ProducerFacts {
  /** Its first purchase's or sale's day, whatever their state; null when it has none. */
  first: IsoDate | null;
  /** In the order filed. */
  claims: ClaimFacts[];
  elections: Map<number, ApportionmentMethod>;
  incidences: Map<number, IncidenceRegime>;
  /** What its closed months kept, by month. */
  closed: Map<string, KeptCredits>;
}

interface SaleDay { on: IsoDate; market: Market; revenue: Decimal }

/** One producer's fold as known on a day, from the ranged reads: each month's facts by month. */
interface FoldFacts extends ProducerFacts {
  law: LawBook;
  asKnownOn: IsoDate;
  taxPeriod: (m: YearMonth) => TaxPeriodView | Error;
  purchases: (m: YearMonth) => PurchaseRow[];
  sales: (m: YearMonth) => SaleDay[];
}

/**
 * The months a fold computes for the months asked of a producer. The law's fold of a month starts at
 * the producer's first record, or at the month itself when it comes before it (at the earliest
 * 02/2004): the months asked from the first record on are served by one fold from it to the latest of
 * them; each one before it (no record yet) by a fold of itself alone.
 */
function foldPlan(asked: readonly YearMonth[], firstRecord: IsoDate | null): { first: YearMonth | null; through: YearMonth[]; alone: YearMonth[] } {
  const recorded = firstRecord === null ? null : toYm(firstRecord);
  const from = recorded && (monthIndex(recorded) < monthIndex(CREDITS_FROM) ? CREDITS_FROM : recorded);
  const fromFirst = recorded ? asked.filter((m) => monthIndex(m) >= monthIndex(recorded)) : [];
  const last = fromFirst.reduce<YearMonth | null>((l, m) => (l === null || monthIndex(m) > monthIndex(l) ? m : l), null);
  return {
    first: from,
    through: last ? monthsBetween(from!, last) : [],
    alone: recorded ? asked.filter((m) => monthIndex(m) < monthIndex(recorded)) : [...asked],
  };
}

/** Lei 10.637/2002 and Lei 10.833/2003, art. 3º: balances folded month by month; from 2027 against the CBS. */
export class CreditService {
  /** Where the month's facts are read: a fold's own snapshot, or a close's or a claim's transaction (`within`). */
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

  /** The producer is already within the caller's scope; `extra`: a claim not yet recorded, folded as if it were (recordClaim's check). */
  async ofMonth(producer: Producer, year: number, month: number, asKnownOn: IsoDate, extra: ClaimFacts[] = []): Promise<MonthCreditsView> {
    checkCreditMonth(year, month, 'month');
    const [read] = await this.read([{ producer, asKnownOn, months: [{ year, month }], extra }]);
    return answer(read, [{ year, month }]).get(monthKey({ year, month }))!;
  }

  /** A request's folds (its loaders), each producer's as known on a day read once up to the latest month asked. */
  requestFolds(): CreditFolds {
    return new CreditFolds((asked) => this.read(asked));
  }

  /**
   * What the folds of the months asked read, every producer's facts for the whole range in a fixed
   * number of statements. A read takes a turn, as Selo years do (docs/SCALING.md), and reads in a
   * snapshot of its own whose every statement stops at its request's timeout; a close's or a claim's
   * (`within`) reads in the transaction it holds and takes none.
   */
  private read(asked: readonly FoldAsked[]): Promise<FoldRead[]> {
    if (this.reader !== this.ds) return this.readFacts(asked, async () => stopIfAnswered());
    return this.turns.run(async () => {
      const law = await this.lawBook();
      return this.ds.transaction('REPEATABLE READ', (em) => this.within(em, law).readFacts(asked, () => untilAnswered(em)));
    });
  }

  /** `step`: before each statement (untilAnswered in a snapshot of the read's own). */
  private async readFacts(asked: readonly FoldAsked[], step: () => Promise<void>): Promise<FoldRead[]> {
    const law = await this.lawBook();
    const ids = [...new Set(asked.map((a) => a.producer.id))];
    await step();
    const facts = await this.producerFacts(ids);
    const plans = asked.map((a) => foldPlan(a.months, facts.get(a.producer.id)!.first));
    const months = asked.flatMap((a, n) => [...plans[n].through, ...plans[n].alone].map((m) => ({ producer: a.producer, year: m.year, month: m.month, asKnownOn: a.asKnownOn })));
    const indexes = months.map(monthIndex);
    const from = months[indexes.indexOf(Math.min(...indexes))];
    const to = months[indexes.indexOf(Math.max(...indexes))];
    const range = [firstDayOfMonth(from.year, from.month), lastDayOfMonth(to.year, to.month)] as const;
    await step();
    const purchases = await this.purchaseRows(ids, ...range);
    await step();
    const sales = await this.salesByDay(ids, ...range);
    await step();
    // Interpretation (docs/LAW.md): a month whose debit cannot be computed deducts nothing; its credits are carried whole.
    const views = await this.taxPeriods.ofMonths(months);
    const viewOf = new Map(months.map((m, i) => [`${m.producer.id}|${m.asKnownOn}|${monthKey(m)}`, views[i]]));
    return asked.map((a, n) => {
      const of = (m: YearMonth) => `${a.producer.id}|${monthKey(m)}`;
      const f: FoldFacts = {
        ...facts.get(a.producer.id)!, law, asKnownOn: a.asKnownOn,
        // In the order filed (a stable sort: the recorded ones of a day keep their order, a new one comes after them).
        claims: [...facts.get(a.producer.id)!.claims, ...(a.extra ?? [])].sort((x, y) => (x.filedOn < y.filedOn ? -1 : x.filedOn > y.filedOn ? 1 : 0)),
        taxPeriod: (m) => viewOf.get(`${a.producer.id}|${a.asKnownOn}|${monthKey(m)}`)!,
        purchases: (m) => purchases.get(of(m)) ?? [],
        sales: (m) => sales.get(of(m)) ?? [],
      };
      return { asked: a.months, ...plans[n], facts: f };
    });
  }

  /**
   * A month folded, with the balances the fold carries into it (the month before's as they stand, not
   * what a closed month filed; none when the fold starts in the month): the two months in one read.
   */
  private async withCarriedIn(producer: Producer, year: number, month: number, asKnownOn: IsoDate): Promise<{ now: MonthCreditsView; carriedIn: Balance[] }> {
    checkCreditMonth(year, month, 'month');
    const asked = { year, month };
    const previous = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
    const months = monthIndex(previous) >= monthIndex(CREDITS_FROM) ? [previous, asked] : [asked];
    const [read] = await this.read([{ producer, asKnownOn, months }]);
    const folded = answer(read, months);
    const carriedIn = read.first && monthIndex(read.first) < monthIndex(asked) ? folded.get(monthKey(previous))!.live.balances : [];
    return { now: folded.get(monthKey(asked))!, carriedIn };
  }

  async efdCredits(producer: Producer, year: number, month: number, asKnownOn: IsoDate) {
    const { now, carriedIn } = await this.withCarriedIn(producer, year, month, asKnownOn);
    // A closed month's file is what it filed; else the balances the fold carries in (not what a closed month before filed).
    const before = now.filed?.before ?? carriedIn;
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
    const { now: v, carriedIn: before } = await this.within(em, law).withCarriedIn(producer, year, month, today());
    // The net and balances as filed (M200/M600, 1100/1500): a record or claim after the close, in an open month
    // before it, changes them only as differences (docs/LAW.md, "Closing a month").
    const filed: FiledBalances = { net: v.live.net, before, balances: v.live.balances, claims: v.claims };
    const kept = {
      lines: v.lines, parts: v.parts, reversals: v.reversals, purchases: v.purchases, cbs: v.cbs, presumed: v.presumed, awaiting: v.awaiting, awaitingElection: v.awaitingElection,
      method: v.method, filed,
    };
    await em.query('UPDATE tax_period SET credits_snapshot = $4 WHERE producer_id = $1 AND year = $2 AND month = $3', [producer.id, year, month, JSON.stringify(kept)]);
  }

  async balancesOn(actor: Actor, producerId: string, on: IsoDate, asKnownOn: IsoDate): Promise<Balance[]> {
    await requireVisibleProducer(this.ds, actor, producerId);
    const producer = await this.ds.getRepository(Producer).findOneByOrFail({ id: producerId });
    const { year, month } = checkCreditDay(requireDate(on, 'on'), 'on');
    return (await this.ofMonth(producer, year, month, asKnownOn)).balances;
  }

  /** Lei 11.116/2005, art. 16; Lei 10.637/2002, art. 5º § 2º; from 2027 LC 214/2025, art. 378 IV. */
  async recordClaim(actor: Actor, input: RecordCreditClaimInput): Promise<ClaimFacts> {
    const filedOn = requireDate(input.filedOn, 'input.filedOn');
    const amount = requirePositiveDecimal(input.amount, 'input.amount');
    if (!Object.values(Contribution).includes(input.tax)) throw new BadInputError('input.tax', `Unknown tax ${String(input.tax)}`);
    if (!Object.values(ClaimKind).includes(input.kind)) throw new BadInputError('input.kind', `Unknown claim kind ${String(input.kind)}`);
    if (!/^[123]0[1-9]$/.test(input.codCred ?? '')) throw new BadInputError('input.codCred', 'codCred is a COD_CRED of table 4.3.6 (three digits, e.g. 301)');
    checkMonth(input.originYear, input.originMonth, 'input.originYear', 'input.originMonth');
    checkCreditDay(filedOn, 'input.filedOn');
    // Read before the producer's claims are held: holding them, a claim takes no other connection of
    // the pool, which the claims waiting behind it may hold every one of.
    const law = await this.lawBook();
    return mutate(this.ds, actor, async (em) => {
      const producers = await requireWritableProducers<Producer>(em, actor, [{ field: 'input.producerId', id: input.producerId }]);
      if (!producers.has(input.producerId)) throw new NotFoundError('Producer', input.producerId);
      const producer = await em.getRepository(Producer).findOneByOrFail({ id: input.producerId });
      const { year, month } = toYm(filedOn);
      // A claim comes off the balances of the month it is filed in (Lei 10.637/2002, art. 3º § 4º): in a closed month it
      // would change what was filed for it (its 1100/1500), so it is refused as a purchase or sale there is.
      await assertPeriodsOpen(em, producer.id, [{ year, month, field: 'input.filedOn' }]);
      // Serialise claims of a producer: two at once could each see the same balance.
      await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`credit-claim:${producer.id}`]);
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

  /** What a fold reads once per producer, every producer's in one statement. */
  private async producerFacts(ids: readonly string[]): Promise<Map<string, ProducerFacts>> {
    const rows: Array<{
      id: string; first: IsoDate | null; elections: Array<{ year: number; method: ApportionmentMethod }>; incidences: Array<{ year: number; regime: IncidenceRegime }>;
      claims: Array<Omit<ClaimFacts, 'amount'> & { amount: string }>; closed: Array<{ year: number; month: number; credits: Record<string, unknown> }>;
    }> = await this.reader.query(
      `SELECT k.id::text AS id,
              to_char(least((SELECT min(purchased_on) FROM purchase WHERE producer_id = k.id), (SELECT min(sold_on) FROM sale WHERE producer_id = k.id)), 'YYYY-MM-DD') AS first,
              (SELECT coalesce(json_agg(json_build_object('id', c.id::text, 'tax', c.tax, 'originYear', c.origin_year, 'originMonth', c.origin_month, 'codCred', c.cod_cred,
                        'kind', c.kind, 'filedOn', to_char(c.filed_on, 'YYYY-MM-DD'), 'amount', c.amount::text) ORDER BY c.filed_on, c.id), '[]'::json)
                 FROM credit_claim c WHERE c.producer_id = k.id) AS claims,
              (SELECT coalesce(json_agg(json_build_object('year', year, 'method', method)), '[]'::json) FROM credit_apportionment_election WHERE producer_id = k.id) AS elections,
              (SELECT coalesce(json_agg(json_build_object('year', year, 'regime', regime)), '[]'::json) FROM incidence_election WHERE producer_id = k.id) AS incidences,
              -- A closed month keeps the credits it closed with.
              (SELECT coalesce(json_agg(json_build_object('year', year, 'month', month, 'credits', credits_snapshot)), '[]'::json)
                 FROM tax_period WHERE producer_id = k.id AND status = 'CLOSED' AND credits_snapshot IS NOT NULL) AS closed
         FROM unnest($1::bigint[]) AS k(id)`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, {
      first: r.first,
      claims: r.claims.map((c) => ({ ...c, amount: new Decimal(c.amount) })),
      elections: new Map(r.elections.map((e) => [e.year, e.method])),
      incidences: new Map(r.incidences.map((e) => [e.year, e.regime])),
      closed: new Map(r.closed.map((c) => [monthKey(c), revive(c.credits) as KeptCredits])),
    }]));
  }

  /**
   * The purchases whose credit falls in the range (`from`–`to`, whole months) and the returns of
   * purchases in it, by producer and month (`producer|year-month`), each month's in the order of its days,
   * a day's by purchase id as a number (as every list of the API: 937 before 1008).
   */
  private async purchaseRows(ids: readonly string[], from: IsoDate, to: IsoDate): Promise<Map<string, PurchaseRow[]>> {
    // Interpretation (docs/LAW.md): the credit is the month's of acquisition (Lei 10.637/2002, art. 3º § 1º I), not of use.
    const rows: Array<PurchaseRow & { producer_id: string }> = await this.reader.query(
      `SELECT * FROM (
       SELECT o.producer_id::text AS producer_id, o.id::text AS id, to_char(o.purchased_on, 'YYYY-MM-DD') AS credit_on, to_char(o.purchased_on, 'YYYY-MM-DD') AS purchased_on, o.feedstock,
              o.supplier_kind, o.cost::text AS cost, o.pis_cofins_cst, o.cofins_cst, o.credit_supplier,
              o.credit_product, o.icms_value::text AS icms_value, o.import_pis_paid::text AS import_pis_paid, o.import_cofins_paid::text AS import_cofins_paid,
              o.cbs_value::text AS cbs_value, o.credit_revenue_group
         FROM purchase o WHERE o.producer_id = ANY($1::bigint[]) AND o.purchased_on BETWEEN $2::date AND $3::date AND o.supplier_kind <> 'OWN_PRODUCTION' AND ${activeSql('o')}
       UNION ALL
       -- An active return of an active purchase reverses its share of the credit on its day, under the rules of the
       -- purchase's own day (docs/LAW.md, "Returns"): a 2026 lot returned in 2027 reverses its PIS/Cofins credit, no CBS.
       SELECT r.producer_id::text, o.id::text, to_char(r.returned_on, 'YYYY-MM-DD'), to_char(o.purchased_on, 'YYYY-MM-DD'), o.feedstock, o.supplier_kind, (-r.value)::text, o.pis_cofins_cst, o.cofins_cst,
              o.credit_supplier, o.credit_product,
              (-o.icms_value * r.value / o.cost)::text, (-o.import_pis_paid * r.value / o.cost)::text, (-o.import_cofins_paid * r.value / o.cost)::text,
              (-o.cbs_value * r.value / o.cost)::text, o.credit_revenue_group
         FROM record_return r JOIN purchase o ON o.id = r.purchase_id AND ${activeSql('o')} AND o.cost > 0 AND o.supplier_kind <> 'OWN_PRODUCTION'
        WHERE r.producer_id = ANY($1::bigint[]) AND r.returned_on BETWEEN $2::date AND $3::date AND ${activeSql('r')}
       ) u
       -- The ids are text for the rows: ordered as numbers (a UNION's ORDER BY takes no expression, hence the sub-select).
       ORDER BY u.producer_id, u.credit_on, u.id::bigint`,
      [ids, from, to],
    );
    return groupBy(rows, (r) => `${r.producer_id}|${monthKey(toYm(r.credit_on))}`);
  }

  /** Interpretation (docs/LAW.md): the art. 31 base is every biodiesel sale's revenue. By producer and month (`producer|year-month`), summed by day and market in SQL. */
  private async salesByDay(ids: readonly string[], from: IsoDate, to: IsoDate): Promise<Map<string, SaleDay[]>> {
    const rows: Array<{ producer_id: string; on: string; market: Market; revenue: string }> = await this.reader.query(
      `SELECT s.producer_id::text AS producer_id, to_char(s.sold_on, 'YYYY-MM-DD') AS on, s.market, sum(s.revenue)::text AS revenue
         FROM (SELECT producer_id, sold_on, market, revenue FROM sale WHERE producer_id = ANY($1::bigint[]) AND sold_on BETWEEN $2::date AND $3::date AND ${activeSql()}
               UNION ALL
               -- Each active return of an active sale, negative, on its day (docs/LAW.md, "Returns").
               SELECT r.producer_id, r.returned_on, o.market, -r.value FROM record_return r JOIN sale o ON o.id = r.sale_id AND ${activeSql('o')}
                WHERE r.producer_id = ANY($1::bigint[]) AND r.returned_on BETWEEN $2::date AND $3::date AND ${activeSql('r')}) s
        GROUP BY s.producer_id, s.sold_on, s.market ORDER BY 1, 2, 3`,
      [ids, from, to],
    );
    const days = rows.map((r) => ({ key: `${r.producer_id}|${monthKey(toYm(r.on))}`, day: { on: r.on, market: r.market, revenue: new Decimal(r.revenue) } }));
    return new Map([...groupBy(days, (d) => d.key)].map(([k, list]) => [k, list.map((d) => d.day)]));
  }

  private async incidences(producerId: string): Promise<Map<number, IncidenceRegime>> {
    const rows: Array<{ year: number; regime: IncidenceRegime }> = await this.reader.query('SELECT year, regime FROM incidence_election WHERE producer_id = $1', [producerId]);
    return new Map(rows.map((r) => [r.year, r.regime]));
  }
}

const DECIMAL_KEYS = new Set([
  'base', 'pisRate', 'cofinsRate', 'pis', 'cofins', 'revenue', 'share', 'rate', 'amount',
  // A Balance's and a MonthNet's (`filed`).
  'original', 'deducted', 'claimed', 'offsetAgainstCbs', 'reversed', 'remaining', 'pisDebit', 'cofinsDebit', 'pisCreditsOfMonthDeducted', 'cofinsCreditsOfMonthDeducted',
  'pisEarlierDeducted', 'cofinsEarlierDeducted', 'pisDue', 'cofinsDue', 'cbsDue', 'cbsCredits', 'cbsCreditsDeducted', 'cbsCreditBalance', 'cbsOffset', 'cbsNetDue',
  'pisRefundable', 'cofinsRefundable',
]);
function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, DECIMAL_KEYS.has(k) && typeof v === 'string' ? new Decimal(v) : revive(v)]));
}

/** Whether a read answers the month without reading again. */
function covers(read: FoldRead, m: YearMonth): boolean {
  return [...read.through, ...read.alone].some((x) => monthKey(x) === monthKey(m));
}

/** The months (each covered by the read) as their folds answer them: one fold from the first month to the latest of them, one for each month alone. */
function answer(read: FoldRead, months: readonly YearMonth[]): Map<string, MonthCreditsView> {
  const kept = new Set(months.map(monthKey));
  const last = read.through.reduce((l, m, i) => (kept.has(monthKey(m)) ? i : l), -1);
  const views = new Map(last >= 0 ? foldMonths(read.through.slice(0, last + 1), kept, read.facts) : []);
  for (const m of read.alone) if (kept.has(monthKey(m))) for (const [k, v] of foldMonths([m], kept, read.facts)) views.set(k, v);
  return views;
}

/**
 * One request's folds (its loader): each producer's facts as known on a day read once, up to the
 * latest month of it asked, and every month they cover folded from them; a month beyond them (asked
 * later, by a nested field) reads again once, with the months read before, for all asked with it.
 */
export class CreditFolds {
  private readonly reads = new Map<string, Promise<FoldRead>>();

  constructor(private readonly read: (asked: readonly FoldAsked[]) => Promise<FoldRead[]>) {}

  /** Producers already within the caller's scope. A month that cannot be folded is its own error. */
  async ofPage(asked: readonly CreditMonthAsked[]): Promise<Array<MonthCreditsView | Error>> {
    const answers: Array<MonthCreditsView | Error> = new Array(asked.length);
    const groups = new Map<string, { producer: Producer; asKnownOn: IsoDate; months: YearMonth[]; indexes: number[] }>();
    asked.forEach((a, i) => {
      try {
        checkCreditMonth(a.year, a.month, 'month');
      } catch (error) {
        answers[i] = error as Error;
        return;
      }
      const key = `${a.producer.id}|${a.asKnownOn}`;
      const group = groups.get(key) ?? { producer: a.producer, asKnownOn: a.asKnownOn, months: [], indexes: [] };
      groups.set(key, group);
      group.months.push({ year: a.year, month: a.month });
      group.indexes.push(i);
    });
    const folds = [...groups].map(([key, g]) => ({ key, ...g, read: this.reads.get(key) }));
    // A read that failed is read again; one that does not cover the months asked is read again with them.
    const before = await Promise.all(folds.map((f) => f.read?.catch(() => undefined)));
    const stale = folds.filter((f, n) => !before[n] || !f.months.every((m) => covers(before[n]!, m)));
    if (stale.length > 0) {
      const reading = this.read(stale.map((f) => {
        const months = new Map([...(before[folds.indexOf(f)]?.asked ?? []), ...f.months].map((m) => [monthKey(m), m]));
        return { producer: f.producer, asKnownOn: f.asKnownOn, months: [...months.values()] };
      }));
      stale.forEach((f, n) => {
        f.read = reading.then((reads) => reads[n]);
        this.reads.set(f.key, f.read);
      });
    }
    await Promise.all(folds.map(async (f) => {
      const views = answer(await f.read!, f.months);
      f.indexes.forEach((i, k) => { answers[i] = views.get(monthKey(f.months[k]))!; });
    }));
    return answers;
  }
}

/** Each purchase's PIS/Cofins credit, and from 2027 its CBS credit, from the rows of its month. */
function purchaseCredits(rows: readonly PurchaseRow[], law: LawBook, asKnownOn: IsoDate): { purchases: PurchaseCredit[]; cbs: CbsCredit[] } {
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

/**
 * The fold over `months` (consecutive, from its first), each month of `kept` as the fold ending with
 * it answers it: the month's credits, its net, the balances after it, the warnings and claims up to it.
 */
function foldMonths(months: readonly YearMonth[], kept: ReadonlySet<string>, f: FoldFacts): Map<string, MonthCreditsView> {
  const inputs: NetMonthInput[] = [];
  const warnings: string[] = [];
  const ends: Array<{
    credits: MonthCredits; purchases: PurchaseCredit[]; cbs: CbsCredit[]; method: ApportionmentMethod | null; incidence: IncidenceRegime | null; warnings: number; filed: FiledBalances | null;
  }> = [];
  // Each month's credit parts, where a later return of its purchases finds the balance to reverse.
  const partsOf = new Map<string, CreditPart[]>();
  for (const m of months) {
    const view = f.taxPeriod(m);
    const { purchases, cbs: cbsOfMonth } = purchaseCredits(f.purchases(m), f.law, f.asKnownOn);
    // Interpretation (docs/LAW.md): a month whose debit cannot be computed deducts nothing; its credits are carried whole.
    if (view instanceof Error) warnings.push(`${m.year}-${String(m.month).padStart(2, '0')}: ${view.message}`);
    const kept = f.closed.get(monthKey(m));
    const method = kept ? kept.method : f.elections.get(m.year) ?? null;
    // A closed month keeps the credits it closed with; an open one is computed as known on asKnownOn.
    // The cumulative regime has no credits and deducts none (Lei 10.637/2002 art. 8º; Lei 10.833/2003 art. 10; docs/LAW.md).
    const cumulative = f.incidences.get(m.year) === IncidenceRegime.CUMULATIVE;
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
      ...monthCredits({ purchases: own, revenue: cumulative || view instanceof Error ? [] : revenueParts(view, f.sales(m)), method, law: f.law, asKnownOn: f.asKnownOn }),
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
      claims: f.claims.filter((c) => toYm(c.filedOn).year === m.year && toYm(c.filedOn).month === m.month), deducts: !cumulative,
    });
    ends.push({
      credits, purchases: kept ? kept.purchases : cumulative ? [] : purchases, cbs: cbsCredits, method, incidence: f.incidences.get(m.year) ?? null, warnings: warnings.length,
      filed: kept?.filed ?? null,
    });
  }
  // The balances change with every later month: those of a month kept are copied as it ends.
  const states = new Map<number, FoldState>();
  const { nets, claims, issues } = foldNet(inputs, (i, state) => {
    if (kept.has(monthKey(months[i]))) states.set(i, { ...state, balances: state.balances.map((b) => ({ ...b })) });
  });
  const views = new Map<string, MonthCreditsView>();
  for (const [i, state] of states) {
    const { credits, cbs, method, incidence, purchases, filed } = ends[i];
    const upTo = issues.slice(0, state.issues);
    const live = { net: nets[i], balances: [...state.balances] };
    views.set(monthKey(months[i]), {
      year: months[i].year, month: months[i].month, ...credits, awaiting: [...new Set([...credits.awaiting, ...monthCbsCredits(cbs).awaiting])], method, incidence, purchases, cbs,
      reversals: credits.reversals ?? [],
      // A closed month shows the net and balances it filed, the fold's drift from them named (docs/LAW.md, "Closing a month").
      net: filed?.net ?? live.net, balances: filed?.balances ?? live.balances, live, filed,
      differences: filed ? balanceDifferences(filed, live.net, live.balances) : [],
      // A claim the balances no longer support (a record written after it) is said on its month and after, never an error.
      warnings: [...warnings.slice(0, ends[i].warnings), ...upTo.map(claimWarning)], claims: filed?.claims ?? claims.slice(0, state.claims), claimIssues: upTo,
    });
  }
  return views;
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
