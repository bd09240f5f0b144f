/**
 * The tables of a producer's records, each with the column naming the producer: what a PRODUCER
 * sees only its own rows of, in the services' filters and in PostgreSQL's row-level security
 * (migration ProducerRowSecurity1765100000000) alike.
 */
export const PRODUCER_TABLES: ReadonlyArray<readonly [table: string, column: string]> = [
  ['producer', 'id'], ['seal_grant', 'producer_id'], ['regime_election', 'producer_id'], ['contract', 'producer_id'],
  ['purchase', 'producer_id'], ['sale', 'producer_id'], ['fomento_expense', 'producer_id'], ['tax_period', 'producer_id'],
  ['audit_entry', 'producer_id'],
];

/** The producer's column of each such table. */
export const PRODUCER_COLUMN: ReadonlyMap<string, string> = new Map(PRODUCER_TABLES);
