import { DataSource, EntityManager } from 'typeorm';
import { firstDayOfMonth, IsoDate, lastDayOfMonth } from '../law/dates';
import { Decimal } from '../law/decimal';
import { LAST_DAP_ISSUE_DAY } from '../law/family-farming';
import { EarlierFeedstock, FeedstockGroup, ThirdPartyAcquisitions } from '../law/tax-period';
import { Feedstock, PurchasePurpose, Region, SupplierKind } from '../law/types';
import { Timeline, valueOnSql } from './facts/parameter-timeline';
import { semiaridDays } from './facts/priority-region.sql';
import { supplierOn } from './facts/supplier-eligibility.sql';

/**
 * The raw material of a tax month in SQL (Lei 11.116/2005, art. 5º; Decreto 10.527/2020, art. 6º
 * §§2º–4º): the groups the law needs, every fact from its builder in src/services/facts/.
 */

type Queryable = DataSource | EntityManager;

interface FeedstockRow {
  kind: 'USED' | 'ACQUIRED';
  feedstock: Feedstock | null;
  region: Region | null;
  semiarid: boolean | null;
  family_farming: boolean | null;
  own: boolean | null;
  cost: string;
  kg: string;
  /** The first purchase date of a cooperative's lot with no minimum share in force on it. */
  no_share_on: IsoDate | null;
}

/**
 * The raw material for biodiesel used (consumedOn) in [first, last], grouped by the facts the law
 * needs, and the raw material acquired (purchasedOn) from third parties in it (art. 6º §§3º–4º):
 * one aggregate statement.
 */
export async function feedstockOfMonth(q: Queryable, producerId: string, first: IsoDate, last: IsoDate, share: ShareTimeline): Promise<{ feedstock: FeedstockGroup[]; thirdParty: ThirdPartyAcquisitions }> {
  // Interpretation: only raw material for biodiesel (purpose BIODIESEL_FEEDSTOCK) is weighed;
  // other family-farming products (art. 3º §2 I b) count for the Selo, not for the rate. The
  // priority region (art. 6º I and III) is judged on the acquisition date, like the family-farming origin.
  const semiarid = semiaridDays('sa', 'p.origin_municipality_code');
  const supplier = supplierOn('p', 'p.purchased_on', `'${LAST_DAP_ISSUE_DAY}'::date`);
  const shareOn = valueOnSql('p.purchased_on', '$4::date[]', '$5::numeric[]');
  const rows: FeedstockRow[] = await q.query(
    `SELECT 'USED' AS kind, p.feedstock, m.region, ${semiarid.on('p.purchased_on')} AS semiarid,
            ${supplier.familyFarmingOrigin(shareOn)} AS family_farming,
            p.supplier_kind = '${SupplierKind.OWN_PRODUCTION}' AS own,
            coalesce(sum(p.cost), 0) AS cost, sum(p.quantity_kg) AS kg,
            to_char(min(p.purchased_on) FILTER (WHERE p.supplier_kind = '${SupplierKind.COOPERATIVE}'
              AND ${shareOn} IS NULL), 'YYYY-MM-DD') AS no_share_on
       FROM purchase p JOIN municipality m ON m.ibge_code = p.origin_municipality_code ${semiarid.join}
       ${supplier.join}
      WHERE p.producer_id = $1 AND p.consumed_on BETWEEN $2::date AND $3::date AND p.purpose = '${PurchasePurpose.BIODIESEL_FEEDSTOCK}'
      GROUP BY 2, 3, 4, 5, 6
     UNION ALL
     SELECT 'ACQUIRED', NULL, NULL, NULL, NULL, NULL, coalesce(sum(a.cost), 0), coalesce(sum(a.quantity_kg), 0), NULL
       FROM purchase a
      WHERE a.producer_id = $1 AND a.purchased_on BETWEEN $2::date AND $3::date AND a.purpose = '${PurchasePurpose.BIODIESEL_FEEDSTOCK}'
        AND a.supplier_kind <> '${SupplierKind.OWN_PRODUCTION}'`,
    [producerId, first, last, share.timeline.starts, share.timeline.values],
  );
  // A cooperative's lot bought on a day with no minimum family-farmer share in force (art. 4º VI):
  // its habilitation cannot be judged, so the month is not computed (NO_RULE_IN_FORCE, the error
  // Organization.habilitation and Purchase.familyFarmingOrigin give), never "not habilitated".
  const noShareOn = rows.map((r) => r.no_share_on).filter((d): d is IsoDate => d !== null).sort()[0];
  if (noShareOn) share.missing(noShareOn);
  const feedstock: FeedstockGroup[] = rows.filter((r) => r.kind === 'USED').map((r) => ({
    feedstock: r.feedstock!, region: r.region!, semiarid: r.semiarid!, familyFarmingOrigin: r.family_farming === true, ownProduction: r.own === true,
    cost: new Decimal(r.cost), quantityKg: new Decimal(r.kg),
  }));
  const acquired = rows.find((r) => r.kind === 'ACQUIRED');
  return { feedstock, thirdParty: { cost: new Decimal(acquired?.cost ?? 0), quantityKg: new Decimal(acquired?.kg ?? 0) } };
}

/**
 * DESIGN §1.3 — for a month that used no raw material (stock sold): the latest earlier month with
 * raw material for biodiesel used, and its raw material as `feedstockOfMonth` reads it; null when
 * there is none.
 */
export async function latestEarlierFeedstock(q: Queryable, producerId: string, before: IsoDate, share: ShareTimeline): Promise<EarlierFeedstock | null> {
  const [row]: Array<{ last: string | null }> = await q.query(
    `SELECT to_char(max(consumed_on), 'YYYY-MM-DD') AS last FROM purchase
      WHERE producer_id = $1 AND consumed_on < $2::date AND purpose = '${PurchasePurpose.BIODIESEL_FEEDSTOCK}'`,
    [producerId, before],
  );
  if (!row?.last) return null;
  const year = Number(row.last.slice(0, 4));
  const month = Number(row.last.slice(5, 7));
  return { year, month, ...(await feedstockOfMonth(q, producerId, firstDayOfMonth(year, month), lastDayOfMonth(year, month), share)) };
}

/** The cooperative minimum share's timeline, and what to do for a day with none in force (throw the law book's error). */
export interface ShareTimeline {
  timeline: Timeline;
  missing(on: IsoDate): never;
}
