import { DataSource, EntityManager, In } from 'typeorm';
import { FamilyFarmer, FamilyFarmerRegistration } from '../domain';
import { RegistrationKind, Role } from '../law/types';
import { Actor } from './actor';
import { BadInputError, ConflictError, ForbiddenError, NotFoundError } from './errors';
import { Connection, PageArgs } from './pagination';
import { FAMILY_FARMER_KEYSET, keysetPage } from './keysets';
import { isId, requireDate } from './record-batch';
import { mutate } from './transaction';
import { requireMunicipalities, requireOrder, requireText } from './validation';
import { message } from '../i18n';

/** A DAP or CAF as given (Decreto 10.527/2020, art. 2º IV and V). */
export interface RegistrationInput {
  kind: RegistrationKind;
  number: string;
  validFrom: string;
  validUntil: string;
}

export interface CreateFamilyFarmerInput {
  cpf: string;
  name: string;
  municipalityCode: string;
  registrations: RegistrationInput[];
}

/**
 * Checks every registration of the input and returns them cleaned: a known kind, a number, real
 * dates, and validUntil on or after validFrom; the field named is `input.registrations[i].…`.
 */
export function checkRegistrations(registrations: RegistrationInput[] | null | undefined): RegistrationInput[] {
  return (registrations ?? []).map((r, i) => {
    const at = `input.registrations[${i}]`;
    if (!Object.values(RegistrationKind).includes(r.kind)) throw new BadInputError(`${at}.kind`, message('farmer.registrationKind', { field: `${at}.kind` }));
    const number = requireText(r.number, `${at}.number`);
    const validFrom = requireDate(r.validFrom, `${at}.validFrom`);
    const validUntil = requireDate(r.validUntil, `${at}.validUntil`);
    requireOrder(validFrom, validUntil, `${at}.validUntil`);
    return { kind: r.kind, number, validFrom, validUntil };
  });
}

/** Farmers and organizations are shared records: ADMIN and PRODUCER write them, AUDITOR never (the access rules, README "Tokens"). */
export function assertCanWriteShared(actor: Actor): void {
  if (actor.role === Role.AUDITOR) throw new ForbiddenError(message('auth.auditorWritesNothing'));
}

/**
 * Family farmers and their DAP/CAF registrations (Lei 11.326/2006; Decreto 10.527/2020,
 * art. 2º IV). Readable by every role; eligibility on a date is computed by the law, not stored.
 */
export class FamilyFarmerService {
  constructor(private readonly ds: DataSource) {}

  async get(id: string): Promise<FamilyFarmer> {
    const farmer = isId(id) ? await this.ds.getRepository(FamilyFarmer).findOneBy({ id }) : null;
    if (!farmer) throw new NotFoundError('FamilyFarmer', id);
    return farmer;
  }

  /** Farmers by id, for loaders (one statement for the batch). */
  async findByIds(ids: readonly string[]): Promise<FamilyFarmer[]> {
    const wanted = [...new Set(ids.filter(isId))];
    return wanted.length ? this.ds.getRepository(FamilyFarmer).findBy({ id: In(wanted) }) : [];
  }

  /** The registrations of many farmers at once, by validFrom then id. */
  async registrationsOf(farmerIds: readonly string[]): Promise<FamilyFarmerRegistration[]> {
    const wanted = [...new Set(farmerIds.filter(isId))];
    if (wanted.length === 0) return [];
    return this.ds.getRepository(FamilyFarmerRegistration).find({ where: { familyFarmerId: In(wanted) }, order: { validFrom: 'ASC', id: 'ASC' } });
  }

  /** Every farmer by id (keyset pagination); hasPreviousPage looked up only when `withPrevious`. */
  async list(args: PageArgs, withPrevious = true): Promise<Connection<FamilyFarmer>> {
    const qb = this.ds.getRepository(FamilyFarmer).createQueryBuilder('f');
    return keysetPage(qb, FAMILY_FARMER_KEYSET, args, { withPrevious });
  }

  async create(actor: Actor, input: CreateFamilyFarmerInput): Promise<FamilyFarmer> {
    assertCanWriteShared(actor);
    return mutate(this.ds, actor, async (em) => {
      const name = requireText(input.name, 'input.name');
      const registrations = checkRegistrations(input.registrations);
      await requireMunicipalities(em, [{ field: 'input.municipalityCode', code: input.municipalityCode }]);
      if (await em.getRepository(FamilyFarmer).existsBy({ cpf: input.cpf })) {
        throw new ConflictError('DUPLICATE', message('farmer.cpfTaken'), 'input.cpf');
      }
      const farmer = await em.getRepository(FamilyFarmer).save(
        em.getRepository(FamilyFarmer).create({ cpf: input.cpf, name, municipalityCode: input.municipalityCode }),
      );
      const saved = await insertRegistrations(em, FamilyFarmerRegistration, registrations.map((r) => ({ ...r, familyFarmerId: farmer.id })));
      return {
        result: farmer,
        audit: [{ operation: 'createFamilyFarmer', entity: 'FamilyFarmer', entityId: farmer.id, producerId: null, after: { ...farmer, registrations: saved } }],
      };
    });
  }
}

/** One multi-row INSERT for the registrations of one record. */
export async function insertRegistrations<T extends object>(em: EntityManager, entity: new () => T, rows: Partial<T>[]): Promise<T[]> {
  if (rows.length === 0) return [];
  const repo = em.getRepository(entity);
  return repo.save(rows.map((r) => repo.create(r as T)));
}
