import { DataSource, EntityManager } from 'typeorm';
import { Contract } from '../../domain';
import { Conformity, ContractFacts, contractConformity, MinimumPriceRun, minimumPriceRuns } from '../../law/contract-conformity';
import { IsoDate } from '../../law/dates';
import { Decimal } from '../../law/decimal';
import { Finding } from '../../law/findings';
import { MinimumPriceService } from '../minimum-price.service';
import { isId } from '../record-batch';
import { ContractRow, contractsSql } from './contract-conformity.sql';
import { Conformities } from './purchase-facts.sql';

/** Contract.conformity as shown: the minimum price in force on the signing date, where one is. */
export interface ConformityView {
  conforming: boolean;
  findings: Finding[];
  minimumPrice: { id: string; feedstock: string; validFrom: string; validUntil: string | null; pricePerKg: Decimal; source: string; publishedOn: string } | null;
}

/**
 * The conformity of contracts (Decreto 10.527/2020, art. 3º §2 II–III; docs/LAW.md), for
 * Contract.conformity and for the Selo's spending (compliance.service.ts, purchase-selo.service.ts).
 */
export class ContractConformityService {
  constructor(private readonly ds: DataSource, private readonly minimumPrices: MinimumPriceService) {}

  /**
   * Conformity of contracts by id: one statement for contracts and first covered purchase (up to
   * `until` when given), one for minimum prices.
   */
  async conformities(ids: readonly string[], asKnownOn: IsoDate, until?: IsoDate, em: EntityManager = this.ds.manager): Promise<Conformities> {
    const map: Conformities = new Map();
    const wanted = [...new Set(ids.filter(isId))];
    if (wanted.length === 0) return map;
    const rows: ContractRow[] = await em.query(contractsSql(until !== undefined), until !== undefined ? [wanted, until] : [wanted]);
    const prices = await this.minimumPrices.versions([...new Set(rows.map((r) => r.feedstock))], em);
    for (const r of rows) {
      const facts: ContractFacts = {
        signedOn: r.signed_on, validFrom: r.valid_from, validUntil: r.valid_until, feedstock: r.feedstock,
        pricePerKg: new Decimal(r.price_per_kg), technicalAssistance: r.technical_assistance,
        familyFarmerId: r.family_farmer_id === null ? null : String(r.family_farmer_id),
        organizationId: r.organization_id === null ? null : String(r.organization_id),
        counterpartyPlace: r.counterparty_code && r.counterparty_region ? { municipalityCode: r.counterparty_code, region: r.counterparty_region } : null,
      };
      map.set(String(r.id), { facts, conformity: contractConformity(facts, prices, r.first_covered_on, asKnownOn) });
    }
    return map;
  }

  /** The PGPAF minimum prices in force on each day of [from, to] as known on `asKnownOn`, as runs per feedstock (Decreto 5.996/2006). */
  async minimumPriceRuns(from: IsoDate, to: IsoDate, asKnownOn: IsoDate, em: EntityManager = this.ds.manager): Promise<MinimumPriceRun[]> {
    return minimumPriceRuns(await this.minimumPrices.versions(null, em), from, to, asKnownOn);
  }

  /** Contract.conformity for loaders: keys are contract id and asKnownOn. */
  async conformityOf(keys: ReadonlyArray<{ contract: Contract; asKnownOn: IsoDate }>): Promise<ConformityView[]> {
    const byDay = new Map<IsoDate, string[]>();
    const resolved = keys.map((k) => ({ id: k.contract.id, day: k.asKnownOn }));
    for (const k of resolved) {
      const ids = byDay.get(k.day);
      if (ids) ids.push(k.id);
      else byDay.set(k.day, [k.id]);
    }
    const answers = new Map<string, Conformity>();
    for (const [day, ids] of byDay) {
      for (const [id, c] of await this.conformities(ids, day)) answers.set(`${id}|${day}`, c.conformity);
    }
    return resolved.map((k) => {
      const c = answers.get(`${k.id}|${k.day}`) as Conformity;
      const v = c.minimumPrice;
      return {
        conforming: c.conforming,
        findings: c.findings,
        minimumPrice: v && {
          id: v.id as string, feedstock: v.value.feedstock, validFrom: v.validFrom, validUntil: v.validUntil,
          pricePerKg: v.value.pricePerKg, source: v.legalBasis, publishedOn: v.publishedOn,
        },
      };
    });
  }
}
