import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The original note's item number (nItem) a return takes back from, when the purchase came from an
 * NF-e or the return names it: two items of one feedstock in a note are told apart by it. Null for
 * earlier returns and for purchases typed without their note's item.
 */
export class ReturnOriginalItem1766420000000 implements MigrationInterface {
  name = 'ReturnOriginalItem1766420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE record_return ADD COLUMN original_item int CHECK (original_item BETWEEN 1 AND 990)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE record_return DROP COLUMN original_item`);
  }
}
