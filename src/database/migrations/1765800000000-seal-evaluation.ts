import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ministry's communicated evaluation of a Selo year (Portaria MDA 28/2024 art. 58), one per
 * producer and year, under row-level security.
 */
export class SealEvaluation1765800000000 implements MigrationInterface {
  name = 'SealEvaluation1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE seal_evaluation (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        year integer NOT NULL CHECK (year BETWEEN 2000 AND 9999),
        communicated_on date NOT NULL CHECK (communicated_on > make_date(year, 12, 31)),
        note text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT seal_evaluation_producer_year UNIQUE (producer_id, year)
      );
      CREATE INDEX seal_evaluation_producer_communicated ON seal_evaluation (producer_id, communicated_on);
      ALTER TABLE seal_evaluation ENABLE ROW LEVEL SECURITY;
      CREATE POLICY seal_evaluation_all ON seal_evaluation TO PUBLIC USING (current_user <> 'selo_producer') WITH CHECK (current_user <> 'selo_producer');
      CREATE POLICY seal_evaluation_own_producer ON seal_evaluation TO selo_producer
        USING (producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint)
        WITH CHECK (producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE seal_evaluation');
  }
}
