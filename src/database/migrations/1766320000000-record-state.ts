import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['purchase', 'sale', 'biodiesel_import', 'fomento_expense'];
const KEY = `'^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$'`;

/**
 * Each purchase, sale, import and fomento gets a state (cancelled: kept, out of every computation),
 * a version for corrections, and the NF-e key, so a cancellation finds every record of its note.
 */
export class RecordState1766320000000 implements MigrationInterface {
  name = 'RecordState1766320000000';

  async up(q: QueryRunner): Promise<void> {
    for (const t of TABLES) {
      await q.query(`ALTER TABLE ${t} ADD COLUMN state text NOT NULL DEFAULT 'ACTIVE' CHECK (state IN ('ACTIVE', 'CANCELLED')),
                                     ADD COLUMN version int NOT NULL DEFAULT 1`);
      if (t !== 'sale') {
        await q.query(`ALTER TABLE ${t} ADD COLUMN invoice_key char(44) CHECK (invoice_key ~ ${KEY})`);
      }
      await q.query(`CREATE INDEX ${t}_invoice_key ON ${t} (invoice_key) WHERE invoice_key IS NOT NULL`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of TABLES) {
      await q.query(`DROP INDEX ${t}_invoice_key`);
      await q.query(`ALTER TABLE ${t} DROP COLUMN state, DROP COLUMN version`);
      if (t !== 'sale') await q.query(`ALTER TABLE ${t} DROP COLUMN invoice_key`);
    }
  }
}
