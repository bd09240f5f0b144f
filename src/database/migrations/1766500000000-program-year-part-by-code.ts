import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A producer-year-day stored once per code that computed it: during a rolling deploy the two
 * releases' parts stand side by side, each read by its own release, instead of replacing each
 * other at every store (program-parts.ts, OTHER_CODE_KEPT).
 */
export class ProgramYearPartByCode1766500000000 implements MigrationInterface {
  name = 'ProgramYearPartByCode1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE program_year_part DROP CONSTRAINT program_year_part_pkey, ADD PRIMARY KEY (year, as_known_on, code, producer_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    // Computed again when asked: the parts are never the only copy of anything.
    await q.query('TRUNCATE program_year_part');
    await q.query('ALTER TABLE program_year_part DROP CONSTRAINT program_year_part_pkey, ADD PRIMARY KEY (year, as_known_on, producer_id)');
  }
}
