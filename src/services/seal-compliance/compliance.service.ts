import { DataSource, EntityManager } from 'typeorm';
import { Producer } from '../../domain';
import { IsoDate } from '../../law/dates';
import { LawBook } from '../../law/law-book';
import { SealComplianceResult } from '../../law/seal-year';
import { present } from '../../law/seal-presentation';
import { Actor } from '../actor';
import { BadInputError, NotFoundError } from '../errors';
import { isId } from '../record-batch';
import { assertVisible } from '../scope';
import { ContractConformityService } from './contract-conformity.service';
import { SealEvaluationService } from './seal-evaluation.service';
import { ComplianceYears, ExcludedItem, ExtraGroups, YearOutcome } from './compliance-year';
import { message } from '../../i18n';

export { HYPOTHETICAL } from './compliance-year';
export type { ExcludedItem, ExtraGroups } from './compliance-year';

/** The year's figures as shown (money to the centavo, shares to 6 decimals), with the excluded items. */
export type SealComplianceReport = ReturnType<typeof present> & { producer: Producer; excluded: ExcludedItem[] };

/** A producer's year asked for (Producer.sealCompliance): the producer is already within the caller's scope. */
export interface YearAskedOf {
  producer: Producer;
  year: number;
  asKnownOn: IsoDate;
}

/**
 * The Selo's annual family-farming targets (Decreto 10.527/2020, art. 3º §2 I–III, §3º). The year's
 * sums are SQL aggregates grouped by the facts the law needs (purchase-facts.sql.ts);
 * src/law/seal-compliance.ts decides what counts, group by group. Only the rows of the groups that
 * do not count are then read, for the `excluded` list.
 */
export class SealComplianceService {
  private readonly years: ComplianceYears;

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
   * Producer.sealCompliance for the rows of a page at once (the producers already within the
   * caller's scope): the years asked grouped by (year, asKnownOn), each group computed in the
   * statements of one producer's year (compliance-year.ts), in one snapshot. A bad year or date is
   * the error of the producers asking it; a year the law refuses, the error of its producer only.
   */
  async ofPage(asked: readonly YearAskedOf[]): Promise<Array<SealComplianceReport | Error>> {
    const shown: Array<SealComplianceReport | Error> = new Array(asked.length);
    const groups = new Map<string, { year: number; asKnownOn: IsoDate; indexes: number[] }>();
    asked.forEach((a, i) => {
      try {
        if (!Number.isInteger(a.year) || a.year < 2000 || a.year > 9999) throw new BadInputError('year', message('input.year', { field: 'year', example: 2025 }));
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
    await this.ds.transaction('REPEATABLE READ', async (em) => {
      for (const { year, asKnownOn, indexes } of groups.values()) {
        const producers = [...new Map(indexes.map((i) => [asked[i].producer.id, asked[i].producer])).values()];
        const outcomes = await this.years.evaluate(em, producers, { law, year, asKnownOn, listExcluded: true });
        const byId = new Map(producers.map((p, n) => [p.id, outcomes[n]]));
        for (const i of indexes) {
          const outcome = byId.get(asked[i].producer.id)!;
          shown[i] = outcome instanceof Error ? outcome : report(asked[i].producer, outcome);
        }
      }
    });
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
    return this.ds.transaction('REPEATABLE READ', async (em) => {
      await em.query('SET TRANSACTION READ ONLY');
      const recorded = await this.one(em, producer, { law, year, asKnownOn, listExcluded: true });
      const planned = await this.one(em, producer, { law, year, asKnownOn, listExcluded: true, extra });
      return { law, recorded: report(producer, recorded), withExtra: { ...report(producer, planned), result: planned.result } };
    });
  }

  private async one(em: EntityManager, producer: Producer, asked: Parameters<ComplianceYears['evaluate']>[2]): Promise<YearOutcome> {
    const [outcome] = await this.years.evaluate(em, [producer], asked);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }
}

function report(producer: Producer, outcome: YearOutcome): SealComplianceReport {
  return { ...present(outcome.result), producer, excluded: outcome.excluded };
}
