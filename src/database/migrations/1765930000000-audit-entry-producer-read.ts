import { MigrationInterface, QueryRunner } from 'typeorm';

const OWN = `producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint`;

/**
 * A PRODUCER reads only its own audit entries and writes its own and those of shared records it
 * changes; the single policy before let it read others' changes to shared records. No updates.
 */
export class AuditEntryProducerRead1765930000000 implements MigrationInterface {
  name = 'AuditEntryProducerRead1765930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP POLICY audit_entry_own_producer ON audit_entry`);
    await q.query(`CREATE POLICY audit_entry_own_producer_read ON audit_entry FOR SELECT TO selo_producer USING (${OWN})`);
    await q.query(`CREATE POLICY audit_entry_own_producer_write ON audit_entry FOR INSERT TO selo_producer WITH CHECK (producer_id IS NULL OR ${OWN})`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP POLICY audit_entry_own_producer_write ON audit_entry`);
    await q.query(`DROP POLICY audit_entry_own_producer_read ON audit_entry`);
    await q.query(`CREATE POLICY audit_entry_own_producer ON audit_entry TO selo_producer USING (producer_id IS NULL OR ${OWN}) WITH CHECK (producer_id IS NULL OR ${OWN})`);
  }
}
