import { DataSource } from 'typeorm';
import { FamilyFarmingOrganization, Purchase, RegimeElection, SealEvent, SealGrant } from '../../domain';
import { IsoDate } from '../../law/dates';
import { Decimal } from '../../law/decimal';
import {
  Eligibility, FamilyFarmingOrigin, familyFarmingOrigin, familyFarmerShare, farmerEligibility, Habilitation, OrganizationFacts, organizationHabilitation,
} from '../../law/family-farming';
import { LawBook } from '../../law/law-book';
import { regimeForMonth } from '../../law/regime';
import { OrganizationKind, Registration, SupplierKind, TaxRegime } from '../../law/types';
import { checkMonth } from '../validation';
import { standingOf } from '../law.service';
import { membershipOnSql } from './organization-membership.sql';
import { validRegistrationsSql } from './supplier-eligibility.sql';

/** A supplier asked about on a day: a family farmer, an organization, or neither. */
export interface SupplierAsked {
  farmerId: string | null;
  organizationId: string | null;
  on: IsoDate;
}

/** What the database holds of a supplier on a day: its registrations valid then, an organization's kind and the counts declared for then. */
export interface SupplierOnDay {
  farmerRegistrations: Registration[];
  organizationRegistrations: Registration[];
  organization: OrganizationFacts | null;
}

/**
 * The facts the law judges on a date for the read schema's computed fields: the database's side
 * from this folder's builders, the decision from src/law/.
 */
export class FactsService {
  constructor(private readonly ds: DataSource) {}

  /** The suppliers as they stood on each day asked (one statement; supplier-eligibility.sql.ts and organization-membership.sql.ts). */
  async suppliersOn(asked: readonly SupplierAsked[]): Promise<SupplierOnDay[]> {
    if (asked.length === 0) return [];
    const rows: Array<{ farmer: Registration[]; organization: Registration[]; kind: OrganizationKind | null; members: number | null; family_farmer_members: number | null }> = await this.ds.query(
      `SELECT ${validRegistrationsSql('family_farmer_registration', 'family_farmer_id', 'k.farmer', 'k.day')} AS farmer,
              ${validRegistrationsSql('organization_registration', 'organization_id', 'k.org', 'k.day')} AS organization,
              o.kind, m.members, m.family_farmer_members
         FROM unnest($1::bigint[], $2::bigint[], $3::date[]) WITH ORDINALITY AS k(farmer, org, day, n)
         LEFT JOIN family_farming_organization o ON o.id = k.org
         LEFT JOIN LATERAL ${membershipOnSql('k.org', 'k.day')} m ON true
        ORDER BY k.n`,
      [asked.map((a) => a.farmerId), asked.map((a) => a.organizationId), asked.map((a) => a.on)],
    );
    return rows.map((r) => ({
      farmerRegistrations: r.farmer,
      organizationRegistrations: r.organization,
      // An organization has the undated declaration of its creation at least; none: no members.
      organization: r.kind ? { kind: r.kind, members: Number(r.members ?? 0), familyFarmerMembers: Number(r.family_farmer_members ?? 0) } : null,
    }));
  }

  /** Decreto 10.527/2020, art. 2º IV — a family farmer's eligibility on `on`, from its registrations valid then. */
  eligibility(facts: SupplierOnDay, on: IsoDate): Eligibility {
    return farmerEligibility(facts.farmerRegistrations, on);
  }

  /**
   * Decreto 10.527/2020, art. 4º VI–VII — an organization's habilitation on `on`, the minimum share
   * as known on `asKnownOn` in `law` (the request's law book, read once for a page).
   */
  habilitation(law: LawBook, facts: SupplierOnDay, on: IsoDate, asKnownOn: IsoDate): Habilitation {
    const minShare = law.cooperativeMinFamilyFarmerShare(on, asKnownOn)?.value ?? null;
    return organizationHabilitation(facts.organization ?? { kind: OrganizationKind.COOPERATIVE, members: 0, familyFarmerMembers: 0 }, facts.organizationRegistrations, minShare, on);
  }

  /** art. 4º VI — the share of family farmers among the members as declared last. */
  familyFarmerShare(org: FamilyFarmingOrganization): Decimal {
    return familyFarmerShare(org);
  }

  /**
   * Family-farming origin (art. 6º §2º; Lei 11.116/2005 art. 5º §3º): an eligible farmer or a
   * habilitated cooperative on purchasedOn; associations count for the Selo, not for the rates.
   */
  purchaseOrigin(law: LawBook, purchase: Purchase, facts: SupplierOnDay | null, asKnownOn: IsoDate): FamilyFarmingOrigin {
    const on = purchase.purchasedOn;
    if (purchase.supplierKind === SupplierKind.FAMILY_FARMER && facts) {
      return familyFarmingOrigin({ kind: purchase.supplierKind, farmer: this.eligibility(facts, on) });
    }
    if (purchase.supplierKind === SupplierKind.COOPERATIVE && facts?.organization) {
      return familyFarmingOrigin({ kind: purchase.supplierKind, organization: this.habilitation(law, facts, on, asKnownOn) });
    }
    return familyFarmingOrigin({ kind: purchase.supplierKind });
  }

  /** The supplier a purchase's family-farming origin depends on, on its date (null: none to ask about). */
  static supplierOf(p: Purchase): SupplierAsked | null {
    if (p.supplierKind === SupplierKind.FAMILY_FARMER && p.familyFarmerId) return { farmerId: p.familyFarmerId, organizationId: null, on: p.purchasedOn };
    if (p.supplierKind === SupplierKind.COOPERATIVE && p.organizationId) return { farmerId: null, organizationId: p.organizationId, on: p.purchasedOn };
    return null;
  }

  /** Decreto 10.527/2020, art. 6º §2º; docs/LAW.md — a producer's Selo standing on a date. */
  standing(grants: readonly SealGrant[], events: ReadonlyArray<readonly SealEvent[]>, on: IsoDate) {
    return standingOf(grants, events, on);
  }

  /** Lei 11.116/2005, art. 4º §§1º, 4º, 5º — the regime in force in a month (default December: the year as a whole). */
  regime(elections: readonly RegimeElection[], year: number, month?: number | null): TaxRegime {
    checkMonth(year, month ?? 12);
    return regimeForMonth(elections, year, month ?? 12).regime;
  }
}
