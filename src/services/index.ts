import { DataSource } from 'typeorm';
import { AuditService } from './audit.service';
import { ContractService } from './contract.service';
import { FomentoService } from './fomento.service';
import { LawService } from './law.service';
import { MunicipalityService } from './municipality.service';
import { ProducerService } from './producer.service';
import { PurchaseService } from './purchase.service';
import { SaleService } from './sale.service';

/** The use cases, built once per process over the DataSource. */
export function createServices(ds: DataSource) {
  return {
    dataSource: ds,
    audit: new AuditService(ds),
    municipalities: new MunicipalityService(ds),
    producers: new ProducerService(ds),
    contracts: new ContractService(ds),
    purchases: new PurchaseService(ds),
    sales: new SaleService(ds),
    fomento: new FomentoService(ds),
    law: new LawService(ds),
  };
}

export type Services = ReturnType<typeof createServices>;
