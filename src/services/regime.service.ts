import { DataSource, EntityManager, In } from 'typeorm';
import { RegimeElection } from '../domain';
import { firstDayOfMonth, IsoDate, today, yearOf } from '../law/dates';
import { electionDateBounds, electionEffectiveYear, electionStart } from '../law/regime';
import { Finding } from '../law/findings';
import { TaxRegime } from '../law/types';
import { Actor } from './actor';
import { BadInputError, ConflictError } from './errors';
import { requireDate, requireWritableProducers, visibleProducerIds } from './record-batch';
import { requireVisibleProducer } from './seal.service';
import { mutate } from './transaction';
import { message } from '../i18n';
import { activeSql } from './record-state';

export interface ElectRegimeInput {
  producerId: string;
  regime: TaxRegime;
  electedOn: string;
  startingActivity?: boolean | null;
}

/**
 * Lei 11.116/2005, art. 4º §4º — a company starting activity elects in its first month: a producer
 * that already sold biodiesel in an earlier month of the year is not starting it (CONFLICT
 * ALREADY_SOLD_IN_YEAR, with the first such sale's date in `firstSaleOn`). Sales earlier in the
 * election's own month do not refuse it: the election governs from that month's first day
 * (`electionStart`), so they are taxed under it.
 */
async function refuseWhenAlreadySold(em: EntityManager, producerId: string, electedOn: IsoDate, effectiveYear: number): Promise<void> {
  const governsFrom = electionStart({ regime: TaxRegime.SPECIAL_PER_M3, electedOn, startingActivity: true, effectiveYear });
  const [row]: Array<{ first: string | null }> = await em.query(
    `SELECT to_char(min(sold_on), 'YYYY-MM-DD') AS first FROM sale WHERE producer_id = $1 AND sold_on >= $2::date AND sold_on < $3::date AND ${activeSql()}`,
    [producerId, firstDayOfMonth(yearOf(electedOn), 1), governsFrom],
  );
  if (row?.first) {
    throw new ConflictError('ALREADY_SOLD_IN_YEAR', message('regime.alreadySoldInYear', { firstSaleOn: row.first, year: yearOf(electedOn) }),
      'input.startingActivity', { firstSaleOn: row.first });
  }
}

/**
 * Elections of the PIS/Cofins regime (Lei 11.116/2005, art. 4º §§1º, 4º, 5º). The effective year
 * comes from the law (src/law/regime.ts); one election per producer and year, so a second one
 * for a year already elected is CONFLICT/REGIME_ALREADY_ELECTED.
 */
export class RegimeService {
  constructor(private readonly ds: DataSource) {}

  /** Lei 11.116/2005, art. 4º §1º — what the law noticed of an election (ELECTION_AFTER_DEADLINE). */
  findingsOf(e: Pick<RegimeElection, 'electedOn' | 'startingActivity'>): Finding[] {
    return electionEffectiveYear(e.electedOn, e.startingActivity).findings;
  }

  /** Lei 11.116/2005, art. 4º §§1º, 4º–5º — the first day an election governs. */
  effectiveFrom(e: RegimeElection): IsoDate {
    return electionStart(e);
  }

  /** Query.regimeElections: the elections of one producer; unknown or out of scope is NOT_FOUND. */
  async electionsOfProducer(actor: Actor, producerId: string): Promise<RegimeElection[]> {
    await requireVisibleProducer(this.ds, actor, producerId);
    return this.electionsOf(actor, [producerId]);
  }

  /** The elections of many producers at once (scoped), by effectiveYear. */
  async electionsOf(actor: Actor, producerIds: readonly string[]): Promise<RegimeElection[]> {
    const wanted = visibleProducerIds(actor, producerIds);
    if (wanted.length === 0) return [];
    return this.ds.getRepository(RegimeElection).find({ where: { producerId: In(wanted) }, order: { effectiveYear: 'ASC', id: 'ASC' } });
  }

  /** ADMIN, or the PRODUCER for itself. */
  async elect(actor: Actor, input: ElectRegimeInput): Promise<RegimeElection> {
    return mutate(this.ds, actor, async (em) => {
      await requireWritableProducers(em, actor, [{ field: 'input.producerId', id: input.producerId }]);
      if (!Object.values(TaxRegime).includes(input.regime)) throw new BadInputError('input.regime', message('regime.notARegime', { field: 'input.regime' }));
      const electedOn = requireDate(input.electedOn, 'input.electedOn');
      const bounds = electionDateBounds(today());
      if (electedOn < bounds.from || electedOn > bounds.to) {
        throw new BadInputError('input.electedOn', message('regime.electedOnRange', { field: 'input.electedOn', ...bounds }));
      }
      const startingActivity = input.startingActivity ?? false;
      const { effectiveYear } = electionEffectiveYear(electedOn, startingActivity);
      if (startingActivity) await refuseWhenAlreadySold(em, input.producerId, electedOn, effectiveYear);
      // A concurrent election for the same year is caught by UNIQUE (producer_id, effective_year) (pg-errors.ts).
      if (await em.getRepository(RegimeElection).existsBy({ producerId: input.producerId, effectiveYear })) {
        throw new ConflictError('REGIME_ALREADY_ELECTED', message('regime.alreadyElected', { year: effectiveYear }), 'input.electedOn');
      }
      const repo = em.getRepository(RegimeElection);
      const election = await repo.save(repo.create({ producerId: input.producerId, regime: input.regime, electedOn, startingActivity, effectiveYear }));
      return { result: election, audit: [{ operation: 'electRegime', entity: 'RegimeElection', entityId: election.id, producerId: election.producerId, after: election }] };
    });
  }
}
