import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The purchases of a contract by date: the first purchase a contract covers (Decreto 10.527/2020,
 * art. 3º §2 II; src/services/facts/contract-coverage.sql.ts) is found in one index probe per
 * contract, its validity bounding the scan, instead of reading every purchase recorded under it.
 */
export class PurchaseContractDate1765920000000 implements MigrationInterface {
  name = 'PurchaseContractDate1765920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX purchase_contract;
      CREATE INDEX purchase_contract ON purchase (contract_id, purchased_on) WHERE contract_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX purchase_contract;
      CREATE INDEX purchase_contract ON purchase (contract_id) WHERE contract_id IS NOT NULL;
    `);
  }
}
