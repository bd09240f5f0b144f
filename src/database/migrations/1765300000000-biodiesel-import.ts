import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Imports of biodiesel (Decreto 10.527/2020, art. 5º §1º): the date of customs clearance, the
 * volume and the import declaration's number, unique per producer; under the producer's row-level
 * security like every other record of a producer.
 */
export class BiodieselImport1765300000000 implements MigrationInterface {
  name = 'BiodieselImport1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE biodiesel_import (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        cleared_on date NOT NULL,
        volume_m3 numeric NOT NULL CHECK (volume_m3 > 0),
        declaration_number text NOT NULL CHECK (length(trim(declaration_number)) > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT biodiesel_import_declaration UNIQUE (producer_id, declaration_number)
      );
      CREATE INDEX biodiesel_import_producer_cleared ON biodiesel_import (producer_id, cleared_on, id);
      ALTER TABLE biodiesel_import ENABLE ROW LEVEL SECURITY;
      CREATE POLICY biodiesel_import_all ON biodiesel_import TO PUBLIC USING (current_user <> 'selo_producer') WITH CHECK (current_user <> 'selo_producer');
      CREATE POLICY biodiesel_import_own_producer ON biodiesel_import TO selo_producer
        USING (producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint)
        WITH CHECK (producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE biodiesel_import');
  }
}
