import { Between, DataSource, EntityManager, In } from 'typeorm';
import { Producer, TaxPeriod } from '../domain';
import { TaxPeriodEvent } from '../domain/tax-period.entity';
import { IsoDate, today } from '../law/dates';
import { NoRuleInForceError } from '../law/errors';
import { LawBook } from '../law/law-book';
import { regimeForMonth } from '../law/regime';
import { completeSnapshot, explainSnapshot, FigureDifference, figureDifferences, figuresFromJson, TaxPeriodFigures } from '../law/tax-period';
import { TaxPeriodStatus } from '../law/types';
import { Actor } from './actor';
import { BadInputError, ConflictError, NotFoundError } from './errors';
import { translate } from '../i18n';
import { lockPeriodExclusively } from './period-lock';
import { Computation, computeMonths, computeProducerMonths, MonthOutcome, ProducerMonth } from './tax-period-month';
import { isId } from './record-batch';
import { assertCanWriteFor, assertVisible, canSee } from './scope';
import { checkMonth } from './validation';
import { mutate, readsOn } from './transaction';

export type TaxPeriodView = TaxPeriodFigures & {
  producer: Producer;
  status: TaxPeriodStatus;
  fingerprint: string;
  closedAt: Date | null;
  closedBy: string | null;
  reopenReason: string | null;
  history: TaxPeriodEvent[];
  recomputedDiffers: boolean;
  differences: FigureDifference[];
  recomputedAsKnownOn: IsoDate | null;
};

interface ComputedMonths { law: LawBook | null; rows: TaxPeriod[]; outcomes: MonthOutcome[] }
const monthKey = (producerId: string, year: number, month: number) => `${producerId}|${year}|${month}`;

/** The producer is already within the caller's scope. */
export interface MonthAsked {
  producer: Producer;
  year: number;
  month: number;
  asKnownOn: IsoDate;
}

/** A closed month keeps a snapshot and refuses new records (period-lock.ts). */
export class TaxPeriodService {
  onClose: ((em: EntityManager, producer: Producer, year: number, month: number, law: LawBook) => Promise<void>) | null = null;

  /** Where months are read: the pool, or a transaction's connection (`within`). */
  private reader: DataSource | EntityManager;

  constructor(private readonly ds: DataSource, private lawBook: () => Promise<LawBook>) {
    this.reader = ds;
  }

  /** This service reading months through `em` alone, with the law book `law` (a close's credits, CreditService.within). */
  within(em: EntityManager, law: LawBook): TaxPeriodService {
    const bound = Object.create(this) as TaxPeriodService;
    bound.reader = em;
    bound.lawBook = async () => law;
    return bound;
  }

  async forProducer(actor: Actor, producerId: string, year: number, month: number, asKnownOn: IsoDate): Promise<TaxPeriodView> {
    // An id the caller may see, written as the database writes it, is computed while the producer
    // is looked up: the month reads by id alone. Its error waits for the lookup's, which comes first.
    const early = isId(producerId) && canSee(actor, producerId) ? this.monthsOf([producerId], year, month, asKnownOn) : null;
    early?.catch(() => undefined);
    const producer = await this.producer(producerId);
    assertVisible(actor, 'Producer', producerId, producer.id);
    return this.ofProducer(producer, year, month, asKnownOn, early ?? undefined);
  }

  /** `computed`: its month, when already under way. */
  async ofProducer(producer: Producer, year: number, month: number, asKnownOn: IsoDate, computed = this.monthsOf([producer.id], year, month, asKnownOn)): Promise<TaxPeriodView> {
    const [shown] = this.shown([{ producer, year, month }], await computed, asKnownOn);
    if (shown instanceof Error) throw shown;
    return shown;
  }

  /**
   * Any producers' months, those known on the same day in the statements of one month (a page's
   * months). A bad date fails its own months; a month the law refuses, itself; a failed statement,
   * the months known on its day.
   */
  ofPage(asked: readonly MonthAsked[]): Promise<Array<TaxPeriodView | Error>> {
    return this.ofMonths(asked, true);
  }

  /**
   * The same, a failed statement failing all (`caught` false: a credit fold's months, where a month
   * the law refuses is said as a warning and a failed read is no figure).
   */
  async ofMonths(asked: readonly MonthAsked[], caught = false): Promise<Array<TaxPeriodView | Error>> {
    const shown: Array<TaxPeriodView | Error> = new Array(asked.length);
    const groups = new Map<IsoDate, number[]>();
    asked.forEach((a, i) => {
      try {
        checkMonth(a.year, a.month);
      } catch (error) {
        shown[i] = error as Error;
        return;
      }
      const indexes = groups.get(a.asKnownOn);
      if (indexes) indexes.push(i);
      else groups.set(a.asKnownOn, [i]);
    });
    await Promise.all([...groups.entries()].map(async ([asKnownOn, indexes]) => {
      try {
        const months = indexes.map((i) => asked[i]);
        const views = this.shown(months, await this.computed(months.map((m) => ({ producerId: m.producer.id, year: m.year, month: m.month })), asKnownOn), asKnownOn);
        indexes.forEach((i, n) => { shown[i] = views[n]; });
      } catch (error) {
        if (!caught) throw error;
        indexes.forEach((i) => { shown[i] = error as Error; });
      }
    }));
    return shown;
  }

  /** The months of `ids` and their stored rows; the law book is read beside them (computeMonths). A bad date rejects. */
  private async monthsOf(ids: readonly string[], year: number, month: number, asKnownOn: IsoDate): Promise<ComputedMonths> {
    checkMonth(year, month);
    return this.computed(ids.map((producerId) => ({ producerId, year, month })), asKnownOn);
  }

  /** Months already checked, and their stored rows (those of the years they span, kept by month). */
  private async computed(months: readonly ProducerMonth[], asKnownOn: IsoDate): Promise<ComputedMonths> {
    if (months.length === 0) return { law: null, rows: [], outcomes: [] };
    const law = this.lawBook();
    const years = months.map((m) => m.year);
    const asked = new Set(months.map((m) => monthKey(m.producerId, m.year, m.month)));
    const [rows, outcomes] = await readsOn(this.reader,
      () => this.reader.getRepository(TaxPeriod).findBy({ producerId: In([...new Set(months.map((m) => m.producerId))]), year: Between(Math.min(...years), Math.max(...years)) }),
      () => computeProducerMonths(this.reader, law, months, asKnownOn),
    );
    return { law: await law, rows: rows.filter((r) => asked.has(monthKey(r.producerId, r.year, r.month))), outcomes };
  }

  private shown(months: ReadonlyArray<{ producer: Producer; year: number; month: number }>, { law, rows, outcomes }: ComputedMonths, asKnownOn: IsoDate): Array<TaxPeriodView | Error> {
    const stored = new Map(rows.map((r) => [monthKey(r.producerId, r.year, r.month), r]));
    return months.map(({ producer, year, month }, i) => {
      try {
        return shownMonth(law!, producer, stored.get(monthKey(producer.id, year, month)) ?? null, outcomes[i], asKnownOn);
      } catch (error) {
        return error as Error;
      }
    });
  }

  /** Under the exclusive lock every purchase and sale write takes shared (period-lock.ts). */
  async close(actor: Actor, producerId: string, year: number, month: number): Promise<TaxPeriodView> {
    assertCanWriteFor(actor, 'Producer', producerId);
    checkMonth(year, month);
    const producer = await this.producer(producerId);
    // Read before the month is held: holding it, the close takes no other connection of the pool,
    // which the records waiting for the month may hold every one of.
    const law = await this.lawBook();
    return mutate(this.ds, actor, async (em) => {
      await lockPeriodExclusively(em, producer.id, year, month);
      const repo = em.getRepository(TaxPeriod);
      const before = await repo.findOneBy({ producerId: producer.id, year, month });
      if (before?.status === TaxPeriodStatus.CLOSED) {
        throw new ConflictError('PERIOD_CLOSED', `The tax period ${year}-${pad(month)} of producer ${producer.id} is already closed`, 'month');
      }
      const [{ result: computed }] = await computeMonths(em, law, [producer.id], year, month, today());
      if (computed instanceof Error) throw computed;
      const now = new Date();
      const history: TaxPeriodEvent[] = [...(before?.history ?? []), { action: 'CLOSED', at: now.toISOString(), by: actor.sub, fingerprint: computed.fingerprint }];
      const row = Object.assign(before ?? repo.create({ producerId: producer.id, year, month }), {
        status: TaxPeriodStatus.CLOSED,
        snapshot: JSON.parse(JSON.stringify(computed.figures)) as Record<string, unknown>,
        fingerprint: computed.fingerprint,
        closedAt: now,
        closedBy: actor.sub,
        history,
      });
      const saved = await repo.save(row);
      await this.onClose?.(em, producer, year, month, law);
      return {
        result: view(producer, computed, saved, null),
        audit: [{
          operation: 'closeTaxPeriod', entity: 'TaxPeriod', entityId: saved.id, producerId: producer.id,
          before: before ? { status: before.status, fingerprint: before.fingerprint } : null,
          after: { year, month, status: saved.status, fingerprint: saved.fingerprint, pisDue: computed.figures.pisDue, cofinsDue: computed.figures.cofinsDue },
        }],
      };
    });
  }

  async reopen(actor: Actor, producerId: string, year: number, month: number, reasonInput: string): Promise<TaxPeriodView> {
    assertCanWriteFor(actor, 'Producer', producerId);
    const reason = checkReopening(year, month, reasonInput);
    const producer = await this.producer(producerId);
    await mutate(this.ds, actor, async (em) => {
      await lockPeriodExclusively(em, producer.id, year, month);
      const repo = em.getRepository(TaxPeriod);
      const before = await repo.findOneBy({ producerId: producer.id, year, month });
      if (before?.status !== TaxPeriodStatus.CLOSED) throw new BadInputError('month', `The tax period ${year}-${pad(month)} is not closed`);
      const now = new Date();
      before.status = TaxPeriodStatus.OPEN;
      before.reopenedAt = now;
      before.reopenedBy = actor.sub;
      before.reopenReason = reason;
      before.history = [...before.history, { action: 'REOPENED', at: now.toISOString(), by: actor.sub, reason }];
      const saved = await repo.save(before);
      return {
        result: saved,
        audit: [{
          operation: 'reopenTaxPeriod', entity: 'TaxPeriod', entityId: saved.id, producerId: producer.id,
          before: { status: TaxPeriodStatus.CLOSED, fingerprint: saved.fingerprint }, after: { year, month, status: saved.status, reason },
        }],
      };
    });
    return this.ofProducer(producer, year, month, today());
  }

  private async producer(producerId: string): Promise<Producer> {
    const producer = isId(producerId) ? await this.ds.getRepository(Producer).findOneBy({ id: producerId }) : null;
    if (!producer) throw new NotFoundError('Producer', producerId);
    return producer;
  }

}

/** reopenTaxPeriod's month and reason (not blank), the reason trimmed. */
export function checkReopening(year: number, month: number, reasonInput: unknown): string {
  checkMonth(year, month);
  const reason = typeof reasonInput === 'string' ? reasonInput.trim() : '';
  if (!reason) throw new BadInputError('reason', 'Reopening a closed tax period needs a reason');
  return reason;
}

function pad(month: number): string {
  return String(month).padStart(2, '0');
}

/** Old snapshots are explained from the law as known on their close day (explainSnapshot). */
function shownMonth(law: LawBook, producer: Producer, row: TaxPeriod | null, outcome: MonthOutcome, asKnownOn: IsoDate): TaxPeriodView {
  const live = outcome.result;
  if (row?.status !== TaxPeriodStatus.CLOSED) {
    if (live instanceof Error) throw live;
    return view(producer, live, row, null);
  }
  let figures = figuresFromJson(row.snapshot);
  if (figures.regimeBasis === undefined || figures.segments.some((s) => s.legalBasis === undefined)) {
    figures = explainSnapshot(law, figures, regimeForMonth(outcome.elections, figures.year, figures.month));
  }
  const snapshot = { figures: completeSnapshot(figures), fingerprint: row.fingerprint! };
  if (!(live instanceof Error)) return view(producer, snapshot, row, { live, asKnownOn });
  // The snapshot stands even where no rule is in force as known on asKnownOn: say so.
  if (!(live instanceof NoRuleInForceError)) throw live;
  return { ...view(producer, snapshot, row, null), recomputedDiffers: true, recomputedAsKnownOn: asKnownOn,
    differences: [{ field: 'computation', closed: null, recomputed: translate(live.text) }] };
}

function view(
  producer: Producer,
  shown: Computation,
  row: TaxPeriod | null,
  comparison: { live: Computation; asKnownOn: IsoDate } | null,
): TaxPeriodView {
  const closed = row?.status === TaxPeriodStatus.CLOSED;
  let differences: FigureDifference[] = [];
  if (closed && comparison) {
    differences = figureDifferences(shown.figures, comparison.live.figures);
    if (differences.length === 0 && comparison.live.fingerprint !== shown.fingerprint) {
      differences = [{ field: 'inputs', closed: shown.fingerprint, recomputed: comparison.live.fingerprint }];
    }
  }
  return {
    ...shown.figures,
    producer,
    status: closed ? TaxPeriodStatus.CLOSED : TaxPeriodStatus.OPEN,
    fingerprint: shown.fingerprint,
    closedAt: closed ? row!.closedAt : null,
    closedBy: closed ? row!.closedBy : null,
    reopenReason: row?.reopenReason ?? null,
    history: row?.history ?? [],
    recomputedDiffers: differences.length > 0,
    differences,
    recomputedAsKnownOn: closed && comparison ? comparison.asKnownOn : null,
  };
}
