import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * docs/LAW.md: versions of the law are never updated or deleted — a correction is a new version.
 * The database enforces it, so that no code path (nor a hand-written statement) can rewrite what
 * was known on a past date.
 */
export class LawVersionsAppendOnly1764900000000 implements MigrationInterface {
  name = 'LawVersionsAppendOnly1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION law_parameter_version_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'law_parameter_version is append-only: publish a new version instead (% refused)', TG_OP
          USING ERRCODE = 'restrict_violation';
      END
      $$;
      CREATE TRIGGER law_parameter_version_no_update_or_delete BEFORE UPDATE OR DELETE ON law_parameter_version
        FOR EACH ROW EXECUTE FUNCTION law_parameter_version_append_only();
      CREATE TRIGGER law_parameter_version_no_truncate BEFORE TRUNCATE ON law_parameter_version
        FOR EACH STATEMENT EXECUTE FUNCTION law_parameter_version_append_only();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER law_parameter_version_no_truncate ON law_parameter_version;
      DROP TRIGGER law_parameter_version_no_update_or_delete ON law_parameter_version;
      DROP FUNCTION law_parameter_version_append_only();
    `);
  }
}
