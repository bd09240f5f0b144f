import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The supplier's Cofins CST where it differs from its PIS/Pasep CST (`pis_cofins_cst`): an NF-e item
 * states one for each, and each contribution's credit follows its own (Lei 10.637/2002 and Lei
 * 10.833/2003, each art. 3º § 2º II). Null: the same CST for both, as every purchase recorded so far.
 */
export class PurchaseCofinsCst1766510000000 implements MigrationInterface {
  name = 'PurchaseCofinsCst1766510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchase ADD COLUMN cofins_cst char(2) CHECK (cofins_cst ~ '^[0-9]{2}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchase DROP COLUMN cofins_cst`);
  }
}
