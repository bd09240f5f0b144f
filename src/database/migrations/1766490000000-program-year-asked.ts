import { MigrationInterface, QueryRunner } from 'typeorm';

/** The years of the program view asked for as known today, and the last day each was: the background refresh keeps them ready. */
export class ProgramYearAsked1766490000000 implements MigrationInterface {
  name = 'ProgramYearAsked1766490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE program_year_asked (year int PRIMARY KEY, asked_on date NOT NULL);
      REVOKE ALL ON program_year_asked FROM PUBLIC;
      REVOKE ALL ON program_year_asked FROM selo_producer;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE program_year_asked');
  }
}
