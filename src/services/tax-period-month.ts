import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { firstDayOfMonth, IsoDate, lastDayOfMonth, monthOf, yearOf } from '../law/dates';
import { Decimal } from '../law/decimal';
import { LawBook } from '../law/law-book';
import { ElectionFacts, regimeForMonth, RegimeInForce } from '../law/regime';
import { GrantFacts } from '../law/seal-standing';
import { computeTaxPeriod, EarlierFeedstock, ImportFacts, needsEarlierFeedstock, SaleGroup, saleGroups, SegmentSpan, TaxPeriodFigures, taxSegments, usesRawMaterial } from '../law/tax-period';
import { BiodieselOrigin, Market } from '../law/types';
import { importFacts, importsOfMonthSql } from './biodiesel-import.service';
import { minimumShareTimeline, runIndexSql } from './facts/parameter-timeline';
import { earlierFeedstock, earlierWindow, feedstockOfWindows, latestEarlierUses, latestEarlierUseSql, WindowFeedstock } from './tax-period-feedstock';
import { activeSql } from './record-state';
import { groupBy } from './group-by';

// The monthly PIS/Pasep and Cofins of a set of producers' months (one is a set of one) in a fixed
// number of statements, each over the (producer, month) pairs and grouped by pair; then the law's
// pure functions per month (Lei 11.116/2005 arts. 3º–5º; Decreto 10.527/2020 arts. 5º–6º).

type Queryable = DataSource | EntityManager;

/** A month's figures and the sha256 of their inputs. */
export interface Computation {
  figures: TaxPeriodFigures;
  fingerprint: string;
}

/** A producer's month asked. */
export interface ProducerMonth {
  producerId: string;
  year: number;
  month: number;
}

/** A producer's month: what the database holds of it (`elections`, also for explaining a snapshot) and its computation, or the error of the law that refused it. */
export interface MonthOutcome {
  producerId: string;
  elections: ElectionFacts[];
  result: Computation | Error;
}

interface ContextRow {
  producerId: string;
  elections: ElectionFacts[];
  grants: GrantFacts[];
  imports: Array<{ id: string; declarationNumber: string; clearedOn: string; volumeM3: string }>;
  earlier: IsoDate | null;
}

interface SaleRow { n: string; segment: number; origin: BiodieselOrigin; market: Market; sale_on: IsoDate | null; volume: string; revenue: string }

/** One producer's month on its way: its facts so far, or the error that stopped it. */
interface Month extends ProducerMonth {
  /** Its place among the months computed, from 1 (the statements' `n`). */
  n: number;
  first: IsoDate;
  last: IsoDate;
  elections: ElectionFacts[];
  error?: Error;
  regime?: RegimeInForce;
  segments?: SegmentSpan[];
  grants: GrantFacts[];
  imports: ImportFacts[];
  earlierUse: IsoDate | null;
  read?: WindowFeedstock;
  sales?: SaleGroup[];
  earlier?: EarlierFeedstock | null;
}

/** Run `step` for each month still computing; an error of the law stops that month only. */
function each(months: Month[], step: (m: Month) => void): void {
  for (const m of months) {
    if (m.error) continue;
    try {
      step(m);
    } catch (error) {
      m.error = error instanceof Error ? error : new Error(String(error));
    }
  }
}

/** The months of `producerIds`, in their order. */
export function computeMonths(q: Queryable, law: LawBook | Promise<LawBook>, producerIds: readonly string[], year: number, month: number, asKnownOn: IsoDate): Promise<MonthOutcome[]> {
  return computeProducerMonths(q, law, producerIds.map((producerId) => ({ producerId, year, month })), asKnownOn);
}

/** Any producers' months (each checked by the caller), in their order: the statements of one month. */
export async function computeProducerMonths(q: Queryable, law: LawBook | Promise<LawBook>, asked: readonly ProducerMonth[], asKnownOn: IsoDate): Promise<MonthOutcome[]> {
  const key = (m: ProducerMonth) => `${m.producerId}|${m.year}|${m.month}`;
  const distinct = [...new Map(asked.map((m) => [key(m), m])).values()];
  const computed = await computeDistinct(q, Promise.resolve(law), distinct, asKnownOn);
  const outcomes = new Map(distinct.map((m, i) => [key(m), computed[i]]));
  return asked.map((m) => outcomes.get(key(m))!);
}

/**
 * The statements that need nothing but the month and the law book start at once: the producers'
 * context (elections, grants, imports) beside their raw material; the sales, split by the
 * segments the context gives, last.
 */
async function computeDistinct(q: Queryable, lawRead: Promise<LawBook>, asked: readonly ProducerMonth[], asKnownOn: IsoDate): Promise<MonthOutcome[]> {
  if (asked.length === 0) return [];
  const windows = asked.map((m, i) => ({ ...m, n: i + 1, first: firstDayOfMonth(m.year, m.month), last: lastDayOfMonth(m.year, m.month) }));
  // The cooperative minimum share (art. 4º VI) of each purchase date; none published: the document decides.
  const shareRead = lawRead.then((law) => minimumShareTimeline(law, asKnownOn));
  const feedstockRead = shareRead.then((share) => feedstockOfWindows(q, windows, share));
  const contextsRead = async () => {
    const [law, contexts]: [LawBook, ContextRow[]] = await Promise.all([lawRead, q.query(
      `SELECT k.id::text AS "producerId",
         (SELECT coalesce(json_agg(json_build_object('regime', regime, 'electedOn', elected_on, 'effectiveYear', effective_year, 'startingActivity', starting_activity) ORDER BY id), '[]'::json)
            FROM regime_election WHERE producer_id = k.id) AS elections,
         (SELECT coalesce(json_agg(json_build_object('id', g.id::text, 'grantedOn', g.granted_on, 'validUntil', g.valid_until, 'events',
                   (SELECT coalesce(json_agg(json_build_object('kind', e.kind, 'effectiveOn', e.effective_on, 'validUntil', e.valid_until, 'reason', e.reason) ORDER BY e.id), '[]'::json)
                      FROM seal_event e WHERE e.grant_id = g.id)) ORDER BY g.id), '[]'::json)
            FROM seal_grant g WHERE g.producer_id = k.id) AS grants,
         ${importsOfMonthSql('k.id', 'k.first', 'k.last')} AS imports,
         ${latestEarlierUseSql('k.id', 'k.first')} AS earlier
         FROM unnest($1::bigint[], $2::date[], $3::date[]) WITH ORDINALITY AS k(id, first, last, n) ORDER BY k.n`,
      [windows.map((w) => w.producerId), windows.map((w) => w.first), windows.map((w) => w.last)],
    )]);
    const months: Month[] = contexts.map((c, i) => ({
      ...windows[i], elections: c.elections, grants: c.grants, imports: importFacts(c.imports), earlierUse: c.earlier,
    }));
    each(months, (m) => {
      m.regime = regimeForMonth(m.elections, m.year, m.month);
      m.segments = taxSegments(law, m.grants, m.year, m.month, asKnownOn);
    });
    return { law, months, saleRows: await salesOf(q, months) };
  };
  // Promise.all holds both from the start: neither's failure goes unhandled while the other runs.
  const [read, { law, months, saleRows }, share] = await Promise.all([feedstockRead, contextsRead(), shareRead]);

  const computing = () => months.filter((m) => !m.error);
  // The contexts come in the order of the months asked, as the raw material does.
  months.forEach((m, i) => { m.read = read[i]; });
  const salesOfMonth = groupBy(saleRows, (r) => Number(r.n));
  each(months, (m) => {
    m.sales = saleGroups(law, m.segments!, (salesOfMonth.get(m.n) ?? []).map((r) => ({
      segment: Number(r.segment) - 1, origin: r.origin, market: r.market, volumeM3: new Decimal(r.volume), revenue: new Decimal(r.revenue), saleOn: r.sale_on,
    })), asKnownOn);
  });

  // docs/LAW.md: a special-regime month that used no raw material takes the latest earlier month
  // whose net raw material used is positive. A candidate whose lots all went back (net nothing) is
  // passed over for the one before it: one more pair of statements per such month, none otherwise.
  each(months, (m) => { m.earlier = null; });
  let needing = computing().filter((m) => needsEarlierFeedstock(m.regime!, m.segments!, m.read!.feedstock) && m.earlierUse !== null);
  while (needing.length > 0) {
    const windows = needing.map((m) => earlierWindow(m.producerId, m.earlierUse!));
    const earlierRead = await feedstockOfWindows(q, windows, share);
    const again = needing.filter((m, i) => {
      if (usesRawMaterial(earlierRead[i].feedstock)) m.earlier = earlierFeedstock(windows[i], earlierRead[i]);
      return m.earlier === null;
    });
    const found = await latestEarlierUses(q, again.map((m) => ({ producerId: m.producerId, before: firstDayOfMonth(yearOf(m.earlierUse!), monthOf(m.earlierUse!)) })));
    again.forEach((m, i) => { m.earlierUse = found[i]; });
    needing = again.filter((m) => m.earlierUse !== null);
  }

  return months.map((m) => {
    let result: Computation | Error | undefined = m.error;
    if (!result) {
      try {
        result = computation(law, m, asKnownOn, share);
      } catch (error) {
        result = error instanceof Error ? error : new Error(String(error));
      }
    }
    return { producerId: m.producerId, elections: m.elections, result };
  });
}

/**
 * The sales of each month (`n`: its place among `months`, from 1) by segment (the producer's own),
 * origin and market, returns by their sale's day: one aggregate over the days of all the months.
 */
async function salesOf(q: Queryable, months: Month[]): Promise<SaleRow[]> {
  const computing = months.filter((m) => !m.error);
  if (computing.length === 0) return [];
  const first = computing.reduce((d, m) => (m.first < d ? m.first : d), computing[0].first);
  const last = computing.reduce((d, m) => (m.last > d ? m.last : d), computing[0].last);
  return q.query(
    `SELECT k.n, ${runIndexSql('s.sold_on', 'k.starts::date[]')} AS segment, s.origin, s.market,
            to_char(s.sale_on, 'YYYY-MM-DD') AS sale_on, sum(s.volume_m3) AS volume, sum(s.revenue) AS revenue
       FROM unnest($1::bigint[], $4::text[], $5::date[], $6::date[], $7::int[]) AS k(producer_id, starts, first, last, n)
       JOIN (SELECT producer_id, sold_on, origin, market, NULL::date AS sale_on, volume_m3, revenue FROM sale
              WHERE producer_id = ANY($1::bigint[]) AND sold_on BETWEEN $2::date AND $3::date AND ${activeSql()}
             UNION ALL
             -- Each active return of an active sale, negative, on its day (docs/LAW.md, "Returns").
             SELECT o.producer_id, r.returned_on, o.origin, o.market, o.sold_on, -r.quantity, -r.value
               FROM record_return r JOIN sale o ON o.id = r.sale_id AND ${activeSql('o')}
              WHERE r.producer_id = ANY($1::bigint[]) AND r.returned_on BETWEEN $2::date AND $3::date AND ${activeSql('r')}) s
         ON s.producer_id = k.producer_id AND s.sold_on BETWEEN k.first AND k.last
      GROUP BY 1, 2, 3, 4, 5`,
    [computing.map((m) => m.producerId), first, last, computing.map((m) => `{${m.segments!.map((s) => s.from).join(',')}}`),
      computing.map((m) => m.first), computing.map((m) => m.last), computing.map((m) => m.n)],
  );
}

/** The law's computation of one producer's month from its facts, and the fingerprint of those facts. */
function computation(law: LawBook, m: Month, asKnownOn: IsoDate, share: { starts: IsoDate[]; values: Array<string | null> }): Computation {
  const { year, month, regime, segments, sales, imports, earlier } = m as Required<Month>;
  const { feedstock, thirdParty } = m.read!;
  const result = computeTaxPeriod(law, { year, month, asKnownOn, regime, segments, feedstock, thirdParty, sales, imports, earlier });
  const key = (o: object) => JSON.stringify(o);
  const fingerprint = createHash('sha256').update(JSON.stringify({
    producerId: m.producerId, year, month,
    regime: { regime: regime.regime, election: regime.election },
    segments: segments.map((s) => ({ from: s.from, to: s.to, sealRegular: s.sealRegular })),
    feedstock: feedstock.map(key).sort(), thirdParty, sales: sales.map(key).sort(), imports: imports.map(key),
    earlier: earlier && { ...earlier, feedstock: earlier.feedstock.map(key).sort() },
    lawVersions: result.lawVersions, minimumShare: { starts: share.starts, shares: share.values },
  })).digest('hex');
  return { figures: result.figures, fingerprint };
}
