import { DataSource } from 'typeorm';
import { loadShippedLaw } from '../services/law.service';

/**
 * Everything a migrated database needs before the API serves from it, run at every start-up and
 * idempotent: the shipped law (src/law/parameters) is loaded here.
 */
export async function prepareDatabase(_ds: DataSource): Promise<void> {
  await loadShippedLaw(_ds);
  // Steps are added here as the law and reference data are shipped.
}
