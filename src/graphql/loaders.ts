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
import { CreditMonthAsked, MonthCreditsView } from '../services/credit.service';
import { CountedPage, CountedPageAsked, SealComplianceReport, YearAskedOf } from '../services/seal-compliance/compliance.service';
import { Connection } from '../services/pagination';
import { groupBy } from '../services/group-by';
import { ProducerPageKey, producerPageKey } from '../services/producer-pages';

/** Group rows by a key, in the order of `keys` (DataLoader's contract). */
export function byKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map<K, V>();
  for (const row of rows) map.set(keyOf(row), row);
  return keys.map((k) => map.get(k) ?? null);
}

export function groupByKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
  const map = groupBy(rows, keyOf);
  return keys.map((k) => map.get(k) ?? []);
}

/** Per request: one statement per relation and level, whatever the number of rows. */
export function createLoaders(services: Services, actor: Actor) {
  const credits = services.credits.requestFolds();
  return {
    lawBook: new DataLoader<'current', LawBook>(async (keys) => {
      const book = await services.law.lawBook();
      return keys.map(() => book);
    }),
    purchaseReturns: new DataLoader<string, RecordReturn[]>(async (ids) => groupByKey(ids, await services.recordReturns.ofRecords('purchase', ids), (r) => r.purchaseId!)),
    saleReturns: new DataLoader<string, RecordReturn[]>(async (ids) => groupByKey(ids, await services.recordReturns.ofRecords('sale', ids), (r) => r.saleId!)),
    municipality: new DataLoader<string, Municipality | null>(async (codes) =>
      byKey(codes, await services.municipalities.findByCodes(codes), (m) => m.ibgeCode)),
    regionOn: new DataLoader<{ code: string; on: string }, { semiarid: boolean; priorityRegion: boolean }, string>(
      (keys) => services.municipalities.regionsOn(keys), { cacheKeyFn: (k) => `${k.code}|${k.on}` }),
    semiaridMemberships: new DataLoader<string, SemiaridInterval[]>((codes) => services.municipalities.semiaridMemberships(codes)),
    producer: new DataLoader<string, Producer | null>(async (ids) =>
      byKey(ids, await services.producers.findByIds(actor, ids), (p) => p.id)),
    familyFarmer: new DataLoader<string, FamilyFarmer | null>(async (ids) =>
      byKey(ids, await services.familyFarmers.findByIds(ids), (f) => f.id)),
    organization: new DataLoader<string, FamilyFarmingOrganization | null>(async (ids) =>
      byKey(ids, await services.organizations.findByIds(ids), (o) => o.id)),
    farmerRegistrations: new DataLoader<string, FamilyFarmerRegistration[]>(async (ids) =>
      groupByKey(ids, await services.familyFarmers.registrationsOf(ids), (r) => r.familyFarmerId)),
    supplierOn: new DataLoader<SupplierAsked, SupplierOnDay, string>((asked) => services.facts.suppliersOn(asked),
      { cacheKeyFn: (a) => `${a.farmerId ?? ''}|${a.organizationId ?? ''}|${a.on}` }),
    organizationMemberships: new DataLoader<string, OrganizationMembership[]>(async (ids) =>
      groupByKey(ids, await services.organizations.membershipsOf(ids), (m) => m.organizationId)),
    organizationRegistrations: new DataLoader<string, OrganizationRegistration[]>(async (ids) =>
      groupByKey(ids, await services.organizations.registrationsOf(ids), (r) => r.organizationId)),
    sealGrantsByProducer: new DataLoader<string, SealGrant[]>(async (ids) =>
      groupByKey(ids, await services.seals.grantsOf(actor, ids), (g) => g.producerId)),
    sealEventsByGrant: new DataLoader<string, SealEvent[]>(async (ids) =>
      groupByKey(ids, await services.seals.eventsOf(ids), (e) => e.grantId)),
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
    /** Art. 3º §2 II–III. */
    contractConformity: new DataLoader<{ contract: Contract; asKnownOn: IsoDate }, ConformityView, string>(
      (keys) => services.contractConformity.conformityOf(keys), { cacheKeyFn: (k) => `${k.contract.id}|${k.asKnownOn}` }),
    /** Art. 3º §2 I–III. */
    purchaseSelo: new DataLoader<{ purchase: Purchase; asKnownOn: IsoDate }, PurchaseSeloView | null, string>(
      (keys) => services.purchaseSelo.seloOf(keys), { cacheKeyFn: (k) => `${k.purchase.id}|${k.asKnownOn}` }),
    /** A page's months in the statements of one. */
    taxPeriod: new DataLoader<MonthAsked, TaxPeriodView, string>(
      (asked) => services.taxPeriods.ofPage(asked), { cacheKeyFn: (k) => `${k.producer.id}|${k.year}|${k.month}|${k.asKnownOn}` }),
    /**
     * The credits of every month asked: one fold per producer and asKnownOn, up to the latest month
     * asked of it, all in the statements of one; a month asked again (an alias, a nested field) is served from it.
     */
    creditMonth: new DataLoader<CreditMonthAsked, MonthCreditsView, string>(
      (asked) => credits.ofPage(asked), { cacheKeyFn: (k) => `${k.producer.id}|${k.year}|${k.month}|${k.asKnownOn}` }),
    /** A page's years in the statements of one. */
    sealCompliance: new DataLoader<YearAskedOf, SealComplianceReport, string>(
      (asked) => services.sealCompliance.ofPage(asked), { cacheKeyFn: (k) => `${k.producer.id}|${k.year}|${k.asKnownOn}` }),
    /** A page of returns' closed tax months (computed together) and evaluated Selo years: one statement each. */
    returnClosedMonth: new DataLoader<RecordReturn, TaxPeriodView | null, string>((rs) => services.recordChanges.closedMonthsOf(rs), { cacheKeyFn: (r) => r.id }),
    returnEvaluatedYear: new DataLoader<RecordReturn, number | null, string>((rs) => services.recordChanges.evaluatedYearsOf(rs), { cacheKeyFn: (r) => r.id }),
    /** One statement per (year, asKnownOn) and page. */
    sealCountedItems: new DataLoader<CountedPageAsked, CountedPage, CountedPageAsked>((asked) => services.sealCompliance.countedPages(asked)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
