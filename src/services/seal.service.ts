import { DataSource, EntityManager, In } from 'typeorm';
import { Producer, SealEvent, SealGrant } from '../domain';
import { SealEventKind } from '../law/types';
import { Actor } from './actor';
import { BadInputError, NotFoundError } from './errors';
import { isId, optionalText, requireDate, requireWritableProducers, visibleProducerIds } from './record-batch';
import { assertAdmin, assertVisible, canSee } from './scope';
import { mutate } from './transaction';
import { requireOrder } from './validation';
import { message } from '../i18n';

export interface GrantSealInput {
  producerId: string;
  grantedOn: string;
  validUntil: string;
  act?: string | null;
}

export interface SealEventInput {
  grantId: string;
  kind: SealEventKind;
  effectiveOn: string;
  reason?: string | null;
  validUntil?: string | null;
}

/** A producer named by id exists and the actor may see it; otherwise NOT_FOUND (the access rules, README "Tokens"). */
export async function requireVisibleProducer(ds: DataSource, actor: Actor, producerId: string): Promise<void> {
  const exists = isId(producerId) && canSee(actor, producerId) && (await ds.getRepository(Producer).existsBy({ id: producerId }));
  if (!exists) throw new NotFoundError('Producer', producerId);
}

/**
 * The Selo's administrative acts (Decreto 10.527/2020, art. 4º I, III, V): grants to a producer,
 * and their suspension, reinstatement, cancellation and renewal. ADMIN only (the access rules, README "Tokens"). The
 * standing on a date is computed by the law from these records.
 */
export class SealService {
  constructor(private readonly ds: DataSource) {}

  /** A grant by id, within the actor's scope (another producer's grant is NOT_FOUND). */
  async get(actor: Actor, id: string): Promise<SealGrant> {
    const grant = isId(id) ? await this.ds.getRepository(SealGrant).findOneBy({ id }) : null;
    if (!grant) throw new NotFoundError('SealGrant', id);
    assertVisible(actor, 'SealGrant', id, grant.producerId);
    return grant;
  }

  /** Query.sealGrants: the grants of one producer; unknown or out of scope is NOT_FOUND. */
  async grantsOfProducer(actor: Actor, producerId: string): Promise<SealGrant[]> {
    await requireVisibleProducer(this.ds, actor, producerId);
    return this.grantsOf(actor, [producerId]);
  }

  /** The grants of many producers at once (scoped), by grantedOn then id. */
  async grantsOf(actor: Actor, producerIds: readonly string[], em: EntityManager = this.ds.manager): Promise<SealGrant[]> {
    const wanted = visibleProducerIds(actor, producerIds);
    if (wanted.length === 0) return [];
    return em.getRepository(SealGrant).find({ where: { producerId: In(wanted) }, order: { grantedOn: 'ASC', id: 'ASC' } });
  }

  /** The events of many grants at once, in the order they were recorded (the law relies on it). */
  async eventsOf(grantIds: readonly string[], em: EntityManager = this.ds.manager): Promise<SealEvent[]> {
    const wanted = [...new Set(grantIds.filter(isId))];
    if (wanted.length === 0) return [];
    return em.getRepository(SealEvent).find({ where: { grantId: In(wanted) }, order: { id: 'ASC' } });
  }

  async grant(actor: Actor, input: GrantSealInput): Promise<SealGrant> {
    assertAdmin(actor);
    return mutate(this.ds, actor, async (em) => {
      const grantedOn = requireDate(input.grantedOn, 'input.grantedOn');
      const validUntil = requireDate(input.validUntil, 'input.validUntil');
      requireOrder(grantedOn, validUntil, 'input.validUntil', message('input.notBefore', { field: 'input.validUntil', other: 'grantedOn' }));
      await requireWritableProducers(em, actor, [{ field: 'input.producerId', id: input.producerId }]);
      const repo = em.getRepository(SealGrant);
      const grant = await repo.save(repo.create({ producerId: input.producerId, grantedOn, validUntil, act: optionalText(input.act) }));
      return { result: grant, audit: [{ operation: 'grantSeal', entity: 'SealGrant', entityId: grant.id, producerId: grant.producerId, after: grant }] };
    });
  }

  /**
   * Record an event on a grant. RENEWED carries the new end of validity, after the grant's current
   * end (its validUntil or the latest renewal's); the other kinds carry none. Returns the grant.
   */
  async recordEvent(actor: Actor, input: SealEventInput): Promise<SealGrant> {
    assertAdmin(actor);
    return mutate(this.ds, actor, async (em) => {
      const effectiveOn = requireDate(input.effectiveOn, 'input.effectiveOn');
      if (!Object.values(SealEventKind).includes(input.kind)) throw new BadInputError('input.kind', message('seal.notAnEvent', { field: 'input.kind' }));
      // The grant row is locked so that two renewals cannot both pass the "after the current end" check.
      const grant = isId(input.grantId)
        ? await em.getRepository(SealGrant).createQueryBuilder('g').setLock('pessimistic_write').where('g.id = :id', { id: input.grantId }).getOne()
        : null;
      if (!grant) throw new NotFoundError('SealGrant', input.grantId);
      if (effectiveOn < grant.grantedOn) throw new BadInputError('input.effectiveOn', message('seal.beforeGrant', { field: 'input.effectiveOn' }));
      let validUntil: string | null = null;
      if (input.kind === SealEventKind.RENEWED) {
        if (input.validUntil == null) throw new BadInputError('input.validUntil', message('seal.renewalNeedsValidUntil'));
        validUntil = requireDate(input.validUntil, 'input.validUntil');
        const [{ end }] = await em.query(
          `SELECT GREATEST($2::date, MAX(valid_until))::text AS "end" FROM seal_event WHERE grant_id = $1 AND kind = 'RENEWED'`,
          [grant.id, grant.validUntil],
        );
        if (validUntil <= end) throw new BadInputError('input.validUntil', message('seal.renewalNotAfterEnd', { field: 'input.validUntil', end: String(end) }));
      } else if (input.validUntil != null) {
        throw new BadInputError('input.validUntil', message('seal.onlyRenewalHasValidUntil', { kind: String(input.kind) }));
      }
      const repo = em.getRepository(SealEvent);
      const event = await repo.save(repo.create({ grantId: grant.id, kind: input.kind, effectiveOn, reason: optionalText(input.reason), validUntil }));
      return { result: grant, audit: [{ operation: 'recordSealEvent', entity: 'SealEvent', entityId: event.id, producerId: grant.producerId, after: event }] };
    });
  }
}
