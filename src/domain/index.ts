import { AuditEntry } from './audit-entry.entity';
import { BiodieselImport } from './biodiesel-import.entity';
import { Contract } from './contract.entity';
import { FamilyFarmerRegistration } from './family-farmer-registration.entity';
import { FamilyFarmer } from './family-farmer.entity';
import { FamilyFarmingOrganization } from './family-farming-organization.entity';
import { FomentoExpense } from './fomento-expense.entity';
import { LawParameterVersion } from './law-parameter-version.entity';
import { MinimumPrice } from './minimum-price.entity';
import { Municipality } from './municipality.entity';
import { OrganizationMembership } from './organization-membership.entity';
import { OrganizationRegistration } from './organization-registration.entity';
import { Producer } from './producer.entity';
import { Purchase } from './purchase.entity';
import { RegimeElection } from './regime-election.entity';
import { Sale } from './sale.entity';
import { RecordReturn } from './record-return.entity';
import { SemiaridMembership } from './semiarid-membership.entity';
import { SealEvaluation } from './seal-evaluation.entity';
import { SealEvent } from './seal-event.entity';
import { SealGrant } from './seal-grant.entity';
import { TaxPeriod } from './tax-period.entity';

export {
  AuditEntry, BiodieselImport, Contract, FamilyFarmer, FamilyFarmerRegistration, FamilyFarmingOrganization, FomentoExpense,
  LawParameterVersion, MinimumPrice, Municipality, OrganizationMembership, OrganizationRegistration, Producer, Purchase,
  RecordReturn, RegimeElection, Sale, SealEvaluation, SealEvent, SealGrant, SemiaridMembership, TaxPeriod,
};

export const entities = [
  AuditEntry, BiodieselImport, Contract, FamilyFarmer, FamilyFarmerRegistration, FamilyFarmingOrganization, FomentoExpense,
  LawParameterVersion, MinimumPrice, Municipality, OrganizationMembership, OrganizationRegistration, Producer, Purchase,
  RecordReturn, RegimeElection, Sale, SealEvaluation, SealEvent, SealGrant, SemiaridMembership, TaxPeriod,
];
