import { DataSource } from 'typeorm';
import { Producer } from '../../domain';
import { IsoDate, isIsoDate } from '../../law/dates';
import { isPriorityRegion } from '../../law/municipality';
import { Decimal, toShare } from '../../law/decimal';
import { Conformity } from '../../law/contract-conformity';
import { FomentoGroup, Place, PurchaseGroup } from '../../law/seal-spending';
import { CountedItem } from '../../law/seal-year';
import { targetDay } from '../../law/seal-spending';
import { Lever, planLevers, planShortfalls } from '../../law/seal-plan';
import { Feedstock, PurchasePurpose, Region, SealComplianceModel, SupplierKind } from '../../law/types';
import { Finding } from '../../law/findings';
import { Actor } from '../actor';
import { BadInputError, NotFoundError } from '../errors';
import { semiaridOnSql } from '../facts/priority-region.sql';
import { isId, optionalText, requireDate, requirePositiveDecimal } from '../record-batch';
import { requireYear } from '../validation';
import { assertVisible } from '../scope';
import { ExtraGroups, HYPOTHETICAL, SealComplianceReport, SealComplianceService } from './compliance.service';
import { organizationsOn, OrganizationMap } from './purchase-facts.sql';
import { message } from '../../i18n';

/** The kinds of spending a hypothetical item may be (Decreto 10.527/2020, art. 3º §2 I a, b, c). */
export type HypotheticalKind = 'FAMILY_FARMING_ACQUISITION' | 'OTHER_PRODUCT' | 'FOMENTO';

/** A spending not recorded, evaluated as if it were (sealPlan). */
export interface HypotheticalSpendingInput {
  kind: HypotheticalKind;
  amount: Decimal | string;
  on: string;
  /** Origin municipality of an acquisition, municipality of fomento (region and Semiárido judged on `on`). */
  municipalityCode: string;
  /** The product of an acquisition (factor f). */
  product?: Feedstock | null;
  /** An acquisition via this organization (its family-farmer members decide factors a/b and its habilitation); none: from a family farmer. */
  organizationId?: string | null;
  label?: string | null;
}

/** A hypothetical item as the plan weighs it. */
export interface HypotheticalItemView {
  index: number;
  label: string | null;
  kind: HypotheticalKind;
  counts: boolean;
  region: Region;
  semiarid: boolean;
  priorityRegion: boolean;
  product: Feedstock | null;
  organizationShare: Decimal | null;
  actual: Decimal;
  factors: CountedItem['factors'];
  weight: Decimal | null;
  weighted: Decimal | null;
  findings: Finding[];
}

export interface SealPlanReport {
  producer: Producer;
  year: number;
  asKnownOn: IsoDate;
  model: SealComplianceModel;
  recorded: SealComplianceReport;
  withHypothetical: SealComplianceReport;
  hypothetical: HypotheticalItemView[];
  minimumShare: ReturnType<typeof planShortfalls>['minimumShare'];
  priorityRegion: ReturnType<typeof planShortfalls>['priorityRegion'];
  levers: Lever[];
}

/** At most this many hypothetical items in one plan. */
export const MAX_HYPOTHETICAL = 100;

/**
 * Interpretation: a hypothetical purchase is read as spending that counts — an eligible supplier
 * under a conforming prior contract —; its kind, place, product and organization still decide
 * whether and how it counts.
 */
const CONFORMING: Conformity = { conforming: true, findings: [], minimumPrice: null };

/**
 * sealPlan (docs/LAW.md): the year's shortfall per requirement, the actual spending each lever needs
 * to close it alone, and hypothetical items evaluated as if they were recorded — the year's verdict
 * and its balance with them — in one read-only snapshot: nothing is written.
 */
export class SealPlanService {
  constructor(private readonly ds: DataSource, private readonly compliance: SealComplianceService) {}

  async plan(actor: Actor, producerId: string, year: number, asKnownOn: IsoDate, items: readonly HypotheticalSpendingInput[] | null | undefined): Promise<SealPlanReport> {
    const producer = isId(producerId) ? await this.ds.getRepository(Producer).findOneBy({ id: producerId }) : null;
    if (!producer) throw new NotFoundError('Producer', producerId);
    assertVisible(actor, 'Producer', producerId, producer.id);
    requireYear(year, 'year');
    const list = items ?? [];
    if (list.length > MAX_HYPOTHETICAL) throw new BadInputError('hypothetical', message('plan.tooManyItems', { field: 'hypothetical', max: MAX_HYPOTHETICAL }));
    const checked = await this.check(list, year);

    const { law, recorded, withExtra } = await this.compliance.recordedAndWith(producer, year, asKnownOn, this.groups(checked));
    const r = withExtra.result;
    const views = checked.map((h, index): HypotheticalItemView => {
      const key = `${HYPOTHETICAL}${index}`;
      const item = r.items.find((i) => i.key === key);
      const excluded = r.excluded.find((e) => e.key === key);
      return {
        index, label: h.label, kind: h.kind, counts: item !== undefined, region: h.place.region, semiarid: h.place.semiarid,
        priorityRegion: h.priorityRegion, product: h.product, organizationShare: h.organizationShare && toShare(h.organizationShare), actual: h.amount,
        factors: item?.factors ?? [], weight: item?.weight ?? null, weighted: item?.weighted ? item.weighted.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN) : null,
        findings: item?.findings ?? excluded?.findings ?? [],
      };
    });
    const { minimumShare, priorityRegion } = planShortfalls(r);
    return {
      producer, year, asKnownOn, model: r.model, recorded, withHypothetical: withExtra, hypothetical: views, minimumShare, priorityRegion,
      levers: planLevers(r, law, targetDay(year)),
    };
  }

  /** Each item well formed, in the year, its municipality and organization known: the first problem is the caller's error, nothing computed. */
  private async check(items: readonly HypotheticalSpendingInput[], year: number) {
    const places = new Map<string, Place>();
    let organizations: OrganizationMap = new Map();
    if (items.length) {
      // Region and Semiárido of each municipality on each item's date (the shared fact builder).
      const rows: Array<{ i: number; code: string; region: Region; semiarid: boolean }> = await this.ds.query(
        `SELECT k.i, m.ibge_code AS code, m.region, ${semiaridOnSql('m.ibge_code', 'k.day')} AS semiarid
           FROM unnest($1::text[], $2::date[]) WITH ORDINALITY AS k(code, day, i) JOIN municipality m ON m.ibge_code = k.code`,
        [items.map((h) => h.municipalityCode), items.map((h) => (h.on >= `${year}-01-01` && h.on <= `${year}-12-31` ? h.on : `${year}-12-31`))],
      );
      for (const row of rows) places.set(`${Number(row.i) - 1}`, { region: row.region, semiarid: row.semiarid });
      // Each organization's kind and the member counts declared for the item's date (art. 4º VI).
      organizations = await organizationsOn(this.ds.manager, items.filter((h) => h.organizationId && isId(h.organizationId) && isIsoDate(h.on))
        .map((h) => ({ organizationId: h.organizationId!, on: h.on })));
    }
    return items.map((h, i) => {
      const at = (field: string) => `hypothetical[${i}].${field}`;
      if (!['FAMILY_FARMING_ACQUISITION', 'OTHER_PRODUCT', 'FOMENTO'].includes(h.kind)) throw new BadInputError(at('kind'), message('plan.kind', { field: at('kind') }));
      const amount = requirePositiveDecimal(h.amount, at('amount'));
      const on = requireDate(h.on, at('on'));
      if (on < `${year}-01-01` || on > `${year}-12-31`) throw new BadInputError(at('on'), message('plan.onInYear', { field: at('on'), year }));
      const place = places.get(`${i}`);
      if (!place) throw new BadInputError(at('municipalityCode'), message('input.unknownMunicipality', { code: h.municipalityCode }));
      const acquisition = h.kind !== 'FOMENTO';
      if (acquisition && !h.product) throw new BadInputError(at('product'), message('plan.productRequired', { field: at('product') }));
      const organization = acquisition && h.organizationId ? organizations.get(`${h.organizationId}|${on}`) : undefined;
      if (acquisition && h.organizationId && !organization) throw new BadInputError(at('organizationId'), message('plan.unknownOrganization', { field: at('organizationId'), id: h.organizationId }));
      const p = place;
      return {
        kind: h.kind, amount, on, place: p, priorityRegion: isPriorityRegion(p),
        product: acquisition ? (h.product as Feedstock) : null, organization: organization ?? null,
        organizationShare: organization && organization.members > 0 ? new Decimal(organization.familyFarmerMembers).div(organization.members) : null,
        label: optionalText(h.label),
      };
    });
  }

  /** The hypothetical items as groups of the year, keyed apart from every recorded one. */
  private groups(items: Awaited<ReturnType<SealPlanService['check']>>): ExtraGroups {
    return (segmentOn) => {
      const purchases: PurchaseGroup[] = [];
      const fomento: FomentoGroup[] = [];
      items.forEach((h, index) => {
        const key = `${HYPOTHETICAL}${index}`;
        const segment = segmentOn(h.on);
        if (h.kind === 'FOMENTO') {
          fomento.push({ key, place: h.place, segment, amount: h.amount, count: 1 });
          return;
        }
        purchases.push({
          key, purpose: h.kind === 'OTHER_PRODUCT' ? PurchasePurpose.OTHER_PRODUCT : PurchasePurpose.BIODIESEL_FEEDSTOCK,
          supplier: h.organization
            ? { kind: h.organization.kind as unknown as SupplierKind, registrationValid: true, lateDap: false, organization: h.organization }
            : { kind: SupplierKind.FAMILY_FARMER, registrationValid: true, lateDap: false, organization: null },
          contract: { id: key, signedOn: h.on, conformity: CONFORMING, priorToPurchase: true, coverage: { date: true, feedstock: true, counterparty: true } },
          origin: h.place, segment, amount: h.amount, count: 1, product: h.product as Feedstock, belowMinimumPrice: false,
        });
      });
      return { purchases, fomento };
    };
  }
}

