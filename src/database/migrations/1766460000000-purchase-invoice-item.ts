import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An NF-e item is one purchase: an active purchase of a producer per note key and item number (the
 * NF-e import sets both; a cancelled one may be recorded again). Existing double records stop the
 * migration, named, rather than be chosen between here.
 */
export class PurchaseInvoiceItem1766460000000 implements MigrationInterface {
  name = 'PurchaseInvoiceItem1766460000000';

  async up(q: QueryRunner): Promise<void> {
    const twice: Array<{ producer_id: string; invoice_key: string; invoice_item: number; ids: string }> = await q.query(
      `SELECT producer_id::text, invoice_key, invoice_item, string_agg(id::text, ', ' ORDER BY id) AS ids FROM purchase
        WHERE invoice_item IS NOT NULL AND state = 'ACTIVE' GROUP BY 1, 2, 3 HAVING count(*) > 1 ORDER BY 1, 2, 3 LIMIT 10`);
    if (twice.length > 0) {
      throw new Error(`NF-e items recorded as more than one active purchase (producer, key, item: purchases): ${twice.map((t) => `${t.producer_id}, ${t.invoice_key}, ${t.invoice_item}: ${t.ids}`).join('; ')}. `
        + 'Cancel each such note (cancelDocument) and import it once again, then start the API.');
    }
    await q.query(`CREATE UNIQUE INDEX purchase_invoice_item ON purchase (producer_id, invoice_key, invoice_item) WHERE invoice_item IS NOT NULL AND state = 'ACTIVE'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX purchase_invoice_item');
  }
}
