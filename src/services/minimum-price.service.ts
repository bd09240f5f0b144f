import { DataSource, EntityManager } from 'typeorm';
import { MinimumPrice } from '../domain';
import { MinimumPriceValue } from '../law/contract-conformity';
import { inForce, Version } from '../law/dated';
import { IsoDate, today } from '../law/dates';
import { Decimal } from '../law/decimal';
import { Feedstock, Region } from '../law/types';
import { Actor } from './actor';
import { BadInputError } from './errors';
import { requireDate, requirePositiveDecimal } from './record-batch';
import { assertAdmin } from './scope';
import { mutate } from './transaction';
import { requireOrder, requireText } from './validation';
import { message } from '../i18n';

export interface PublishMinimumPriceInput {
  feedstock: Feedstock;
  scope?: string | null;
  validFrom: string;
  validUntil: string;
  pricePerKg: Decimal;
  source: string;
  publishedOn?: string | null;
}

/** A stored minimum price as a dated version of the law (docs/LAW.md): `source` is its legal basis. */
export function toVersion(row: MinimumPrice): Version<MinimumPriceValue> {
  return {
    id: row.id,
    value: { feedstock: row.feedstock, pricePerKg: row.pricePerKg, scope: row.scope },
    validFrom: row.validFrom,
    validUntil: row.validUntil,
    publishedOn: row.publishedOn,
    legalBasis: row.source,
    // Same-day publications: the later recorded wins.
    seq: Number(row.id),
  };
}

/**
 * PGPAF minimum prices (Decreto 5.996/2006), the floor of a Selo contract (Decreto 10.527/2020
 * art. 3º §2º II): dated versions an ADMIN publishes, never overwritten.
 */
export class MinimumPriceService {
  constructor(private readonly ds: DataSource) {}

  async publish(actor: Actor, input: PublishMinimumPriceInput): Promise<MinimumPrice> {
    assertAdmin(actor);
    if (!Object.values(Feedstock).includes(input.feedstock)) throw new BadInputError('input.feedstock', message('input.unknownValue', { what: 'feedstock', value: String(input.feedstock) }));
    const scope = input.scope == null || input.scope.trim() === '' ? null : input.scope.trim();
    if (scope !== null && !/^[1-5][0-9]$/.test(scope) && !(Object.values(Region) as string[]).includes(scope)) {
      throw new BadInputError('input.scope', message('input.unknownValue', { what: 'scope (a state\'s IBGE code or a region)', value: scope }));
    }
    const validFrom = requireDate(input.validFrom, 'input.validFrom');
    const validUntil = requireDate(input.validUntil, 'input.validUntil');
    requireOrder(validFrom, validUntil, 'input.validUntil');
    const pricePerKg = requirePositiveDecimal(input.pricePerKg, 'input.pricePerKg');
    const source = requireText(input.source, 'input.source');
    const publishedOn = input.publishedOn == null ? today() : requireDate(input.publishedOn, 'input.publishedOn');
    return mutate(this.ds, actor, async (em) => {
      const repo = em.getRepository(MinimumPrice);
      const saved = await repo.save(repo.create({ feedstock: input.feedstock, scope, validFrom, validUntil, pricePerKg, source, publishedOn }));
      const row = await repo.findOneByOrFail({ id: saved.id });
      return { result: row, audit: [{ operation: 'publishMinimumPrice', entity: 'MinimumPrice', entityId: row.id, producerId: null, after: row }] };
    });
  }

  /** Every version (of one feedstock, or all), in the order they were recorded. */
  async versions(feedstocks?: readonly Feedstock[] | null, em: EntityManager = this.ds.manager): Promise<Version<MinimumPriceValue>[]> {
    const qb = em.getRepository(MinimumPrice).createQueryBuilder('m').orderBy('m.id', 'ASC');
    if (feedstocks) qb.where('m.feedstock = ANY(:feedstocks)', { feedstocks: [...feedstocks] });
    return (await qb.getMany()).map(toVersion);
  }

  /**
   * Without `on`: every version, by feedstock, validFrom and recording order. With `on`: for each
   * feedstock, the minimum price in force on that date as known on `asKnownOn`.
   */
  async list(feedstock: Feedstock | null | undefined, on: IsoDate | null | undefined, asKnownOn: IsoDate): Promise<MinimumPrice[]> {
    const qb = this.ds.getRepository(MinimumPrice).createQueryBuilder('m');
    if (feedstock) qb.where('m.feedstock = :feedstock', { feedstock });
    const rows = await qb.orderBy('m.feedstock', 'ASC').addOrderBy('m.valid_from', 'ASC').addOrderBy('m.id', 'ASC').getMany();
    if (!on) return rows;
    const versions = rows.map(toVersion);
    const byId = new Map(rows.map((r) => [r.id, r]));
    // One per feedstock and scope (national, a state, a region): the tables are published so.
    const keys = [...new Set(rows.map((r) => `${r.feedstock}|${r.scope ?? ''}`))];
    return keys
      .map((k) => inForce(versions.filter((v) => `${v.value.feedstock}|${v.value.scope ?? ''}` === k), on, asKnownOn))
      .filter((v): v is Version<MinimumPriceValue> => v !== undefined)
      .map((v) => byId.get(v.id as string) as MinimumPrice);
  }
}
