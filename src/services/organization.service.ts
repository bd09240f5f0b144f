import { DataSource, In } from 'typeorm';
import { FamilyFarmingOrganization, OrganizationRegistration } from '../domain';
import { OrganizationKind } from '../law/types';
import { Actor } from './actor';
import { BadInputError, ConflictError, NotFoundError } from './errors';
import { assertCanWriteShared, checkRegistrations, insertRegistrations, RegistrationInput } from './family-farmer.service';
import { Connection, cursorValues, decodeKeysetCursor, PageArgs, pageSize, toConnection } from './pagination';
import { ORGANIZATION_KEYSET, pageAfter } from './keysets';
import { isId } from './record-batch';
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

/**
 * Cooperatives and associations of family farmers with their DAP/CAF jurídica (Decreto
 * 10.527/2020, art. 2º V; art. 4º VI and VII). The member counts are kept as declared; the
 * share and the habilitation on a date are computed by the law.
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

  /** Every organization by id (keyset pagination). */
  async list(args: PageArgs): Promise<Connection<FamilyFarmingOrganization>> {
    const limit = pageSize(args.first);
    const after = decodeKeysetCursor(ORGANIZATION_KEYSET, args.after);
    const qb = this.ds.getRepository(FamilyFarmingOrganization).createQueryBuilder('o');
    const totalCount = await qb.clone().getCount();
    const rows = await pageAfter(qb, ORGANIZATION_KEYSET, after, limit + 1).getMany();
    return toConnection(rows, limit, (o) => cursorValues(ORGANIZATION_KEYSET, o), totalCount, after !== null);
  }

  async create(actor: Actor, input: CreateOrganizationInput): Promise<FamilyFarmingOrganization> {
    assertCanWriteShared(actor);
    return mutate(this.ds, actor, async (em) => {
      const name = requireText(input.name, 'input.name');
      if (!Object.values(OrganizationKind).includes(input.kind)) throw new BadInputError('input.kind', message('organization.kind', { field: 'input.kind' }));
      if (!Number.isInteger(input.members) || input.members <= 0) throw new BadInputError('input.members', message('input.notPositive', { field: 'input.members' }));
      if (!Number.isInteger(input.familyFarmerMembers) || input.familyFarmerMembers < 0) {
        throw new BadInputError('input.familyFarmerMembers', message('input.negative', { field: 'input.familyFarmerMembers' }));
      }
      if (input.familyFarmerMembers > input.members) {
        throw new BadInputError('input.familyFarmerMembers', message('input.notAfter', { field: 'input.familyFarmerMembers', other: 'input.members' }));
      }
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
