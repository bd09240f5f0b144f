import { DataSource, In } from 'typeorm';
import { FamilyFarmingOrganization, OrganizationMembership, OrganizationRegistration } from '../domain';
import { IsoDate, today } from '../law/dates';
import { OrganizationKind } from '../law/types';
import { Actor } from './actor';
import { membershipOnSql } from './facts/organization-membership.sql';
import { BadInputError, ConflictError, NotFoundError } from './errors';
import { assertCanWriteShared, checkRegistrations, insertRegistrations, RegistrationInput } from './family-farmer.service';
import { assertAdmin } from './scope';
import { Connection, PageArgs } from './pagination';
import { keysetPage, ORGANIZATION_KEYSET } from './keysets';
import { isId, requireDate } from './record-batch';
import { mutate } from './transaction';
import { requireMunicipalities, requireText } from './validation';
import { message } from '../i18n';

export interface CreateOrganizationInput {
  cnpj: string;
  name: string;
  kind: OrganizationKind;
  municipalityCode: string;
  registrations: RegistrationInput[];
  members: number;
  familyFarmerMembers: number;
}

export interface UpdateOrganizationInput {
  name?: string | null;
  municipalityCode?: string | null;
  /** A new declaration of the member counts: both or neither. */
  members?: number | null;
  familyFarmerMembers?: number | null;
  /** The day the counts were declared (default today). */
  membersDeclaredOn?: IsoDate | null;
}

/** The member counts (art. 4º VI): members > 0, family-farmer members from 0 to members. */
function checkMembers(members: unknown, familyFarmerMembers: unknown): void {
  if (!Number.isInteger(members) || (members as number) <= 0) throw new BadInputError('input.members', message('input.notPositive', { field: 'input.members' }));
  if (!Number.isInteger(familyFarmerMembers) || (familyFarmerMembers as number) < 0) {
    throw new BadInputError('input.familyFarmerMembers', message('input.negative', { field: 'input.familyFarmerMembers' }));
  }
  if ((familyFarmerMembers as number) > (members as number)) {
    throw new BadInputError('input.familyFarmerMembers', message('input.notAfter', { field: 'input.familyFarmerMembers', other: 'input.members' }));
  }
}

/**
 * Cooperatives and associations (Decreto 10.527/2020 art. 2º V; art. 4º VI–VII). Member counts are
 * a dated history (organization_membership); the law judges a date by the declaration then in force.
 */
export class OrganizationService {
  constructor(private readonly ds: DataSource) {}

  async get(id: string): Promise<FamilyFarmingOrganization> {
    const org = isId(id) ? await this.ds.getRepository(FamilyFarmingOrganization).findOneBy({ id }) : null;
    if (!org) throw new NotFoundError('FamilyFarmingOrganization', id);
    return org;
  }

  /** Organizations by id, for loaders (one statement for the batch). */
  async findByIds(ids: readonly string[]): Promise<FamilyFarmingOrganization[]> {
    const wanted = [...new Set(ids.filter(isId))];
    return wanted.length ? this.ds.getRepository(FamilyFarmingOrganization).findBy({ id: In(wanted) }) : [];
  }

  /** The registrations of many organizations at once, by validFrom then id. */
  async registrationsOf(organizationIds: readonly string[]): Promise<OrganizationRegistration[]> {
    const wanted = [...new Set(organizationIds.filter(isId))];
    if (wanted.length === 0) return [];
    return this.ds.getRepository(OrganizationRegistration).find({ where: { organizationId: In(wanted) }, order: { validFrom: 'ASC', id: 'ASC' } });
  }

  /** The member declarations of many organizations at once, in the order they take effect (undated first, then by day and recording). */
  async membershipsOf(organizationIds: readonly string[]): Promise<OrganizationMembership[]> {
    const wanted = [...new Set(organizationIds.filter(isId))];
    if (wanted.length === 0) return [];
    return this.ds.getRepository(OrganizationMembership).createQueryBuilder('m').where('m.organizationId IN (:...wanted)', { wanted })
      .orderBy('m.declaredOn', 'ASC', 'NULLS FIRST').addOrderBy('m.id', 'ASC').getMany();
  }

  /**
   * updateOrganization: name and seat overwrite; new member counts are appended as a declaration
   * of `membersDeclaredOn` (default today) — the earlier ones stay and keep deciding the dates
   * before it (art. 4º VI). The row's counts become those of the latest declaration.
   */
  async update(actor: Actor, id: string, input: UpdateOrganizationInput): Promise<FamilyFarmingOrganization> {
    // Other producers' figures read its members: not a PRODUCER's to change (src/graphql/auth/rules.ts).
    assertAdmin(actor);
    const countsGiven = input.members != null || input.familyFarmerMembers != null;
    if (countsGiven) checkMembers(input.members, input.familyFarmerMembers);
    else if (input.membersDeclaredOn != null) throw new BadInputError('input.membersDeclaredOn', message('organization.declarationWithoutCounts'));
    const declaredOn = input.membersDeclaredOn == null ? today() : requireDate(input.membersDeclaredOn, 'input.membersDeclaredOn');
    const name = input.name == null ? null : requireText(input.name, 'input.name');
    return mutate(this.ds, actor, async (em) => {
      const repo = em.getRepository(FamilyFarmingOrganization);
      const before = isId(id) ? await repo.createQueryBuilder('o').setLock('pessimistic_write').where('o.id = :id', { id }).getOne() : null;
      if (!before) throw new NotFoundError('FamilyFarmingOrganization', id);
      if (input.municipalityCode != null) await requireMunicipalities(em, [{ field: 'input.municipalityCode', code: input.municipalityCode }]);
      let declaration: OrganizationMembership | null = null;
      if (countsGiven) {
        declaration = await em.getRepository(OrganizationMembership).save(em.getRepository(OrganizationMembership).create({
          organizationId: before.id, declaredOn, members: input.members!, familyFarmerMembers: input.familyFarmerMembers!,
        }));
      }
      // The row keeps the counts of the latest declaration: the one in force from then on (the builder's).
      const [latest] = await em.query(`SELECT members, family_farmer_members FROM ${membershipOnSql('$1::bigint', `'infinity'::date`)} latest`, [before.id]);
      const after = Object.assign(new FamilyFarmingOrganization(), before, {
        name: name ?? before.name, municipalityCode: input.municipalityCode ?? before.municipalityCode,
        members: Number(latest.members), familyFarmerMembers: Number(latest.family_farmer_members),
      });
      await repo.update({ id: before.id }, { name: after.name, municipalityCode: after.municipalityCode, members: after.members, familyFarmerMembers: after.familyFarmerMembers });
      return {
        result: after,
        audit: [{ operation: 'updateOrganization', entity: 'FamilyFarmingOrganization', entityId: before.id, producerId: null, before, after: { ...after, declaration } }],
      };
    });
  }

  /** Every organization by id (keyset pagination); hasPreviousPage looked up only when `withPrevious`. */
  async list(args: PageArgs, withPrevious = true): Promise<Connection<FamilyFarmingOrganization>> {
    const qb = this.ds.getRepository(FamilyFarmingOrganization).createQueryBuilder('o');
    return keysetPage(qb, ORGANIZATION_KEYSET, args, { withPrevious });
  }

  async create(actor: Actor, input: CreateOrganizationInput): Promise<FamilyFarmingOrganization> {
    assertCanWriteShared(actor);
    return mutate(this.ds, actor, async (em) => {
      const name = requireText(input.name, 'input.name');
      if (!Object.values(OrganizationKind).includes(input.kind)) throw new BadInputError('input.kind', message('organization.kind', { field: 'input.kind' }));
      checkMembers(input.members, input.familyFarmerMembers);
      const registrations = checkRegistrations(input.registrations);
      await requireMunicipalities(em, [{ field: 'input.municipalityCode', code: input.municipalityCode }]);
      if (await em.getRepository(FamilyFarmingOrganization).existsBy({ cnpj: input.cnpj })) {
        throw new ConflictError('DUPLICATE', message('organization.cnpjTaken'), 'input.cnpj');
      }
      const repo = em.getRepository(FamilyFarmingOrganization);
      const org = await repo.save(
        repo.create({ cnpj: input.cnpj, name, kind: input.kind, municipalityCode: input.municipalityCode, members: input.members, familyFarmerMembers: input.familyFarmerMembers }),
      );
      const saved = await insertRegistrations(em, OrganizationRegistration, registrations.map((r) => ({ ...r, organizationId: org.id })));
      return {
        result: org,
        audit: [{ operation: 'createOrganization', entity: 'FamilyFarmingOrganization', entityId: org.id, producerId: null, after: { ...org, registrations: saved } }],
      };
    });
  }
}
