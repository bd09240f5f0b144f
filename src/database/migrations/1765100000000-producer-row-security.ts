import { MigrationInterface, QueryRunner } from 'typeorm';
import { PRODUCER_TABLES } from '../../services/producer-tables';

/**
 * Row-level security by producer, a second wall behind the API's scoping: a PRODUCER's
 * transaction runs as `selo_producer` with `selo.producer_id` set (src/services/row-security.ts);
 * other roles are unrestricted. Shared records' audit entries stay writable.
 */
export class ProducerRowSecurity1765100000000 implements MigrationInterface {
  name = 'ProducerRowSecurity1765100000000';

  async up(q: QueryRunner): Promise<void> {
    // Roles are cluster-wide: several databases may be migrated at once.
    await q.query(`
      DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'selo_producer') THEN
          CREATE ROLE selo_producer NOLOGIN NOSUPERUSER NOBYPASSRLS;
        END IF;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END $$;
    `);
    await q.query(`
      DO $$ BEGIN
        EXECUTE format('GRANT selo_producer TO %I', current_user);
      EXCEPTION WHEN duplicate_object OR unique_violation OR invalid_grant_operation THEN NULL;
      END $$;
    `);
    await q.query(`GRANT USAGE ON SCHEMA public TO selo_producer`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO selo_producer`);
    await q.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO selo_producer`);
    await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO selo_producer`);
    await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO selo_producer`);
    for (const [table, column] of PRODUCER_TABLES) {
      const own = `${column} = nullif(current_setting('selo.producer_id', true), '')::bigint`;
      const check = table === 'audit_entry' ? `${column} IS NULL OR ${own}` : own;
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      // The owner and superusers are not restricted; only selo_producer is.
      await q.query(`CREATE POLICY ${table}_all ON ${table} TO PUBLIC USING (current_user <> 'selo_producer') WITH CHECK (current_user <> 'selo_producer')`);
      await q.query(`CREATE POLICY ${table}_own_producer ON ${table} TO selo_producer USING (${check}) WITH CHECK (${check})`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table] of PRODUCER_TABLES) {
      await q.query(`DROP POLICY IF EXISTS ${table}_own_producer ON ${table}`);
      await q.query(`DROP POLICY IF EXISTS ${table}_all ON ${table}`);
      await q.query(`ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`);
    }
  }
}
