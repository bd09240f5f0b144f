import { DataSource } from 'typeorm';
import { Purchase } from '../../domain';
import { IsoDate } from '../../law/dates';
import { LAST_DAP_ISSUE_DAY } from '../../law/family-farming';
import { Finding } from '../../law/findings';
import { LawBook, SpendingKind } from '../../law/law-book';
import { Decimal } from '../../law/decimal';
import { decidePurchaseGroup, parameterSegments } from '../../law/seal-spending';
import { AppliedFactor } from '../../law/seal-year';
import { money } from '../../law/seal-presentation';
import { purchaseWeighing, weighItem } from '../../law/seal-weighting';
import { sealComplianceModel } from '../../law/seal-compliance';
import { SealComplianceModel } from '../../law/types';
import { ContractConformityService } from './contract-conformity.service';
import {
  FAMILY_FARMING_SUPPLIERS, minimumPriceParams, organizationFacts, PURCHASE_COLUMNS, purchaseFacts, PurchaseGroupRow, purchaseGroupOf,
} from './purchase-facts.sql';

/** Purchase.selo: whether one purchase counts for the Selo targets of its year, and why not. */
export interface PurchaseSeloView {
  year: number;
  asKnownOn: IsoDate;
  counts: boolean;
  kind: SpendingKind;
  /** A counted purchase is part of the priority-region spending (requirement 2). */
  priorityRegion: boolean;
  /** Every finding that applies; empty when it counts. */
  findings: Finding[];
  model: SealComplianceModel;
  /** The cost as recorded. */
  actual: Decimal;
  /** Weighted model, when it counts: each factor applied; else empty. */
  factors: AppliedFactor[];
  /** When it counts: the product of the factors with a published figure (flat model: 1). */
  weight: Decimal | null;
  /** When it counts: actual × weight, to the centavo. */
  weighted: Decimal | null;
  /** When it counts, what does not exclude it: DAP_ISSUED_AFTER_CUTOFF, PURCHASE_BELOW_MINIMUM_PRICE, WEIGHTING_FACTOR_NOT_PUBLISHED. */
  warnings: Finding[];
}

/**
 * Purchase.selo (Decreto 10.527/2020, art. 3º §2 I–III): one purchase's verdict, decided by the very
 * facts (purchase-facts.sql.ts), contract conformity and law function (`decidePurchaseGroup`) that
 * the year's compliance uses, so that the two never disagree.
 */
export class PurchaseSeloService {
  constructor(
    private readonly ds: DataSource,
    private readonly lawBook: () => Promise<LawBook>,
    private readonly contracts: ContractConformityService,
  ) {}

  /**
   * Purchase.selo for a page: statements per (year, asKnownOn) for all its producers, not per
   * purchase. Third-party and own-production purchases are not family-farming spending: null.
   */
  async seloOf(keys: ReadonlyArray<{ purchase: Purchase; asKnownOn: IsoDate }>): Promise<Array<PurchaseSeloView | null>> {
    const answers = new Map<string, PurchaseSeloView>();
    const batches = new Map<string, { producerIds: Set<string>; year: number; asKnownOn: IsoDate; ids: string[] }>();
    const resolved = keys.map((k) => {
      const asKnownOn = k.asKnownOn;
      const year = Number(k.purchase.purchasedOn.slice(0, 4));
      const batch = `${year}|${asKnownOn}`;
      const b = batches.get(batch) ?? { producerIds: new Set<string>(), year, asKnownOn, ids: [] };
      if (FAMILY_FARMING_SUPPLIERS.has(k.purchase.supplierKind)) {
        b.ids.push(k.purchase.id);
        b.producerIds.add(k.purchase.producerId);
      }
      batches.set(batch, b);
      return `${k.purchase.id}|${asKnownOn}`;
    });
    const law = await this.lawBook();
    for (const b of batches.values()) {
      if (b.ids.length === 0) continue;
      const from = `${b.year}-01-01`;
      const to = `${b.year}-12-31`;
      const segments = parameterSegments(law, from, to, b.asKnownOn);
      const em = this.ds.manager;
      const weighted = sealComplianceModel(law, b.year, b.asKnownOn) !== undefined;
      const priceRuns = weighted ? await this.contracts.minimumPriceRuns(from, to, b.asKnownOn, em) : [];
      const params = [[...b.producerIds], from, to, segments.map((s) => s.from), LAST_DAP_ISSUE_DAY, ...minimumPriceParams(priceRuns)];
      const rows: Array<PurchaseGroupRow & { id: string }> = await em.query(
        `SELECT id, ${PURCHASE_COLUMNS}, cost AS amount, 1 AS n
           FROM (${purchaseFacts(` AND p.id = ANY($${params.length + 1}::bigint[]) AND p.return_id IS NULL`, true)}) f`,
        [...params, b.ids],
      );
      const contractIds = [...new Set(rows.map((r) => r.contract_id).filter((id) => id !== '0'))];
      // As the year's compliance finds it: the first purchase each contract covers up to the year's end (art. 3º §2 II).
      const conformities = await this.contracts.conformities(contractIds, b.asKnownOn, to, em);
      const organizations = await organizationFacts(em, [...new Set(rows.map((r) => r.membership_id).filter((id) => id !== '0'))]);
      for (const r of rows) {
        const g = purchaseGroupOf(r, conformities, organizations, (i) => segments[i - 1]);
        const d = decidePurchaseGroup(g, law, b.asKnownOn);
        const item = d.counts && weighted ? weighItem(g.key, d.kind, g, purchaseWeighing(g), law, b.asKnownOn, g.belowMinimumPrice, d.warnings) : null;
        const weight = item ? item.weight : d.counts ? d.weighted.div(g.amount) : null;
        answers.set(`${r.id}|${b.asKnownOn}`, {
          year: b.year, asKnownOn: b.asKnownOn, counts: d.counts, kind: d.kind, priorityRegion: d.priorityRegion, findings: d.findings,
          model: weighted ? SealComplianceModel.WEIGHTED : SealComplianceModel.FLAT, actual: g.amount, factors: item?.factors ?? [],
          weight, weighted: weight && money(g.amount.times(weight)), warnings: item?.findings ?? d.warnings,
        });
      }
    }
    return resolved.map((k) => answers.get(k) ?? null);
  }
}
