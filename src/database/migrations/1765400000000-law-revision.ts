import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A counter raised by trigger in every transaction adding law versions: publications queue on the
 * row, so a replica's book read at revision N is current exactly while it stays N (ids could not
 * tell: a lower id may commit later).
 */
export class LawRevision1765400000000 implements MigrationInterface {
  name = 'LawRevision1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE law_revision (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        revision bigint NOT NULL CHECK (revision >= 0)
      );
      INSERT INTO law_revision (revision) VALUES (0);
      CREATE FUNCTION law_revision_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM added) THEN
          UPDATE law_revision SET revision = revision + 1;
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER law_parameter_version_bumps_revision AFTER INSERT ON law_parameter_version
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION law_revision_bump();
      REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON law_revision FROM selo_producer;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER law_parameter_version_bumps_revision ON law_parameter_version;
      DROP FUNCTION law_revision_bump();
      DROP TABLE law_revision;
    `);
  }
}
