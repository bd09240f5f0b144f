import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Closed monthly tax periods (issue 4): the snapshot of every figure and a fingerprint of the
 * inputs, who closed it and when, and the history of reopenings with their reasons. A month
 * without a row is OPEN.
 */
export class TaxPeriod1765000000000 implements MigrationInterface {
  name = 'TaxPeriod1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tax_period (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        year integer NOT NULL CHECK (year BETWEEN 2000 AND 9999),
        month integer NOT NULL CHECK (month BETWEEN 1 AND 12),
        status text NOT NULL CHECK (status IN ('OPEN','CLOSED')),
        snapshot jsonb,
        fingerprint text,
        closed_at timestamptz,
        closed_by text,
        reopened_at timestamptz,
        reopened_by text,
        reopen_reason text,
        history jsonb NOT NULL DEFAULT '[]'::jsonb,
        UNIQUE (producer_id, year, month),
        CHECK (status <> 'CLOSED' OR (snapshot IS NOT NULL AND fingerprint IS NOT NULL AND closed_at IS NOT NULL AND closed_by IS NOT NULL))
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tax_period`);
  }
}
