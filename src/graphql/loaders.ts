import DataLoader from 'dataloader';
import { Contract, Municipality, Producer, Purchase, Sale } from '../domain';
import { Actor } from '../services/actor';
import { Services } from '../services';
import { Connection } from '../services/pagination';
import { ProducerPageKey, producerPageKey } from '../services/producer-pages';

/** Group rows by a key, in the order of `keys` (DataLoader's contract). */
export function byKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map<K, V>();
  for (const row of rows) map.set(keyOf(row), row);
  return keys.map((k) => map.get(k) ?? null);
}

export function groupByKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
  const map = new Map<K, V[]>();
  for (const row of rows) {
    const k = keyOf(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return keys.map((k) => map.get(k) ?? []);
}

/**
 * One set of DataLoaders per request, so a nested query costs one SQL statement per relation
 * and level, whatever the number of rows. Loaders of producer records apply the actor's scope.
 */
export function createLoaders(services: Services, actor: Actor) {
  return {
    municipality: new DataLoader<string, Municipality | null>(async (codes) =>
      byKey(codes, await services.municipalities.findByCodes(codes), (m) => m.ibgeCode)),
    producer: new DataLoader<string, Producer | null>(async (ids) =>
      byKey(ids, await services.producers.findByIds(actor, ids), (p) => p.id)),
    contract: new DataLoader<string, Contract | null>(async (ids) =>
      byKey(ids, await services.contracts.findByIds(actor, ids), (c) => c.id)),
    contractsByProducer: new DataLoader<ProducerPageKey, Connection<Contract>, string>(
      (keys) => services.contracts.pagesByProducer(actor, keys), { cacheKeyFn: producerPageKey }),
    purchasesByProducer: new DataLoader<ProducerPageKey, Connection<Purchase>, string>(
      (keys) => services.purchases.pagesByProducer(actor, keys), { cacheKeyFn: producerPageKey }),
    salesByProducer: new DataLoader<ProducerPageKey, Connection<Sale>, string>(
      (keys) => services.sales.pagesByProducer(actor, keys), { cacheKeyFn: producerPageKey }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
