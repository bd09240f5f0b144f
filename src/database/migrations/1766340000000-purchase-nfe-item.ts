import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A purchase read from an NF-e keeps its item's number in the note (nItem) and its PIS/Cofins CST
 * (the tax situation code of the item, which decides the credits a later computation may take).
 */
export class PurchaseNfeItem1766340000000 implements MigrationInterface {
  name = 'PurchaseNfeItem1766340000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchase ADD COLUMN invoice_item int CHECK (invoice_item BETWEEN 1 AND 990),
                                      ADD COLUMN pis_cofins_cst char(2) CHECK (pis_cofins_cst ~ '^[0-9]{2}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchase DROP COLUMN invoice_item, DROP COLUMN pis_cofins_cst`);
  }
}
