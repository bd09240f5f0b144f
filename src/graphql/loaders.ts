import DataLoader from 'dataloader';
import type { LawBook } from '../law/law-book';
import type { SemiaridInterval } from '../law/municipality';
import type { IsoDate } from '../law/dates';
import { BiodieselImport, Contract, Municipality, Producer, Purchase, RecordReturn, Sale } from '../domain';
import { FamilyFarmer, FamilyFarmerRegistration, FamilyFarmingOrganization, OrganizationMembership, OrganizationRegistration, RegimeElection, SealEvent, SealGrant } from '../domain';
import { Actor } from '../services/actor';
import { Services } from '../services';
import { SupplierAsked, SupplierOnDay } from '../services/facts/facts.service';
import { ConformityView } from '../services/seal-compliance/contract-conformity.service';
import { PurchaseSeloView } from '../services/seal-compliance/purchase-selo.service';
import { MonthAsked, TaxPeriodView } from '../services/tax-period.service';
import { CountedPage, CountedPageAsked, SealComplianceReport, YearAskedOf } from '../services/seal-compliance/compliance.service';
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
    /** The law book of this request, read once (key: 'current'). */
    lawBook: new DataLoader<'current', LawBook>(async (keys) => {
      const book = await services.law.lawBook();
      return keys.map(() => book);
    }),
    /** The returns of purchases and of sales, by the record's id. */
    purchaseReturns: new DataLoader<string, RecordReturn[]>(async (ids) => groupByKey(ids, await services.recordReturns.ofRecords('purchase', ids), (r) => r.purchaseId!)),
    saleReturns: new DataLoader<string, RecordReturn[]>(async (ids) => groupByKey(ids, await services.recordReturns.ofRecords('sale', ids), (r) => r.saleId!)),
    municipality: new DataLoader<string, Municipality | null>(async (codes) =>
      byKey(codes, await services.municipalities.findByCodes(codes), (m) => m.ibgeCode)),
    /** Whether a municipality lies in the Semiárido and in the priority region on a date. */
    regionOn: new DataLoader<{ code: string; on: string }, { semiarid: boolean; priorityRegion: boolean }, string>(
      (keys) => services.municipalities.regionsOn(keys), { cacheKeyFn: (k) => `${k.code}|${k.on}` }),
    /** The Semiárido intervals of municipalities, by IBGE code. */
    semiaridMemberships: new DataLoader<string, SemiaridInterval[]>((codes) => services.municipalities.semiaridMemberships(codes)),
    producer: new DataLoader<string, Producer | null>(async (ids) =>
      byKey(ids, await services.producers.findByIds(actor, ids), (p) => p.id)),
    familyFarmer: new DataLoader<string, FamilyFarmer | null>(async (ids) =>
      byKey(ids, await services.familyFarmers.findByIds(ids), (f) => f.id)),
    organization: new DataLoader<string, FamilyFarmingOrganization | null>(async (ids) =>
      byKey(ids, await services.organizations.findByIds(ids), (o) => o.id)),
    /** DAP/CAF of family farmers, by farmer id. */
    farmerRegistrations: new DataLoader<string, FamilyFarmerRegistration[]>(async (ids) =>
      groupByKey(ids, await services.familyFarmers.registrationsOf(ids), (r) => r.familyFarmerId)),
    /** A supplier (farmer or organization) as it stood on a day: registrations valid then, the members declared for then. */
    supplierOn: new DataLoader<SupplierAsked, SupplierOnDay, string>((asked) => services.facts.suppliersOn(asked),
      { cacheKeyFn: (a) => `${a.farmerId ?? ''}|${a.organizationId ?? ''}|${a.on}` }),
    /** Member declarations of organizations, by organization id, in the order they take effect. */
    organizationMemberships: new DataLoader<string, OrganizationMembership[]>(async (ids) =>
      groupByKey(ids, await services.organizations.membershipsOf(ids), (m) => m.organizationId)),
    /** DAP/CAF jurídica of organizations, by organization id. */
    organizationRegistrations: new DataLoader<string, OrganizationRegistration[]>(async (ids) =>
      groupByKey(ids, await services.organizations.registrationsOf(ids), (r) => r.organizationId)),
    /** Selo grants by producer id (scoped). */
    sealGrantsByProducer: new DataLoader<string, SealGrant[]>(async (ids) =>
      groupByKey(ids, await services.seals.grantsOf(actor, ids), (g) => g.producerId)),
    /** Selo events by grant id, in recording order. */
    sealEventsByGrant: new DataLoader<string, SealEvent[]>(async (ids) =>
      groupByKey(ids, await services.seals.eventsOf(ids), (e) => e.grantId)),
    /** Regime elections by producer id (scoped), by effectiveYear. */
    regimeElectionsByProducer: new DataLoader<string, RegimeElection[]>(async (ids) =>
      groupByKey(ids, await services.regimes.electionsOf(actor, ids), (e) => e.producerId)),
    purchase: new DataLoader<string, Purchase | null>(async (ids) =>
      byKey(ids, await services.purchases.findByIds(actor, ids), (p) => p.id)),
    contract: new DataLoader<string, Contract | null>(async (ids) =>
      byKey(ids, await services.contracts.findByIds(actor, ids), (c) => c.id)),
    contractsByProducer: new DataLoader<ProducerPageKey, Connection<Contract>, string>(
      (keys) => services.contracts.pagesByProducer(actor, keys), { cacheKeyFn: producerPageKey }),
    purchasesByProducer: new DataLoader<ProducerPageKey, Connection<Purchase>, string>(
      (keys) => services.purchases.pagesByProducer(actor, keys), { cacheKeyFn: producerPageKey }),
    salesByProducer: new DataLoader<ProducerPageKey, Connection<Sale>, string>(
      (keys) => services.sales.pagesByProducer(actor, keys), { cacheKeyFn: producerPageKey }),
    importsByProducer: new DataLoader<ProducerPageKey, Connection<BiodieselImport>, string>(
      (keys) => services.imports.pagesByProducer(actor, keys), { cacheKeyFn: producerPageKey }),
    /** Contract.conformity (art. 3º §2 II–III), by contract and asKnownOn; the contract is already in scope. */
    contractConformity: new DataLoader<{ contract: Contract; asKnownOn: IsoDate }, ConformityView, string>(
      (keys) => services.contractConformity.conformityOf(keys), { cacheKeyFn: (k) => `${k.contract.id}|${k.asKnownOn}` }),
    /** Purchase.selo (art. 3º §2 I–III), by purchase and asKnownOn; the purchase is already in scope. */
    purchaseSelo: new DataLoader<{ purchase: Purchase; asKnownOn: IsoDate }, PurchaseSeloView | null, string>(
      (keys) => services.purchaseSelo.seloOf(keys), { cacheKeyFn: (k) => `${k.purchase.id}|${k.asKnownOn}` }),
    /** Producer.taxPeriod (Lei 11.116/2005, arts. 3º–5º), by producer, month and asKnownOn: a page's months in the statements of one; the producer is already in scope. */
    taxPeriod: new DataLoader<MonthAsked, TaxPeriodView, string>(
      (asked) => services.taxPeriods.ofPage(asked), { cacheKeyFn: (k) => `${k.producer.id}|${k.year}|${k.month}|${k.asKnownOn}` }),
    /** Producer.sealCompliance (Decreto 10.527/2020, art. 3º §2), by producer, year and asKnownOn: a page's years in the statements of one; the producer is already in scope. */
    sealCompliance: new DataLoader<YearAskedOf, SealComplianceReport, string>(
      (asked) => services.sealCompliance.ofPage(asked), { cacheKeyFn: (k) => `${k.producer.id}|${k.year}|${k.asKnownOn}` }),
    /** SealCompliance.countedItems (art. 3º §2º I a–c): a page of each year's counted rows, the years of one (year, asKnownOn) and page in one statement. */
    sealCountedItems: new DataLoader<CountedPageAsked, CountedPage, CountedPageAsked>((asked) => services.sealCompliance.countedPages(asked)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
