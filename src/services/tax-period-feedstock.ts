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

/** Lei 11.116/2005, art. 5º; Decreto 10.527/2020, art. 6º §§2º–4º. */

type Queryable = DataSource | EntityManager;

interface FeedstockRow {
  kind: 'USED' | 'ACQUIRED';
  n: string;
  feedstock: Feedstock | null;
  region: Region | null;
  semiarid: boolean | null;
  family_farming: boolean | null;
  own: boolean | null;
  cost: string;
  kg: string;
}

export interface FeedstockWindow {
  producerId: string;
  first: IsoDate;
  last: IsoDate;
}

export interface WindowFeedstock {
  feedstock: FeedstockGroup[];
  thirdParty: ThirdPartyAcquisitions;
}

/** Art. 6º §§3º–4º; one statement for all windows. */
export async function feedstockOfWindows(q: Queryable, windows: readonly FeedstockWindow[], share: Timeline): Promise<WindowFeedstock[]> {
  if (windows.length === 0) return [];
  // Interpretation: only raw material for biodiesel is weighed (art. 3º §2 I b counts for the Selo
  // only); the priority region (art. 6º I and III) is judged on the acquisition date.
  const semiarid = semiaridDays('sa', 'p.origin_municipality_code');
  // The registrations of the windows' suppliers only, aggregated once (supplierOn).
  const supplier = supplierOn('p', 'p.purchased_on', `'${LAST_DAP_ISSUE_DAY}'::date`, {
    farmers: 'SELECT family_farmer_id FROM used', organizations: 'SELECT organization_id FROM used',
  });
  const shareOn = valueOnSql('p.purchased_on', '$4::date[]', '$5::numeric[]');
  const rows: FeedstockRow[] = await q.query(
    `WITH used AS MATERIALIZED (
       SELECT w.n, p.* FROM unnest($1::bigint[], $2::date[], $3::date[]) WITH ORDINALITY AS w(producer_id, first, last, n)
       ${windowPurchases('p', 'consumed_on', windows.length)})
     SELECT 'USED' AS kind, p.n, p.feedstock, m.region, ${semiarid.on('p.purchased_on')} AS semiarid,
            ${supplier.familyFarmingOrigin(shareOn)} AS family_farming,
            p.supplier_kind = '${SupplierKind.OWN_PRODUCTION}' AS own,
            coalesce(sum(p.cost), 0) AS cost, sum(p.quantity_kg) AS kg
       FROM used p
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

/** `OFFSET 0` per window so the planner estimates each producer apart (docs/PERFORMANCE.md). */
function windowPurchases(alias: string, day: 'consumed_on' | 'purchased_on', windows: number): string {
  // One window: its bounds as the statement's own values, so the planner sees the producer's rows.
  const [producer, first, last] = windows === 1 ? ['($1::bigint[])[1]', '($2::date[])[1]', '($3::date[])[1]'] : ['w.producer_id', 'w.first', 'w.last'];
  const rows = countedPurchasesSql(producer, day, first, last);
  return windows === 1 ? `CROSS JOIN (${rows}) ${alias}` : `CROSS JOIN LATERAL (${rows} OFFSET 0) ${alias}`;
}

const PURCHASE_READ = ['id', 'producer_id', 'feedstock', 'supplier_kind', 'family_farmer_id', 'organization_id', 'origin_municipality_code', 'purpose'];

/**
 * Returns as negative lots counted on the return's day (docs/LAW.md, "Returns"); two legs so each
 * uses its index. A return undoes part of its own lot, so it carries the lot's `purchased_on`: it is
 * judged (supplier, member share, Semiárido) as the lot was on its acquisition (art. 6º §2º).
 */
function countedPurchasesSql(producer: string, day: 'consumed_on' | 'purchased_on', first: string, last: string): string {
  const counted = (a: string) => `${a}.purpose = '${PurchasePurpose.BIODIESEL_FEEDSTOCK}' AND ${activeSql(a)}`;
  // Art. 6º §4º: the average price is of raw material acquired in the period, so only the return of
  // a lot acquired in it reduces it; an earlier lot's return reduces the raw material used only.
  const acquiredHere = day === 'purchased_on' ? ` AND o.purchased_on BETWEEN ${first} AND ${last}` : '';
  return `SELECT ${PURCHASE_READ.map((c) => `o.${c}`).join(', ')}, o.purchased_on, o.consumed_on, o.quantity_kg, o.cost
      FROM purchase o WHERE o.producer_id = ${producer} AND o.${day} BETWEEN ${first} AND ${last} AND ${counted('o')}
     UNION ALL
    SELECT ${PURCHASE_READ.map((c) => `o.${c}`).join(', ')}, o.purchased_on, r.returned_on, -r.quantity, CASE WHEN o.cost IS NULL THEN NULL ELSE -r.value END
      FROM record_return r JOIN purchase o ON o.id = r.purchase_id AND ${counted('o')}
     WHERE r.producer_id = ${producer} AND r.returned_on BETWEEN ${first} AND ${last} AND ${activeSql('r')}${acquiredHere}`;
}

/**
 * The day of the latest lot used before each `before`, in one statement: the next candidate month
 * when the one found used no raw material net (its lots all sent back); null when there is none.
 */
export async function latestEarlierUses(q: Queryable, asked: ReadonlyArray<{ producerId: string; before: IsoDate }>): Promise<Array<IsoDate | null>> {
  if (asked.length === 0) return [];
  const rows: Array<{ earlier: IsoDate | null }> = await q.query(
    `SELECT ${latestEarlierUseSql('k.id', 'k.before')} AS earlier FROM unnest($1::bigint[], $2::date[]) WITH ORDINALITY AS k(id, before, n) ORDER BY k.n`,
    [asked.map((a) => a.producerId), asked.map((a) => a.before)],
  );
  return rows.map((r) => r.earlier);
}

/** For a month that sold from stock (docs/LAW.md); NULL when there is none. */
export function latestEarlierUseSql(producer: string, before: string): string {
  return `(SELECT to_char(max(e.consumed_on), 'YYYY-MM-DD') FROM purchase e
      WHERE e.producer_id = ${producer} AND e.consumed_on < ${before} AND e.purpose = '${PurchasePurpose.BIODIESEL_FEEDSTOCK}' AND ${activeSql('e')})`;
}

export function earlierWindow(producerId: string, lastUse: IsoDate): FeedstockWindow & { year: number; month: number } {
  const year = Number(lastUse.slice(0, 4));
  const month = Number(lastUse.slice(5, 7));
  return { producerId, year, month, first: firstDayOfMonth(year, month), last: lastDayOfMonth(year, month) };
}

export function earlierFeedstock(window: { year: number; month: number }, read: WindowFeedstock): EarlierFeedstock {
  return { year: window.year, month: window.month, feedstock: read.feedstock, thirdParty: read.thirdParty };
}
