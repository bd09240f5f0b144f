import { DataSource } from 'typeorm';
import { MunicipalityService } from './municipality.service';
import { ProducerService } from './producer.service';

/** The use cases, built once per process over the DataSource. */
export function createServices(ds: DataSource) {
  return {
    dataSource: ds,
    municipalities: new MunicipalityService(ds),
    producers: new ProducerService(ds),
  };
}

export type Services = ReturnType<typeof createServices>;
