import { DataSource, EntityManager, In } from 'typeorm';
import { Producer } from '../domain';
import { Actor } from './actor';
import { BadInputError, ConflictError, ForbiddenError, NotFoundError } from './errors';
import { Role } from '../law/types';
import { Connection, PageArgs } from './pagination';
import { keysetPage, PRODUCER_KEYSET } from './keysets';
import { assertAdmin, assertCanWriteFor, assertVisible, visibleProducerId } from './scope';
import { isId } from './record-batch';
import { mutate } from './transaction';
import { requireMunicipalities, requireText } from './validation';
import { message } from '../i18n';

export interface CreateProducerInput {
  cnpj: string;
  legalName: string;
  plantMunicipalityCode: string;
  anpAuthorization?: string | null;
  /** CNPJs (bare, checked) of the producer's other establishments. */
  establishments?: string[] | null;
}

export interface UpdateProducerInput {
  legalName?: string | null;
  anpAuthorization?: string | null;
  plantMunicipalityCode?: string | null;
  /** Replaces the list (ADMIN only). */
  establishments?: string[] | null;
}

/**
 * Establishments (ADMIN): CNPJs of at most one producer and no other's own CNPJ, since sales are
 * matched by issuer; a shared transaction lock keeps concurrent changes from giving one twice.
 */
async function checkEstablishments(em: EntityManager, actor: Actor, producer: { id: string | null; cnpj: string }, given: string[] | null | undefined): Promise<string[] | undefined> {
  await em.query(`SELECT pg_advisory_xact_lock(hashtext('selo.producer-cnpjs'))`);
  const establishments = given == null ? undefined : [...new Set(given)];
  if (establishments !== undefined && actor.role !== Role.ADMIN) throw new ForbiddenError(message('producer.establishmentsAdminOnly'));
  const claimed = [producer.cnpj, ...(establishments ?? [])];
  establishments?.forEach((cnpj, i) => {
    if (cnpj === producer.cnpj) throw new BadInputError(`input.establishments[${i}]`, message('producer.establishmentOwnCnpj', { cnpj }));
  });
  const [other]: Array<{ id: string; cnpj: string }> = await em.query(
    `SELECT p.id::text AS id, c.cnpj FROM producer p, unnest(p.cnpj::text || p.establishments::text[]) AS c(cnpj)
      WHERE c.cnpj = ANY($1::text[]) AND p.id IS DISTINCT FROM $2::bigint ORDER BY array_position($1::text[], c.cnpj) LIMIT 1`,
    [claimed, producer.id],
  );
  if (other) {
    const field = other.cnpj === producer.cnpj ? 'input.cnpj' : `input.establishments[${establishments!.indexOf(other.cnpj)}]`;
    throw new ConflictError('DUPLICATE', message('producer.establishmentTaken', { cnpj: other.cnpj, id: other.id }), field);
  }
  return establishments;
}

export class ProducerService {
  constructor(private readonly ds: DataSource) {}

  /** By id, within the actor's scope (NOT_FOUND outside it). */
  async get(actor: Actor, id: string): Promise<Producer> {
    const producer = isId(id) ? await this.ds.getRepository(Producer).findOneBy({ id }) : null;
    if (!producer) throw new NotFoundError('Producer', id);
    assertVisible(actor, 'Producer', id, producer.id);
    return producer;
  }

  /** Producers by id for loaders; out-of-scope ids come back as null. */
  async findByIds(actor: Actor, ids: readonly string[]): Promise<Producer[]> {
    const only = visibleProducerId(actor);
    const wanted = ids.filter((id) => isId(id) && (only === null || only === id));
    return wanted.length ? this.ds.getRepository(Producer).findBy({ id: In(wanted) }) : [];
  }

  /**
   * A page of the producers the actor sees; totalCount is counted only when `withTotal`,
   * hasPreviousPage looked up only when `withPrevious` (they are selected).
   */
  async list(actor: Actor, args: PageArgs, withTotal = true, withPrevious = true): Promise<Connection<Producer>> {
    const only = visibleProducerId(actor);
    const qb = this.ds.getRepository(Producer).createQueryBuilder('p');
    if (only !== null) qb.where('p.id = :only', { only });
    return keysetPage(qb, PRODUCER_KEYSET, args, { withTotal, withPrevious });
  }

  async create(actor: Actor, input: CreateProducerInput): Promise<Producer> {
    assertAdmin(actor);
    return mutate(this.ds, actor, async (em) => {
      const legalName = requireText(input.legalName, 'input.legalName');
      await requireMunicipalities(em, [{ field: 'input.plantMunicipalityCode', code: input.plantMunicipalityCode }]);
      if (await em.getRepository(Producer).existsBy({ cnpj: input.cnpj })) {
        throw new ConflictError('DUPLICATE', message('producer.cnpjTaken', { cnpj: input.cnpj }), 'input.cnpj');
      }
      const establishments = await checkEstablishments(em, actor, { id: null, cnpj: input.cnpj }, input.establishments);
      const producer = await em.getRepository(Producer).save(em.getRepository(Producer).create({
        cnpj: input.cnpj, legalName, plantMunicipalityCode: input.plantMunicipalityCode, anpAuthorization: input.anpAuthorization?.trim() || null, establishments: establishments ?? [],
      }));
      return { result: producer, audit: [{ operation: 'createProducer', entity: 'Producer', entityId: producer.id, producerId: producer.id, after: producer }] };
    });
  }

  /** Optimistic locking: the update applies only to `expectedVersion`, else CONFLICT/VERSION_MISMATCH. */
  async update(actor: Actor, id: string, input: UpdateProducerInput, expectedVersion: number): Promise<Producer> {
    const current = await this.get(actor, id);
    assertCanWriteFor(actor, 'Producer', current.id);
    return mutate(this.ds, actor, async (em) => {
      const changes: Partial<Producer> = {};
      if (input.legalName != null) changes.legalName = requireText(input.legalName, 'input.legalName');
      if (input.anpAuthorization !== undefined) changes.anpAuthorization = input.anpAuthorization?.trim() || null;
      if (input.plantMunicipalityCode != null) {
        await requireMunicipalities(em, [{ field: 'input.plantMunicipalityCode', code: input.plantMunicipalityCode }]);
        changes.plantMunicipalityCode = input.plantMunicipalityCode;
      }
      if (input.establishments != null) changes.establishments = await checkEstablishments(em, actor, current, input.establishments);
      const before = await em.getRepository(Producer).findOneByOrFail({ id });
      const result = await em
        .createQueryBuilder()
        .update(Producer)
        .set({ ...changes, version: () => 'version + 1' })
        .where('id = :id AND version = :expectedVersion', { id, expectedVersion })
        .execute();
      if (!result.affected) {
        throw new ConflictError('VERSION_MISMATCH', message('producer.versionMismatch', { id, version: before.version, expected: expectedVersion }), 'expectedVersion');
      }
      const after = await em.getRepository(Producer).findOneByOrFail({ id });
      return { result: after, audit: [{ operation: 'updateProducer', entity: 'Producer', entityId: id, producerId: id, before, after }] };
    });
  }
}
