import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Producer, TaxPeriod } from '../domain';
import { TaxPeriodEvent } from '../domain/tax-period.entity';
import { firstDayOfMonth, IsoDate, lastDayOfMonth, today } from '../law/dates';
import { Decimal } from '../law/decimal';
import { NoRuleInForceError } from '../law/errors';
import { LawBook } from '../law/law-book';
import { regimeForMonth, ElectionFacts } from '../law/regime';
import { GrantFacts } from '../law/seal-standing';
import {
  completeSnapshot, computeTaxPeriod, explainSnapshot, FigureDifference, figureDifferences, figuresFromJson, needsEarlierFeedstock, SaleGroup,
  TaxPeriodFigures, taxSegments,
} from '../law/tax-period';
import { BiodieselOrigin, Market, TaxPeriodStatus } from '../law/types';
import { Actor } from './actor';
import { importsOfMonth } from './biodiesel-import.service';
import { BadInputError, ConflictError, NotFoundError } from './errors';
import { lockPeriodExclusively } from './period-lock';
import { minimumShareTimeline, runIndexSql } from './facts/parameter-timeline';
import { feedstockOfMonth, latestEarlierFeedstock, ShareTimeline } from './tax-period-feedstock';
import { isId, requireDate } from './record-batch';
import { assertCanWriteFor, assertVisible } from './scope';
import { checkMonth } from './validation';
import { mutate } from './transaction';

/** A month as the API shows it: the figures (live or the closed snapshot) and the closing facts. */
export type TaxPeriodView = TaxPeriodFigures & {
  producer: Producer;
  status: TaxPeriodStatus;
  /** sha256 of the inputs of the figures shown (aggregates, segments, regime, law versions used). */
  fingerprint: string;
  closedAt: Date | null;
  closedBy: string | null;
  reopenReason: string | null;
  history: TaxPeriodEvent[];
  /** For a CLOSED month: recomputing now (as known on asKnownOn, default today) would differ. */
  recomputedDiffers: boolean;
  differences: FigureDifference[];
  /** The recomputation a closed month was compared with (asKnownOn used). */
  recomputedAsKnownOn: IsoDate | null;
};

type Queryable = DataSource | EntityManager;

interface Computation {
  figures: TaxPeriodFigures;
  fingerprint: string;
}

interface ContextRow {
  elections: Array<{ regime: string; electedOn: string; effectiveYear: number; startingActivity: boolean }>;
  grants: GrantFacts[];
}

interface SaleRow { segment: number; origin: BiodieselOrigin; market: Market; volume: string; revenue: string }


/**
 * The monthly PIS/Pasep and Cofins of a producer (Lei 11.116/2005, arts. 3º–5º; Decreto
 * 10.527/2020, arts. 5º–6º; DESIGN §1.1–§1.3). The month's sums are SQL aggregates grouped by the
 * facts the law needs (src/law/tax-period.ts decides); a closed month keeps a snapshot of every
 * figure and the fingerprint of its inputs, and refuses new records (period-lock.ts).
 */
export class TaxPeriodService {
  constructor(private readonly ds: DataSource, private readonly lawBook: () => Promise<LawBook>) {}

  /** taxPeriod(producerId, year, month, asKnownOn): ADMIN and AUDITOR any producer, a PRODUCER its own. */
  async forProducer(actor: Actor, producerId: string, year: number, month: number, asKnownOn?: string | null): Promise<TaxPeriodView> {
    const producer = await this.producer(producerId);
    assertVisible(actor, 'Producer', producerId, producer.id);
    return this.ofProducer(producer, year, month, asKnownOn);
  }

  /** Producer.taxPeriod: the producer is already within the caller's scope. */
  async ofProducer(producer: Producer, year: number, month: number, asKnownOnInput?: string | null): Promise<TaxPeriodView> {
    checkMonth(year, month);
    const asKnownOn = asKnownOnInput == null ? today() : requireDate(asKnownOnInput, 'asKnownOn');
    const row = await this.ds.getRepository(TaxPeriod).findOneBy({ producerId: producer.id, year, month });
    if (row?.status !== TaxPeriodStatus.CLOSED) return view(producer, await this.compute(this.ds, producer.id, year, month, asKnownOn), row, null);
    const snapshot = { figures: completeSnapshot(await this.explained(producer.id, figuresFromJson(row.snapshot))), fingerprint: row.fingerprint! };
    try {
      return view(producer, snapshot, row, { live: await this.compute(this.ds, producer.id, year, month, asKnownOn), asKnownOn });
    } catch (error) {
      // The snapshot stands even where no rule is in force as known on asKnownOn: say so.
      if (!(error instanceof NoRuleInForceError)) throw error;
      return { ...view(producer, snapshot, row, null), recomputedDiffers: true, recomputedAsKnownOn: asKnownOn,
        differences: [{ field: 'computation', closed: null, recomputed: error.message }] };
    }
  }

  /**
   * closeTaxPeriod: under the month's exclusive lock (the one every purchase and sale write takes
   * shared, period-lock.ts), compute the month as known today, store the snapshot and the
   * fingerprint, mark it CLOSED. A closed month → CONFLICT PERIOD_CLOSED.
   */
  async close(actor: Actor, producerId: string, year: number, month: number): Promise<TaxPeriodView> {
    assertCanWriteFor(actor, 'Producer', producerId);
    checkMonth(year, month);
    const producer = await this.producer(producerId);
    return mutate(this.ds, actor, async (em) => {
      await lockPeriodExclusively(em, producer.id, year, month);
      const repo = em.getRepository(TaxPeriod);
      const before = await repo.findOneBy({ producerId: producer.id, year, month });
      if (before?.status === TaxPeriodStatus.CLOSED) {
        throw new ConflictError('PERIOD_CLOSED', `The tax period ${year}-${pad(month)} of producer ${producer.id} is already closed`, 'month');
      }
      const computed = await this.compute(em, producer.id, year, month, today());
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

  /** reopenTaxPeriod: a non-empty reason (BAD_USER_INPUT otherwise); audited; the month is OPEN again and computed live. */
  async reopen(actor: Actor, producerId: string, year: number, month: number, reasonInput: string): Promise<TaxPeriodView> {
    assertCanWriteFor(actor, 'Producer', producerId);
    checkMonth(year, month);
    const reason = typeof reasonInput === 'string' ? reasonInput.trim() : '';
    if (!reason) throw new BadInputError('reason', 'Reopening a closed tax period needs a reason');
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
    return this.ofProducer(producer, year, month, null);
  }

  /**
   * A snapshot taken before segments kept their rates and legal bases and the month its regime
   * basis: explained at read time from the law as known on its close day (explainSnapshot); one
   * statement (the elections), only for such a snapshot.
   */
  private async explained(producerId: string, figures: TaxPeriodFigures): Promise<TaxPeriodFigures> {
    if (figures.regimeBasis !== undefined && figures.segments.every((s) => s.legalBasis !== undefined)) return figures;
    const elections: ElectionFacts[] = (await this.ds.query(
      `SELECT regime, to_char(elected_on, 'YYYY-MM-DD') AS "electedOn", effective_year AS "effectiveYear", starting_activity AS "startingActivity"
         FROM regime_election WHERE producer_id = $1 ORDER BY id`,
      [producerId],
    )).map((e: ElectionFacts) => ({ ...e, effectiveYear: Number(e.effectiveYear) }));
    return explainSnapshot(await this.lawBook(), figures, regimeForMonth(elections, figures.year, figures.month));
  }

  private async producer(producerId: string): Promise<Producer> {
    const producer = isId(producerId) ? await this.ds.getRepository(Producer).findOneBy({ id: producerId }) : null;
    if (!producer) throw new NotFoundError('Producer', producerId);
    return producer;
  }

  /**
   * The month's figures from five statements: the producer's elections and Selo grants, the raw
   * material used and acquired in the month (one aggregate), the sales by segment (one aggregate),
   * the imports cleared in the month; and, for a special-regime month that used no raw material,
   * two more for the latest earlier month that did (DESIGN §1.3).
   */
  async compute(q: Queryable, producerId: string, year: number, month: number, asKnownOn: IsoDate): Promise<Computation> {
    const law = await this.lawBook();
    const first = firstDayOfMonth(year, month);
    const last = lastDayOfMonth(year, month);
    const [context]: ContextRow[] = await q.query(
      `SELECT
         (SELECT coalesce(json_agg(json_build_object('regime', regime, 'electedOn', elected_on, 'effectiveYear', effective_year, 'startingActivity', starting_activity) ORDER BY id), '[]'::json)
            FROM regime_election WHERE producer_id = $1) AS elections,
         (SELECT coalesce(json_agg(json_build_object('id', g.id::text, 'grantedOn', g.granted_on, 'validUntil', g.valid_until, 'events',
                   (SELECT coalesce(json_agg(json_build_object('kind', e.kind, 'effectiveOn', e.effective_on, 'validUntil', e.valid_until, 'reason', e.reason) ORDER BY e.id), '[]'::json)
                      FROM seal_event e WHERE e.grant_id = g.id)) ORDER BY g.id), '[]'::json)
            FROM seal_grant g WHERE g.producer_id = $1) AS grants`,
      [producerId],
    );
    const elections = context.elections as unknown as ElectionFacts[];
    const regime = regimeForMonth(elections, year, month);
    const segments = taxSegments(law, context.grants, year, month, asKnownOn);
    // The cooperative minimum share (art. 4º VI) of each purchase date; a day with none is refused.
    const share: ShareTimeline = {
      timeline: minimumShareTimeline(law, asKnownOn),
      missing: (on) => {
        law.cooperativeMinFamilyFarmerShare(on, asKnownOn);
        throw new Error(`a minimum family-farmer share is in force on ${on}, yet the timeline has none`);
      },
    };

    const { feedstock, thirdParty } = await feedstockOfMonth(q, producerId, first, last, share);
    const saleRows: SaleRow[] = await q.query(
      `SELECT ${runIndexSql('sold_on', '$4::date[]')} AS segment, origin, market, sum(volume_m3) AS volume, sum(revenue) AS revenue
         FROM sale WHERE producer_id = $1 AND sold_on BETWEEN $2::date AND $3::date
        GROUP BY 1, 2, 3`,
      [producerId, first, last, segments.map((s) => s.from)],
    );

    const sales: SaleGroup[] = saleRows.map((r) => ({
      segment: Number(r.segment) - 1, origin: r.origin, market: r.market, volumeM3: new Decimal(r.volume), revenue: new Decimal(r.revenue),
    }));
    const imports = await importsOfMonth(q, producerId, year, month);
    const earlier = needsEarlierFeedstock(regime, segments, feedstock) ? await latestEarlierFeedstock(q, producerId, first, share) : null;
    const result = computeTaxPeriod(law, { year, month, asKnownOn, regime, segments, feedstock, thirdParty, sales, imports, earlier });

    const key = (o: object) => JSON.stringify(o);
    const fingerprint = createHash('sha256').update(JSON.stringify({
      producerId, year, month,
      regime: { regime: regime.regime, election: regime.election },
      segments: segments.map((s) => ({ from: s.from, to: s.to, sealRegular: s.sealRegular })),
      feedstock: feedstock.map(key).sort(), thirdParty, sales: sales.map(key).sort(), imports: imports.map(key),
      earlier: earlier && { ...earlier, feedstock: earlier.feedstock.map(key).sort() },
      lawVersions: result.lawVersions, minimumShare: { starts: share.timeline.starts, shares: share.timeline.values },
    })).digest('hex');
    return { figures: result.figures, fingerprint };
  }
}

function pad(month: number): string {
  return String(month).padStart(2, '0');
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
