import { DataSource, EntityManager } from 'typeorm';
import { Producer } from '../../domain';
import { IsoDate } from '../../law/dates';
import { LawBook } from '../../law/law-book';
import type { SealComplianceResult } from '../../law/seal-year';
import { Actor } from '../actor';
import { NotFoundError } from '../errors';
import { checkListPage } from '../pagination';
import { isId } from '../record-batch';
import { requireYear } from '../validation';
import { assertVisible } from '../scope';
import { ContractConformityService } from './contract-conformity.service';
import { SealEvaluationService } from './seal-evaluation.service';
import { ComplianceYears, CountedSource, countedRows, ExcludedItem, ExtraGroups, YearOutcome } from './compliance-year';
import { CountedItem } from '../../law/seal-year';
import { Decimal } from '../../law/decimal';
import { money, present } from '../../law/seal-presentation';
import { Turns } from '../turns';
import { stopIfAnswered } from '../../request-context';

/** Selo years computed at once in a process, each in its own snapshot: as many as the cores. */
export const YEARS_AT_ONCE = 2;

export { HYPOTHETICAL } from './compliance-year';
export type { ExcludedItem, ExtraGroups } from './compliance-year';

/** The year's figures as shown (money to the centavo, shares to 6 decimals), with the excluded items. */
export type SealComplianceReport = ReturnType<typeof present> & {
  producer: Producer; excluded: ExcludedItem[]; countedSource?: CountedSource;
  /** Read back from the program's stored years without its counted groups: `countedItems` computes the year again. */
  countedLater?: boolean;
};

/** A page of a year's counted rows asked for (SealCompliance.countedItems). */
export interface CountedPageAsked {
  source: CountedSource;
  first: number;
  offset: number;
}

/** A page of counted purchases and fomento expenses, each with its factors and values as shown. */
export interface CountedPage {
  totalCount: number;
  offset: number;
  items: Array<{
    id: string; source: 'PURCHASE' | 'FOMENTO_EXPENSE'; kind: CountedItem['kind']; actual: Decimal; factors: CountedItem['factors'];
    weight: Decimal | null; weighted: Decimal | null; priorityRegion: boolean; findings: CountedItem['findings'];
  }>;
}

/** A producer's year asked for (Producer.sealCompliance): the producer is already within the caller's scope. */
export interface YearAskedOf {
  producer: Producer;
  year: number;
  asKnownOn: IsoDate;
}

/**
 * The Selo's annual targets (Decreto 10.527/2020 art. 3º §§2º–3º): grouped SQL sums, decided by
 * src/law/seal-spending.ts; only excluded groups' rows are read back.
 */
export class SealComplianceService {
  private readonly years: ComplianceYears;
  /** Years computed in their own snapshot, two at a time (two cores); a program year passes its own. */
  private readonly turns = new Turns(YEARS_AT_ONCE);

  constructor(
    private readonly ds: DataSource,
    private readonly lawBook: () => Promise<LawBook>,
    contracts: ContractConformityService,
    evaluations: SealEvaluationService,
  ) {
    this.years = new ComplianceYears(contracts, evaluations);
  }

  /** sealCompliance(producerId, year, asKnownOn): ADMIN and AUDITOR any producer, a PRODUCER its own. */
  async forProducer(actor: Actor, producerId: string, year: number, asKnownOn: IsoDate): Promise<SealComplianceReport> {
    const producer = isId(producerId) ? await this.ds.getRepository(Producer).findOneBy({ id: producerId }) : null;
    if (!producer) throw new NotFoundError('Producer', producerId);
    assertVisible(actor, 'Producer', producerId, producer.id);
    return this.compute(producer, year, asKnownOn);
  }

  /** Producer.sealCompliance of one producer: the producer was already resolved within the caller's scope. */
  async compute(producer: Producer, year: number, asKnownOn: IsoDate): Promise<SealComplianceReport> {
    const [report] = await this.ofPage([{ producer, year, asKnownOn }]);
    if (report instanceof Error) throw report;
    return report;
  }

  /**
   * Producer.sealCompliance for a page, grouped by (year, asKnownOn), one snapshot (`em`'s when
   * given); a bad date fails its askers, a year the law refuses its producer only.
   */
  async ofPage(asked: readonly YearAskedOf[], em?: EntityManager): Promise<Array<SealComplianceReport | Error>> {
    const shown: Array<SealComplianceReport | Error> = new Array(asked.length);
    const groups = new Map<string, { year: number; asKnownOn: IsoDate; indexes: number[] }>();
    asked.forEach((a, i) => {
      try {
        requireYear(a.year, 'year');
        const key = `${a.year}|${a.asKnownOn}`;
        const group = groups.get(key) ?? { year: a.year, asKnownOn: a.asKnownOn, indexes: [] };
        group.indexes.push(i);
        groups.set(key, group);
      } catch (error) {
        shown[i] = error as Error;
      }
    });
    if (groups.size === 0) return shown;
    const law = await this.lawBook();
    // One snapshot for every statement of the page's years, so the excluded rows match the sums even
    // while records are written.
    const evaluate = async (tx: EntityManager) => {
      for (const { year, asKnownOn, indexes } of groups.values()) {
        // Many years in one page outlast the request timeout: a request answered stops here.
        stopIfAnswered();
        const producers = [...new Map(indexes.map((i) => [asked[i].producer.id, asked[i].producer])).values()];
        const outcomes = await this.years.evaluate(tx, producers, { law, year, asKnownOn, listExcluded: true });
        const byId = new Map(producers.map((p, n) => [p.id, outcomes[n]]));
        for (const i of indexes) {
          const outcome = byId.get(asked[i].producer.id)!;
          shown[i] = outcome instanceof Error ? outcome : report(asked[i].producer, outcome);
        }
      }
    };
    await (em ? evaluate(em) : this.turns.run(() => this.ds.transaction('REPEATABLE READ', evaluate)));
    return shown;
  }

  /**
   * sealPlan: the year as recorded and with `extra` groups (hypothetical items) evaluated as if they
   * were recorded, in one read-only snapshot: nothing is written.
   */
  async recordedAndWith(
    producer: Producer, year: number, asKnownOn: IsoDate, extra: ExtraGroups,
  ): Promise<{ law: LawBook; recorded: SealComplianceReport; withExtra: SealComplianceReport & { result: SealComplianceResult } }> {
    const law = await this.lawBook();
    return this.turns.run(() => this.ds.transaction('REPEATABLE READ', async (em) => {
      await em.query('SET TRANSACTION READ ONLY');
      const recorded = await this.one(em, producer, { law, year, asKnownOn, listExcluded: true });
      const planned = await this.one(em, producer, { law, year, asKnownOn, listExcluded: true, extra });
      return { law, recorded: report(producer, recorded), withExtra: { ...report(producer, planned), result: planned.result } };
    }));
  }

  /**
   * SealCompliance.countedItems: a page of each year's counted rows, the years sharing the same
   * parameters (year, asKnownOn) and page read in one statement (`countedRows`).
   */
  async countedPages(asked: readonly CountedPageAsked[]): Promise<Array<CountedPage | Error>> {
    const out: Array<CountedPage | Error> = new Array(asked.length);
    const groups = new Map<string, number[]>();
    asked.forEach((a, i) => {
      try {
        checkListPage(a.first, a.offset);
      } catch (error) {
        out[i] = error as Error;
        return;
      }
      const key = `${JSON.stringify(a.source.params.slice(1))}|${a.first}|${a.offset}`;
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    for (const indexes of groups.values()) {
      const { first, offset } = asked[indexes[0]];
      const pages = await countedRows(this.ds.manager, indexes.map((i) => asked[i].source), first, offset);
      indexes.forEach((i, n) => {
        out[i] = {
          totalCount: pages[n].total,
          offset,
          items: pages[n].rows.map((r) => ({
            id: r.id, source: r.source, kind: r.item.kind, actual: money(r.actual), factors: r.item.factors, weight: r.item.weight,
            weighted: r.item.weight && money(r.actual.times(r.item.weight)), priorityRegion: r.item.priorityRegion, findings: r.item.findings,
          })),
        };
      });
    }
    return out;
  }

  private async one(em: EntityManager, producer: Producer, asked: Parameters<ComplianceYears['evaluate']>[2]): Promise<YearOutcome> {
    const [outcome] = await this.years.evaluate(em, [producer], asked);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }
}

function report(producer: Producer, outcome: YearOutcome): SealComplianceReport {
  return { ...present(outcome.result), producer, excluded: outcome.excluded, countedSource: outcome.counted };
}
