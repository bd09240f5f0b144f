import { EntityManager } from 'typeorm';
import { Producer } from '../../domain';
import { balanceCarries, BalanceIn, balanceIn } from '../../law/seal-balance';
import { IsoDate } from '../../law/dates';
import { Decimal, sum } from '../../law/decimal';
import { LAST_DAP_ISSUE_DAY } from '../../law/family-farming';
import { Finding } from '../../law/findings';
import { LawBook } from '../../law/law-book';
import { baseRuleOf, FomentoGroup, fomentoExpenseFindings, parameterSegments, PurchaseGroup, Segment, targetDay } from '../../law/seal-spending';
import { CountedItem, SealComplianceResult } from '../../law/seal-year';
import { sealCompliance, sealComplianceModel } from '../../law/seal-compliance';
import { FomentoKind, PurchasePurpose, Region, SealBaseRule, SupplierKind } from '../../law/types';
import { semiaridOnSql } from '../facts/priority-region.sql';
import { ContractConformityService } from './contract-conformity.service';
import { SealEvaluationService } from './seal-evaluation.service';
import {
  contractsAndOrganizations, FOMENTO_COLUMNS, FOMENTO_FACTS, FOMENTO_GROUP_SUMS, FomentoGroupRow, keyOf, ofContractsAndOrganizations, minimumPriceParams, organizationFacts, PURCHASE_COLUMNS, PURCHASE_GROUP_COLUMNS,
  purchaseFacts, PurchaseGroupRow, purchaseGroupOf,
} from './purchase-facts.sql';
import { activeSql, COUNTED_PURCHASE, COUNTED_SALE } from '../record-state';
import { groupBy } from '../group-by';
import { untilAnswered } from '../transaction';

// The Selo year of a set of producers in a fixed number of grouped statements (purchase-facts.sql.ts);
// src/law/ decides per producer, then one statement reads the excluded rows.

/** One item that does not count, with every reason (docs/LAW.md). */
export interface ExcludedItem {
  id: string;
  source: 'PURCHASE' | 'FOMENTO_EXPENSE';
  amount: Decimal;
  findings: Finding[];
}

/** The key prefix of hypothetical groups (sealPlan): never rows of the database. */
export const HYPOTHETICAL = 'hypothetical:';

/** Hypothetical groups of a plan, built with the year's parameter segment of a day. */
export type ExtraGroups = (segmentOn: (day: IsoDate) => Segment) => { purchases: PurchaseGroup[]; fomento: FomentoGroup[] };

/** A producer's year: its result and, when listed, the items that do not count. */
export interface YearOutcome {
  result: SealComplianceResult;
  excluded: ExcludedItem[];
  /** Where the rows of its counted groups are read from, page by page (`countedRows`). */
  counted: CountedSource;
}

/** The counted groups of a producer's year, with the statement parameters that found them. */
export interface CountedSource {
  producerId: string;
  params: unknown[];
  /** Its statements read only its own suppliers' registrations (`fewerRowsThanRegistrations`). */
  ownSuppliers: boolean;
  purchases: Array<{ row: PurchaseGroupRow; item: CountedItem }>;
  fomento: Array<{ row: FomentoGroupRow; item: CountedItem }>;
}

/** One counted purchase or fomento expense, with its group's factors applied to its own value. */
export interface CountedRow {
  id: string;
  source: 'PURCHASE' | 'FOMENTO_EXPENSE';
  actual: Decimal;
  item: CountedItem;
}

export interface YearAsked {
  law: LawBook;
  year: number;
  asKnownOn: IsoDate;
  /** Read the rows of the groups that do not count too. */
  listExcluded: boolean;
  /** Hypothetical groups beside the recorded ones (sealPlan). */
  extra?: ExtraGroups;
}

type Row = Record<string, unknown>;

function withExtra(purchases: PurchaseGroup[], fomento: FomentoGroup[], extra?: { purchases: PurchaseGroup[]; fomento: FomentoGroup[] }) {
  return extra ? { purchases: [...purchases, ...extra.purchases], fomento: [...fomento, ...extra.fomento] } : { purchases, fomento };
}

/** The statements of the Selo's year for a set of producers; the services it reads contracts and evaluations through. */
export class ComplianceYears {
  constructor(private readonly contracts: ContractConformityService, private readonly evaluations: SealEvaluationService) {}

  /** Each producer's year (distinct producers), in their order: its outcome, or the error the law gave for it. */
  async evaluate(em: EntityManager, producers: readonly Producer[], asked: YearAsked): Promise<Array<YearOutcome | Error>> {
    if (producers.length === 0) return [];
    const { law, year, asKnownOn } = asked;
    const from = `${year}-01-01`;
    const to = `${year}-12-31`;
    const ids = producers.map((p) => p.id);
    const segments = parameterSegments(law, from, to, asKnownOn);
    const weighted = Boolean(sealComplianceModel(law, year, asKnownOn));
    // From 2024 a purchase below the PGPAF minimum on its own date gets a finding (docs/LAW.md).
    const priceRuns = weighted ? await this.contracts.minimumPriceRuns(from, to, asKnownOn, em) : [];
    const params = [ids, from, to, segments.map((s) => s.from), LAST_DAP_ISSUE_DAY, ...minimumPriceParams(priceRuns)];

    // Each plant's region, and whether it lies in the Semiárido on the day the year's targets are read.
    const plants: Array<{ producer_id: string; region: Region; semiarid: boolean }> = await em.query(
      `SELECT k.id::text AS producer_id, m.region, ${semiaridOnSql('m.ibge_code', '$3::date')} AS semiarid
         FROM unnest($1::bigint[], $2::text[]) AS k(id, code) JOIN municipality m ON m.ibge_code = k.code`,
      [ids, producers.map((p) => p.plantMunicipalityCode), targetDay(year)]);
    // The base (art. 3º §3º II–III): own biodiesel sold, on every market and on the domestic one; under
    // the original wording the year's raw-material acquisitions (purchasedOn in the year, not own production).
    const wording = law.sealWording(targetDay(year), asKnownOn)?.wording;
    const acquisitionsBase = wording !== undefined && baseRuleOf(wording, weighted) === SealBaseRule.RAW_MATERIAL_ACQUISITIONS;
    const sales: Array<{ producer_id: string; revenue: string; volume: string; exported: string; domestic: string; acquisitions: string }> = await em.query(
      `SELECT k.id::text AS producer_id, s.revenue, s.volume, s.exported, s.domestic, a.acquisitions
         FROM unnest($1::bigint[]) AS k(id)
         CROSS JOIN LATERAL (SELECT coalesce(sum(revenue), 0) AS revenue, coalesce(sum(volume_m3), 0) AS volume,
                                    coalesce(sum(volume_m3) FILTER (WHERE market = 'EXPORT'), 0) AS exported,
                                    coalesce(sum(revenue) FILTER (WHERE market = 'DOMESTIC'), 0) AS domestic
                               FROM ${COUNTED_SALE} WHERE producer_id = k.id AND origin = 'OWN_PRODUCTION' AND sold_on BETWEEN $2::date AND $3::date AND ${activeSql()}) s
         CROSS JOIN LATERAL (SELECT coalesce(sum(cost), 0) AS acquisitions FROM ${COUNTED_PURCHASE}
                              WHERE $4 AND producer_id = k.id AND purpose = '${PurchasePurpose.BIODIESEL_FEEDSTOCK}' AND supplier_kind <> '${SupplierKind.OWN_PRODUCTION}'
                                AND counted_on BETWEEN $2::date AND $3::date AND ${activeSql()}) a`,
      [ids, from, to, acquisitionsBase],
    );
    // The year's groups and its excluded rows take most of its time (seconds for many producers):
    // a year whose request has been answered (its timeout) stops before each, and each stops with it.
    // The year's groups are hashed, not sorted: the planner estimates about one group per row (the
    // keys are expressions) where there are a few per contract, and would sort the year's rows on a
    // dozen keys, spilling to disk. A hash table of this statement may take 64 × work_mem (256 MB at
    // the default 4 MB); it takes what the real groups need (docs/PERFORMANCE.md, "the year's groups").
    const ownSuppliers = producers.length === 1 && await fewerRowsThanRegistrations(em, ids[0], from, to);
    await untilAnswered(em, { hash_mem_multiplier: '64' });
    const purchaseRows: Array<PurchaseGroupRow & { producer_id: string }> = await em.query(
      `SELECT producer_id::text AS producer_id, ${PURCHASE_COLUMNS}, sum(cost) AS amount, count(*) FILTER (WHERE return_id IS NULL) AS n
         FROM (${purchaseFacts('', ownSuppliers)}) f GROUP BY producer_id, ${PURCHASE_COLUMNS}`,
      params,
    );
    await em.query('SET LOCAL hash_mem_multiplier = DEFAULT');
    const fomentoRows: Array<FomentoGroupRow & { producer_id: string }> = await em.query(
      `SELECT producer_id::text AS producer_id, region, semiarid, segment, ${FOMENTO_GROUP_SUMS}
         FROM (${FOMENTO_FACTS}) f GROUP BY producer_id, region, semiarid, segment`,
      params.slice(0, 4),
    );

    const contractIds = [...new Set(purchaseRows.map((r) => r.contract_id).filter((id) => id !== '0'))];
    const membershipIds = [...new Set(purchaseRows.map((r) => r.membership_id).filter((id) => id !== '0'))];
    // Each contract's conformity, with the first purchase it covers up to the year's end (art. 3º §2 II).
    const conformities = await this.contracts.conformities(contractIds, asKnownOn, to, em);
    const organizations = await organizationFacts(em, membershipIds);
    // Art. 58 (weighted model): this year's evaluation, and the balances of earlier ones that count toward it.
    const evaluations = weighted ? await this.evaluations.forYears(em, ids, year, asKnownOn) : new Map();
    const segmentOf = (i: number): Segment => segments[i - 1];
    // A group's key, with a conforming contract (no finding) named by its signing day only: groups
    // that differ in such contracts alone are one group for the law, which judges them alike (the
    // signing day, which a finding may name, stays). A year of a contract per farmer has a few
    // thousand groups for the law instead of one per contract.
    const pooled = (contractId: string) => {
      const c = contractId === '0' ? undefined : conformities.get(contractId);
      return c && c.conformity.findings.length === 0 ? `signed ${c.facts.signedOn}` : contractId;
    };
    const purchaseKey = (r: Row) => PURCHASE_GROUP_COLUMNS.map(([name]) => (name === 'contract_id' ? pooled(String(r.contract_id)) : String(r[name]))).join('|');
    for (const r of purchaseRows) r.key = purchaseKey(r as unknown as Row);
    // Each producer's groups picked in one pass (a filter per producer read every group of the
    // program), then found by their key within the producer: the SQL groups of each key.
    const purchasesOf = byProducer(purchaseRows);
    const fomentoOf = byProducer(fomentoRows);
    const purchaseRowOf = keyedWithin(purchasesOf, (r) => r.key!);
    const fomentoRowOf = keyedWithin(fomentoOf, (r) => keyOf(r as unknown as Row, FOMENTO_COLUMNS));
    const outcomes: Array<{ result: SealComplianceResult } | Error> = [];
    for (const producer of producers) {
      try {
        const plant = plants.find((r) => r.producer_id === producer.id)!;
        const sold = sales.find((r) => r.producer_id === producer.id)!;
        const purchases: PurchaseGroup[] = [...keysOf(purchasesOf.get(producer.id))].map((key) => {
          const rows = purchaseRowOf(producer.id, key);
          return purchaseGroupOf(rows.length === 1 ? rows[0] : { ...rows[0], amount: sum(rows.map((r) => new Decimal(r.amount))).toFixed(), n: String(rows.reduce((n, r) => n + Number(r.n), 0)) },
            conformities, organizations, segmentOf);
        });
        const fomento: FomentoGroup[] = (fomentoOf.get(producer.id) ?? []).map((r) => ({
          key: keyOf(r as unknown as Row, FOMENTO_COLUMNS),
          place: { region: r.region, semiarid: r.semiarid }, segment: segmentOf(r.segment), amount: new Decimal(r.amount), count: Number(r.n),
          technicalAssistance: { count: Number(r.ater_n), amount: new Decimal(r.ater_amount) },
        }));
        const evaluated = evaluations.get(producer.id) ?? { own: null, into: [] };
        const result = sealCompliance({
          year, asKnownOn, plant: { region: plant.region, semiarid: plant.semiarid },
          sales: {
            ownRevenue: new Decimal(sold.revenue), ownVolume: new Decimal(sold.volume), exportedVolume: new Decimal(sold.exported),
            domesticRevenue: new Decimal(sold.domestic), rawMaterialAcquisitions: new Decimal(sold.acquisitions),
          },
          ...withExtra(purchases, fomento, asked.extra?.((day) => segments.find((g) => g.from <= day && day <= g.to) as Segment)),
          balancesIn: await this.balancesInto(em, producer, law, evaluated.into, asKnownOn),
          evaluation: evaluated.own && { year, communicatedOn: evaluated.own.communicatedOn },
        }, law);
        outcomes.push({ result });
      } catch (error) {
        outcomes.push(error instanceof Error ? error : new Error(String(error)));
      }
    }
    await untilAnswered(em);
    const excluded = asked.listExcluded ? await excludedItems(em, producers, outcomes, params, ownSuppliers, { rowsOf: purchaseRowOf, keyOf: purchaseKey }, fomentoRowOf) : new Map<string, ExcludedItem[]>();
    return outcomes.map((o, i) => {
      if (o instanceof Error) return o;
      const id = producers[i].id;
      const mine = o.result.items.filter((it) => !it.key.startsWith(HYPOTHETICAL));
      const counted: CountedSource = {
        producerId: id, params, ownSuppliers,
        purchases: mine.filter((it) => it.source === 'PURCHASE').flatMap((item) => purchaseRowOf(id, item.key).map((row) => ({ row, item }))),
        fomento: mine.filter((it) => it.source === 'FOMENTO').flatMap((item) => fomentoRowOf(id, item.key).map((row) => ({ row, item }))),
      };
      return { result: o.result, excluded: excluded.get(id) ?? [], counted };
    });
  }

  /**
   * Portaria MDA nº 28/2024, art. 58 — the balances brought into a year: those of the evaluations
   * communicated in the year before it (known on `asKnownOn`) whose years carry, each from its
   * year's result as known on `asKnownOn` (like every figure, a correction published later changes it).
   */
  private async balancesInto(em: EntityManager, producer: Producer, law: LawBook, into: Array<{ year: number; communicatedOn: IsoDate }>, asKnownOn: IsoDate): Promise<BalanceIn[]> {
    const balances: BalanceIn[] = [];
    for (const e of into) {
      if (!balanceCarries(law, e.year, asKnownOn)) continue;
      const [earlier] = await this.evaluate(em, [producer], { law, year: e.year, asKnownOn, listExcluded: false });
      if (earlier instanceof Error) throw earlier;
      const out = earlier.result.balance.carriedOut;
      if (out) balances.push(balanceIn({ year: e.year, communicatedOn: e.communicatedOn }, out));
    }
    return balances;
  }
}

/**
 * The rows of the groups that do not count, each with its group's findings, by producer. Only the
 * purchases of the contracts and organizations of those groups are examined (a first, cheap
 * filter, before the joins); the rows are then matched to the groups by their producer and all their facts.
 */
async function excludedItems(
  em: EntityManager,
  producers: readonly Producer[],
  outcomes: ReadonlyArray<{ result: SealComplianceResult } | Error>,
  params: unknown[],
  ownSuppliers: boolean,
  purchaseGroup: { rowsOf: RowsOf<PurchaseGroupRow & { producer_id: string }>; keyOf: (r: Row) => string },
  fomentoGroup: RowsOf<FomentoGroupRow & { producer_id: string }>,
): Promise<Map<string, ExcludedItem[]>> {
  const items = new Map<string, ExcludedItem[]>();
  const add = (producerId: string, item: ExcludedItem) => {
    // Appended in place: copying the list for each row made a year of many excluded rows quadratic.
    const list = items.get(producerId);
    if (list) list.push(item);
    else items.set(producerId, [item]);
  };
  const purchaseFindings = new Map<string, Finding[]>();
  const fomentoFindings = new Map<string, Finding[]>();
  const purchaseGroups: Array<PurchaseGroupRow & { producer_id: string }> = [];
  const fomentoGroups: Array<FomentoGroupRow & { producer_id: string }> = [];
  outcomes.forEach((o, i) => {
    if (o instanceof Error) return;
    const id = producers[i].id;
    for (const e of o.result.excluded.filter((x) => !x.key.startsWith(HYPOTHETICAL))) {
      (e.source === 'PURCHASE' ? purchaseFindings : fomentoFindings).set(`${id}|${e.key}`, e.findings);
      if (e.source === 'PURCHASE') purchaseGroups.push(...purchaseGroup.rowsOf(id, e.key));
      else fomentoGroups.push(...fomentoGroup(id, e.key));
    }
  });
  if (purchaseFindings.size) {
    const groups = purchaseGroups;

    const n = params.length;
    const arrays = PURCHASE_GROUP_COLUMNS.map(([name]) => groups.map((g) => (g as unknown as Row)[name]));
    const tuple = PURCHASE_GROUP_COLUMNS.map(([, type], i) => `$${n + 4 + i}::${type}[]`).join(', ');
    const rows: Row[] = await em.query(
      `SELECT id, producer_id::text AS producer_id, cost, ${PURCHASE_COLUMNS}
         FROM (${purchaseFacts(ofContractsAndOrganizations(n + 1, n + 2), ownSuppliers)}) f
        WHERE (producer_id, ${PURCHASE_COLUMNS}) IN (SELECT * FROM unnest($${n + 3}::bigint[], ${tuple}))
        ORDER BY id`,
      [...params, ...contractsAndOrganizations(groups), groups.map((g) => g.producer_id), ...arrays],
    );
    for (const r of rows) {
      add(String(r.producer_id), { id: String(r.id), source: 'PURCHASE', amount: new Decimal(r.cost as string), findings: purchaseFindings.get(`${String(r.producer_id)}|${purchaseGroup.keyOf(r)}`) ?? [] });
    }
  }
  if (fomentoFindings.size) {
    const groups = fomentoGroups;
    const rows: Row[] = await em.query(
      `SELECT id, producer_id::text AS producer_id, amount, region, semiarid, segment FROM (${FOMENTO_FACTS}) f
        WHERE (producer_id, region, semiarid, segment) IN (SELECT * FROM unnest($5::bigint[], $6::text[], $7::boolean[], $8::integer[])) ORDER BY id`,
      [...params.slice(0, 4), groups.map((g) => g.producer_id), groups.map((g) => g.region), groups.map((g) => g.semiarid), groups.map((g) => g.segment)],
    );
    for (const r of rows) {
      add(String(r.producer_id), { id: String(r.id), source: 'FOMENTO_EXPENSE', amount: new Decimal(r.amount as string), findings: fomentoFindings.get(`${String(r.producer_id)}|${keyOf(r, FOMENTO_COLUMNS)}`) ?? [] });
    }
  }
  return items;
}

/**
 * Whether a producer's year has fewer purchases than the farmers' registrations: then its statements
 * aggregate only its suppliers' registrations (a national producer: 425 → 300 ms); a larger year
 * aggregates all of them (the 1M year: 4.6 → 2.6 s). Counted up to the estimate, so it stops early.
 */
async function fewerRowsThanRegistrations(em: EntityManager, producerId: string, from: IsoDate, to: IsoDate): Promise<boolean> {
  const [{ few }] = await em.query(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM ${COUNTED_PURCHASE} p WHERE p.producer_id = $1 AND p.counted_on BETWEEN $2::date AND $3::date LIMIT r.n) x) < r.n AS few
       FROM (SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = 'family_farmer_registration'::regclass) r`,
    [producerId, from, to]);
  return few === true;
}

/**
 * A page of each year's counted rows (art. 3º §2º I a–c): every purchase and fomento expense of its
 * counted groups, purchases first, by id, each with its group's factors; the years of one
 * (year, asKnownOn) in one statement. `offset` rows are skipped, `first` returned, with the total.
 */
export async function countedRows(
  em: EntityManager, sources: readonly CountedSource[], first: number, offset: number,
): Promise<Array<{ total: number; rows: CountedRow[] }>> {
  if (sources.length === 0) return [];
  const params = [sources.map((s) => s.producerId), ...sources[0].params.slice(1)];
  const n = params.length;
  const purchases = sources.flatMap((s, si) => s.purchases.map((g, gi) => ({ producerId: s.producerId, row: g.row, ref: `${si}.${gi}` })));
  const fomento = sources.flatMap((s, si) => s.fomento.map((g, gi) => ({ producerId: s.producerId, row: g.row, ref: `${si}.${gi}` })));
  const cols = PURCHASE_GROUP_COLUMNS.map(([name, type], i) => ({ name, cast: `$${n + 2 + i}::${type}[]` }));
  const at = n + 2 + cols.length;
  // The first row of each year comes too, for its total when the page is past the end.
  const rows: Array<{ id: string; producer_id: string; source: 'PURCHASE' | 'FOMENTO_EXPENSE'; amount: string; ref: string; ater: boolean; total: string; k: string }> = await em.query(
    `WITH pg AS (SELECT * FROM unnest($${n + 1}::bigint[], ${cols.map((c) => c.cast).join(', ')}, $${at}::text[]) AS g(producer_id, ${cols.map((c) => c.name).join(', ')}, ref)),
          fg AS (SELECT * FROM unnest($${at + 1}::bigint[], $${at + 2}::text[], $${at + 3}::boolean[], $${at + 4}::integer[], $${at + 5}::text[]) AS g(producer_id, region, semiarid, segment, ref)),
          counted AS (
            SELECT f.id, f.producer_id, 'PURCHASE' AS source, f.cost AS amount, pg.ref, false AS ater
              FROM (${purchaseFacts(ofContractsAndOrganizations(at + 6, at + 7), sources.length === 1 && sources[0].ownSuppliers)}) f
              JOIN pg ON pg.producer_id = f.producer_id AND ${cols.map((c) => `pg.${c.name} = f.${c.name}`).join(' AND ')}
            UNION ALL
            SELECT f.id, f.producer_id, 'FOMENTO_EXPENSE', f.amount, fg.ref, f.kind = '${FomentoKind.TECHNICAL_ASSISTANCE}'
              FROM (${FOMENTO_FACTS}) f JOIN fg ON fg.producer_id = f.producer_id AND fg.region = f.region AND fg.semiarid = f.semiarid AND fg.segment = f.segment),
          numbered AS (SELECT c.*, row_number() OVER w AS k, count(*) OVER (PARTITION BY c.producer_id) AS total FROM counted c
                        WINDOW w AS (PARTITION BY c.producer_id ORDER BY c.source = 'FOMENTO_EXPENSE', c.id))
     SELECT id::text, producer_id::text, source, amount, ref, ater, total, k FROM numbered
      WHERE (k > $${at + 8} AND k <= $${at + 8} + $${at + 9}) OR k = 1 ORDER BY producer_id, k`,
    [
      ...params, purchases.map((g) => g.producerId), ...cols.map((c) => purchases.map((g) => (g.row as unknown as Row)[c.name])), purchases.map((g) => g.ref),
      fomento.map((g) => g.producerId), fomento.map((g) => g.row.region), fomento.map((g) => g.row.semiarid), fomento.map((g) => g.row.segment), fomento.map((g) => g.ref),
      ...contractsAndOrganizations(purchases.map((g) => g.row)), offset, first,
    ],
  );
  return sources.map((s, si) => {
    const mine = rows.filter((r) => r.producer_id === s.producerId && r.ref.startsWith(`${si}.`));
    return {
      total: mine.length ? Number(mine[0].total) : 0,
      rows: mine.filter((r) => withinPage(Number(r.k), offset, first)).map((r) => {
        const [, gi] = r.ref.split('.').map(Number);
        if (r.source === 'PURCHASE') return { id: r.id, source: r.source, actual: new Decimal(r.amount), item: s.purchases[gi].item };
        // Arts. 15–16: of a fomento group, only its technical-assistance expenses say ATER_COST_AS_DECLARED.
        const group = s.fomento[gi].item;
        return { id: r.id, source: r.source, actual: new Decimal(r.amount), item: { ...group, findings: fomentoExpenseFindings(group.findings, r.ater) } };
      }),
    };
  });
}

function withinPage(k: number, offset: number, first: number): boolean {
  return k > offset && k <= offset + first;
}

/** A producer's SQL group rows of a key. */
type RowsOf<T> = (producerId: string, key: string) => T[];

/** The rows of each producer by their key, as a lookup that every key asked for exists in. */
function keyedWithin<T>(rows: Map<string, T[]>, key: (r: T) => string): RowsOf<T> {
  const maps = new Map([...rows].map(([producerId, list]) => [producerId, groupBy(list, key)]));
  return (producerId, k) => {
    const found = maps.get(producerId)?.get(k);
    if (!found) throw new Error(`No group ${k} of producer ${producerId}`);
    return found;
  };
}

/** The distinct keys of some rows, in the order first met. */
function keysOf(rows: ReadonlyArray<{ key?: string }> | undefined): Set<string> {
  return new Set((rows ?? []).map((r) => r.key!));
}

function byProducer<T extends { producer_id: string }>(rows: readonly T[]): Map<string, T[]> {
  return groupBy(rows, (r) => r.producer_id);
}
