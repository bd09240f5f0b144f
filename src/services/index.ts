import { DataSource } from 'typeorm';
import { Actor } from './actor';
import { ReadReplica } from './read-replica';
import { AuditService } from './audit.service';
import { BiodieselImportService } from './biodiesel-import.service';
import { ContractService } from './contract.service';
import { FamilyFarmerService } from './family-farmer.service';
import { FomentoService } from './fomento.service';
import { LawService } from './law.service';
import { MinimumPriceService } from './minimum-price.service';
import { MunicipalityService } from './municipality.service';
import { OrganizationService } from './organization.service';
import { ProducerService } from './producer.service';
import { PurchaseService } from './purchase.service';
import { RegimeService } from './regime.service';
import { SaleService } from './sale.service';
import { SealService } from './seal.service';
import { SealComplianceService } from './seal-compliance/compliance.service';
import { ContractConformityService } from './seal-compliance/contract-conformity.service';
import { PurchaseSeloService } from './seal-compliance/purchase-selo.service';
import { SealEvaluationService } from './seal-compliance/seal-evaluation.service';
import { SealPlanService } from './seal-compliance/seal-plan.service';
import { TaxPeriodService } from './tax-period.service';
import { FactsService } from './facts/facts.service';
import { CompiledReadService } from './compiled-read.service';
import { CreditService } from './credit.service';
import { RecordChangeService } from './record-change.service';
import { RecordReturnService } from './record-return.service';

import { ProgramOverviewService } from './program-overview.service';
/** The use cases over one DataSource. */
function build(ds: DataSource, writer: DataSource) {
  const law = new LawService(ds);
  const minimumPrices = new MinimumPriceService(ds);
  const contractConformity = new ContractConformityService(ds, minimumPrices);
  const sealEvaluations = new SealEvaluationService(ds);
  const sealCompliance = new SealComplianceService(ds, () => law.lawBook(), contractConformity, sealEvaluations);
  const seals = new SealService(ds);
  const taxPeriods = new TaxPeriodService(ds, () => law.lawBook());
  const credits = new CreditService(ds, () => law.lawBook(), taxPeriods);
  taxPeriods.onClose = (em, producer, year, month, law) => credits.snapshot(em, producer, year, month, law);
  return {
    dataSource: ds,
    audit: new AuditService(ds),
    municipalities: new MunicipalityService(ds),
    producers: new ProducerService(ds),
    familyFarmers: new FamilyFarmerService(ds),
    organizations: new OrganizationService(ds),
    seals,
    regimes: new RegimeService(ds),
    contracts: new ContractService(ds),
    purchases: new PurchaseService(ds),
    sales: new SaleService(ds),
    imports: new BiodieselImportService(ds, () => law.lawBook()),
    fomento: new FomentoService(ds),
    law,
    facts: new FactsService(ds),
    minimumPrices,
    contractConformity,
    sealCompliance,
    sealEvaluations,
    sealPlan: new SealPlanService(ds, sealCompliance),
    programOverview: new ProgramOverviewService(ds, writer, sealCompliance, seals),
    purchaseSelo: new PurchaseSeloService(ds, () => law.lawBook(), contractConformity),
    taxPeriods,
    recordChanges: new RecordChangeService(ds, taxPeriods),
    recordReturns: new RecordReturnService(ds),
    compiledReads: new CompiledReadService(ds),
    credits,
  };
}

export type Services = ReturnType<typeof build> & {
  /** The read replica, when READ_DATABASE_URL is set. */
  replica: ReadReplica | undefined;
  /**
   * The use cases this actor's reads run on for one request: built over the standby when the
   * replica serves the actor (an AUDITOR; an ADMIN too with `wholeProgram`) and is usable, else
   * over the primary. Their writes always go to the primary (`mutate`).
   */
  forReads(actor: Actor, wholeProgram?: boolean): Promise<Services>;
  /** Once the work left after the answers (the program's years being stored) is done, on the primary's services and the standby's. */
  settled(): Promise<void>;
};

/**
 * The use cases, built once per process over the primary's DataSource and, with a read replica,
 * once more over the standby's; `forReads` picks one set for a request.
 */
export function createServices(ds: DataSource, replica?: ReadReplica): Services {
  const settled = async () => { await Promise.all([primary.programOverview.settled(), onStandby?.programOverview.settled()]); };
  const primary: Services = Object.assign(build(ds, ds), {
    replica,
    forReads: async (actor: Actor, wholeProgram = false): Promise<Services> =>
      (replica && (await replica.targetFor(actor, wholeProgram)) === 'replica' ? onStandby! : primary),
    settled,
  });
  const onStandby: Services | undefined = replica ? Object.assign(build(replica.dataSource, ds), { replica, forReads: primary.forReads, settled }) : undefined;
  return primary;
}
