import { MigrationInterface, QueryRunner } from 'typeorm';

const OWN = `producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint`;

/**
 * Row-level security of the audit log for a PRODUCER (the access rules, README "Tokens"): it reads its own entries only,
 * and writes its own and those of the shared records it changes (producer_id null, a family farmer
 * recorded with its purchase). One policy for every command let it read the shared entries too —
 * every producer's changes to shared records — wherever a statement forgot the service's filter.
 * Audit entries are never updated or deleted, by a producer least of all: no policy allows it.
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
