import { DataSource } from 'typeorm';
import { Contract } from '../domain';
import { Decimal } from '../law/decimal';
import { Feedstock } from '../law/types';
import { Actor } from './actor';
import { BadInputError, NotFoundError } from './errors';
import { Connection } from './pagination';
import { CONTRACT_KEYSET } from './keysets';
import { pagesByProducer, ProducerPageKey } from './producer-pages';
import { assertWritable, findVisibleByIds, isId, requireDate, requirePositiveDecimal, requireRecords, requireWritableProducers } from './record-batch';
import { assertVisible } from './scope';
import { mutate } from './transaction';
import { requireOrder } from './validation';
import { message } from '../i18n';

export interface CreateContractInput {
  producerId: string;
  familyFarmerId?: string | null;
  organizationId?: string | null;
  signedOn: string;
  validFrom: string;
  validUntil: string;
  feedstock: Feedstock;
  quantityKg: Decimal;
  pricePerKg: Decimal;
  technicalAssistance: boolean;
}

/**
 * Purchase contracts with family farming (Decreto 10.527/2020, art. 3º §2 II–III): with one
 * family farmer or one organization, never both. Whether a contract conforms is computed, not
 * stored.
 */
export class ContractService {
  constructor(private readonly ds: DataSource) {}

  /** By id, within the actor's scope: another producer's contract is NOT_FOUND, like a missing one. */
  async get(actor: Actor, id: string): Promise<Contract> {
    const contract = isId(id) ? await this.ds.getRepository(Contract).findOneBy({ id }) : null;
    if (!contract) throw new NotFoundError('Contract', id);
    assertVisible(actor, 'Contract', id, contract.producerId);
    return contract;
  }

  /** Contracts by id for loaders; out-of-scope ids are left out (the loader answers null). */
  findByIds(actor: Actor, ids: readonly string[]): Promise<Contract[]> {
    return findVisibleByIds(this.ds, actor, Contract, ids);
  }

  /** Producer.contracts for many producers at once, by id. */
  pagesByProducer(actor: Actor, keys: readonly ProducerPageKey[]): Promise<Array<Connection<Contract> | Error>> {
    return pagesByProducer(this.ds, actor, { entity: Contract, keyset: CONTRACT_KEYSET }, keys);
  }

  async create(actor: Actor, input: CreateContractInput): Promise<Contract> {
    assertWritable(actor, [{ field: 'input.producerId', id: input.producerId }]);
    const farmerId = input.familyFarmerId ?? null;
    const organizationId = input.organizationId ?? null;
    // art. 3º §2 II: the contract is made with a family farmer or with a cooperative/association.
    if (farmerId === null && organizationId === null) {
      throw new BadInputError('input.familyFarmerId', message('contract.noCounterparty'));
    }
    if (farmerId !== null && organizationId !== null) {
      throw new BadInputError('input.organizationId', message('contract.twoCounterparties'));
    }
    const signedOn = requireDate(input.signedOn, 'input.signedOn');
    const validFrom = requireDate(input.validFrom, 'input.validFrom');
    const validUntil = requireDate(input.validUntil, 'input.validUntil');
    requireOrder(validFrom, validUntil, 'input.validUntil');
    const quantityKg = requirePositiveDecimal(input.quantityKg, 'input.quantityKg');
    const pricePerKg = requirePositiveDecimal(input.pricePerKg, 'input.pricePerKg');
    if (!Object.values(Feedstock).includes(input.feedstock)) throw new BadInputError('input.feedstock', message('input.unknownValue', { what: 'feedstock', value: String(input.feedstock) }));

    return mutate(this.ds, actor, async (em) => {
      await requireWritableProducers(em, actor, [{ field: 'input.producerId', id: input.producerId }]);
      if (farmerId !== null) await requireRecords(em, 'family_farmer', 'FamilyFarmer', [{ field: 'input.familyFarmerId', id: farmerId }], ['id']);
      if (organizationId !== null) {
        await requireRecords(em, 'family_farming_organization', 'FamilyFarmingOrganization', [{ field: 'input.organizationId', id: organizationId }], ['id']);
      }
      const repo = em.getRepository(Contract);
      const contract = await repo.save(
        repo.create({
          producerId: input.producerId,
          familyFarmerId: farmerId,
          organizationId,
          signedOn,
          validFrom,
          validUntil,
          feedstock: input.feedstock,
          quantityKg,
          pricePerKg,
          technicalAssistance: input.technicalAssistance,
        }),
      );
      return { result: contract, audit: [{ operation: 'createContract', entity: 'Contract', entityId: contract.id, producerId: contract.producerId, after: contract }] };
    });
  }
}
