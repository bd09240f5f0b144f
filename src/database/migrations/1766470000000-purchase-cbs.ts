import { MigrationInterface, QueryRunner } from 'typeorm';

/** The CBS on a purchase as its invoice states it (vCBS; LC 214/2025, art. 47): the credit of an acquisition from 2027. */
export class PurchaseCbs1766470000000 implements MigrationInterface {
  name = 'PurchaseCbs1766470000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchase ADD COLUMN cbs_value numeric CHECK (cbs_value >= 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchase DROP COLUMN cbs_value`);
  }
}
