import { DataSource, EntityManager } from 'typeorm';
import { Producer, SealEvaluation } from '../../domain';
import { IsoDate } from '../../law/dates';
import { Actor } from '../actor';
import { BadInputError, ConflictError, NotFoundError } from '../errors';
import { isId, optionalText, requireDate } from '../record-batch';
import { requireYear } from '../validation';
import { assertAdmin } from '../scope';
import { mutate } from '../transaction';
import { message } from '../../i18n';

export interface RecordSealEvaluationInput {
  producerId: string;
  year: number;
  communicatedOn: string;
  note?: string | null;
}

/**
 * The evaluations of a producer's Selo years as the ministry communicates them (Portaria MDA nº
 * 28/2024, art. 58): from its communication a year's balance counts toward the year after. One per
 * producer and year; recording one is the ministry's act (ADMIN).
 */
export class SealEvaluationService {
  constructor(private readonly ds: DataSource) {}

  /** recordSealEvaluation: ADMIN only; a second evaluation of the same year is CONFLICT/DUPLICATE; nothing is written on bad input. */
  async record(actor: Actor, input: RecordSealEvaluationInput): Promise<SealEvaluation> {
    assertAdmin(actor);
    requireYear(input.year, 'input.year');
    const communicatedOn = requireDate(input.communicatedOn, 'input.communicatedOn');
    // The result of a calendar year is communicated after it ends (art. 58: "a avaliação é por ano civil").
    if (communicatedOn <= `${input.year}-12-31`) {
      throw new BadInputError('input.communicatedOn', message('seal.evaluationBeforeYearEnd', { field: 'input.communicatedOn', year: input.year }));
    }
    return mutate(this.ds, actor, async (em) => {
      if (!isId(input.producerId) || !(await em.getRepository(Producer).existsBy({ id: input.producerId }))) throw new NotFoundError('Producer', input.producerId);
      // A concurrent one is caught by UNIQUE (producer_id, year) (pg-errors.ts).
      if (await em.getRepository(SealEvaluation).existsBy({ producerId: input.producerId, year: input.year })) {
        throw new ConflictError('DUPLICATE', message('seal.evaluationRecorded', { year: input.year }), 'input.year');
      }
      const repo = em.getRepository(SealEvaluation);
      const saved = await repo.save(repo.create({ producerId: input.producerId, year: input.year, communicatedOn, note: optionalText(input.note) }));
      return { result: saved, audit: [{ operation: 'recordSealEvaluation', entity: 'SealEvaluation', entityId: saved.id, producerId: saved.producerId, after: saved }] };
    });
  }

  /**
   * The evaluations of producers known on `asKnownOn` (communicated by then), by producer: that of
   * `year`, and those communicated in the year before it, whose balances count toward `year` (art. 58).
   */
  async forYears(em: EntityManager, producerIds: readonly string[], year: number, asKnownOn: IsoDate): Promise<Map<string, { own: SealEvaluation | null; into: SealEvaluation[] }>> {
    const rows = await em.getRepository(SealEvaluation).createQueryBuilder('e')
      .where('e.producer_id IN (:...producerIds) AND e.communicated_on <= :asKnownOn', { producerIds, asKnownOn })
      .andWhere('(e.year = :year OR e.communicated_on BETWEEN :from AND :to)', { year, from: `${year - 1}-01-01`, to: `${year - 1}-12-31` })
      .orderBy('e.year', 'ASC').getMany();
    return new Map(producerIds.map((id) => {
      const own = rows.filter((r) => r.producerId === id);
      return [id, { own: own.find((r) => r.year === year) ?? null, into: own.filter((r) => r.year !== year && r.communicatedOn.startsWith(`${year - 1}-`)) }];
    }));
  }
}
