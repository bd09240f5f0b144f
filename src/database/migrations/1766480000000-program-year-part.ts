import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The program view's producer-years as computed (program-overview.service): each read back only
 * while the marks of change it was computed under and the code that computed it are the same.
 * Ministry data: a PRODUCER's role may neither read nor write it.
 */
export class ProgramYearPart1766480000000 implements MigrationInterface {
  name = 'ProgramYearPart1766480000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE program_year_part (
        year int NOT NULL,
        as_known_on date NOT NULL,
        producer_id bigint NOT NULL REFERENCES producer(id) ON DELETE CASCADE,
        mark text NOT NULL,
        code text NOT NULL,
        part text NOT NULL,
        computed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (year, as_known_on, producer_id)
      );
      CREATE INDEX program_year_part_producer ON program_year_part (producer_id);
      REVOKE ALL ON program_year_part FROM PUBLIC;
      REVOKE ALL ON program_year_part FROM selo_producer;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE program_year_part');
  }
}
