import { DataSource, EntityManager } from 'typeorm';
import { firstDayOfMonth, IsoDate, lastDayOfMonth } from '../law/dates';
import { Decimal } from '../law/decimal';
import { LAST_DAP_ISSUE_DAY } from '../law/family-farming';
import { EarlierFeedstock, FeedstockGroup, ThirdPartyAcquisitions } from '../law/tax-period';
import { Feedstock, PurchasePurpose, Region, SupplierKind } from '../law/types';
import { Timeline, valueOnSql } from './facts/parameter-timeline';
import { semiaridDays } from './facts/priority-region.sql';
import { supplierOn } from './facts/supplier-eligibility.sql';
import { activeSql } from './record-state';

/**
 * The raw material of a tax month in SQL (Lei 11.116/2005, art. 5º; Decreto 10.527/2020, art. 6º
 * §§2º–4º): the groups the law needs, every fact from its builder in src/services/facts/.
 */

type Queryable = DataSource | EntityManager;

interface FeedstockRow {
  kind: 'USED' | 'ACQUIRED';
  /** The window's place in the list asked (1-based). */
  n: string;
  feedstock: Feedstock | null;
  region: Region | null;
  semiarid: boolean | null;
  family_farming: boolean | null;
  own: boolean | null;
  cost: string;
  kg: string;
}

/** A producer's days whose raw material is read: a month, [first, last]. */
export interface FeedstockWindow {
  producerId: string;
  first: IsoDate;
  last: IsoDate;
}

/** A window's raw material. */
export interface WindowFeedstock {
  feedstock: FeedstockGroup[];
  thirdParty: ThirdPartyAcquisitions;
}

/**
 * Per window (a producer's month), the raw material used in it by the facts the law needs and
 * that acquired from third parties (art. 6º §§3º–4º): one statement for all windows.
 */
export async function feedstockOfWindows(q: Queryable, windows: readonly FeedstockWindow[], share: Timeline): Promise<WindowFeedstock[]> {
  if (windows.length === 0) return [];
  // Interpretation: only raw material for biodiesel (purpose BIODIESEL_FEEDSTOCK) is weighed;
  // other family-farming products (art. 3º §2 I b) count for the Selo, not for the rate. The
  // priority region (art. 6º I and III) is judged on the acquisition date, like the family-farming origin.
  const semiarid = semiaridDays('sa', 'p.origin_municipality_code');
  const supplier = supplierOn('p', 'p.purchased_on', `'${LAST_DAP_ISSUE_DAY}'::date`, true);
  const shareOn = valueOnSql('p.purchased_on', '$4::date[]', '$5::numeric[]');
  const rows: FeedstockRow[] = await q.query(
    `SELECT 'USED' AS kind, w.n, p.feedstock, m.region, ${semiarid.on('p.purchased_on')} AS semiarid,
            ${supplier.familyFarmingOrigin(shareOn)} AS family_farming,
            p.supplier_kind = '${SupplierKind.OWN_PRODUCTION}' AS own,
            coalesce(sum(p.cost), 0) AS cost, sum(p.quantity_kg) AS kg
       FROM unnest($1::bigint[], $2::date[], $3::date[]) WITH ORDINALITY AS w(producer_id, first, last, n)
       ${windowPurchases('p', 'consumed_on', windows.length)}
       JOIN municipality m ON m.ibge_code = p.origin_municipality_code ${semiarid.join}
       ${supplier.join}
      GROUP BY 2, 3, 4, 5, 6, 7
     UNION ALL
     SELECT 'ACQUIRED', w.n, NULL, NULL, NULL, NULL, NULL, coalesce(sum(a.cost), 0), coalesce(sum(a.quantity_kg), 0)
       FROM unnest($1::bigint[], $2::date[], $3::date[]) WITH ORDINALITY AS w(producer_id, first, last, n)
       ${windowPurchases('a', 'purchased_on', windows.length)}
      WHERE a.supplier_kind <> '${SupplierKind.OWN_PRODUCTION}'
      GROUP BY 2`,
    [windows.map((w) => w.producerId), windows.map((w) => w.first), windows.map((w) => w.last), share.starts, share.values],
  );
  return windows.map((_, i) => {
    const mine = rows.filter((r) => Number(r.n) === i + 1);
    const feedstock: FeedstockGroup[] = mine.filter((r) => r.kind === 'USED').map((r) => ({
      feedstock: r.feedstock!, region: r.region!, semiarid: r.semiarid!, familyFarmingOrigin: r.family_farming === true, ownProduction: r.own === true,
      cost: new Decimal(r.cost), quantityKg: new Decimal(r.kg),
    }));
    const acquired = mine.find((r) => r.kind === 'ACQUIRED');
    return { feedstock, thirdParty: { cost: new Decimal(acquired?.cost ?? 0), quantityKg: new Decimal(acquired?.kg ?? 0) } };
  });
}

/**
 * Several windows: one `OFFSET 0` subquery each, so the planner estimates each producer apart
 * instead of scanning the table; one window: the plain join, whose estimate is the producer's own
 * (docs/PERFORMANCE.md, "The dashboard's windows").
 */
function windowPurchases(alias: string, day: 'consumed_on' | 'purchased_on', windows: number): string {
  // One window: its bounds as the statement's own values, so the planner sees the producer's rows.
  const [producer, first, last] = windows === 1 ? ['($1::bigint[])[1]', '($2::date[])[1]', '($3::date[])[1]'] : ['w.producer_id', 'w.first', 'w.last'];
  const rows = countedPurchasesSql(producer, day, first, last);
  return windows === 1 ? `CROSS JOIN (${rows}) ${alias}` : `CROSS JOIN LATERAL (${rows} OFFSET 0) ${alias}`;
}

/** The columns of a purchase the month's raw material reads. */
const PURCHASE_READ = ['id', 'producer_id', 'feedstock', 'supplier_kind', 'family_farmer_id', 'organization_id', 'origin_municipality_code', 'purpose'];

/**
 * Active purchases in [first, last] plus returns dated in it as negative lots (docs/LAW.md,
 * "Returns"): two legs with their own bounds so each uses its index.
 */
function countedPurchasesSql(producer: string, day: 'consumed_on' | 'purchased_on', first: string, last: string): string {
  const counted = (a: string) => `${a}.purpose = '${PurchasePurpose.BIODIESEL_FEEDSTOCK}' AND ${activeSql(a)}`;
  return `SELECT ${PURCHASE_READ.map((c) => `o.${c}`).join(', ')}, o.purchased_on, o.consumed_on, o.quantity_kg, o.cost
      FROM purchase o WHERE o.producer_id = ${producer} AND o.${day} BETWEEN ${first} AND ${last} AND ${counted('o')}
     UNION ALL
    SELECT ${PURCHASE_READ.map((c) => `o.${c}`).join(', ')}, r.returned_on, r.returned_on, -r.quantity, CASE WHEN o.cost IS NULL THEN NULL ELSE -r.value END
      FROM record_return r JOIN purchase o ON o.id = r.purchase_id AND ${counted('o')}
     WHERE r.producer_id = ${producer} AND r.returned_on BETWEEN ${first} AND ${last} AND ${activeSql('r')}`;
}

/**
 * docs/LAW.md — for a month that used no raw material (stock sold): the latest earlier month with
 * raw material for biodiesel used, before `before` (an SQL expression), of producer `producer`:
 * its last day of use ('YYYY-MM-DD'), NULL when there is none.
 */
export function latestEarlierUseSql(producer: string, before: string): string {
  return `(SELECT to_char(max(e.consumed_on), 'YYYY-MM-DD') FROM purchase e
      WHERE e.producer_id = ${producer} AND e.consumed_on < ${before} AND e.purpose = '${PurchasePurpose.BIODIESEL_FEEDSTOCK}' AND ${activeSql('e')})`;
}

/** The month of a day of latestEarlierUseSql, as the window whose raw material is read. */
export function earlierWindow(producerId: string, lastUse: IsoDate): FeedstockWindow & { year: number; month: number } {
  const year = Number(lastUse.slice(0, 4));
  const month = Number(lastUse.slice(5, 7));
  return { producerId, year, month, first: firstDayOfMonth(year, month), last: lastDayOfMonth(year, month) };
}

/** The earlier month's raw material as the law takes it. */
export function earlierFeedstock(window: { year: number; month: number }, read: WindowFeedstock): EarlierFeedstock {
  return { year: window.year, month: window.month, feedstock: read.feedstock, thirdParty: read.thirdParty };
}
