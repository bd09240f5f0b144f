import { MigrationInterface, QueryRunner } from 'typeorm';

/** The act cited by the intervals carried over from the undated flag of earlier records. */
export const MIGRATED_FLAG_ACT = 'Undated Semiárido flag of the municipality record (before dated membership)';

/**
 * The Semiárido as dated intervals citing their Condel/Sudene act (Decreto 10.527/2020 art. 6º I,
 * III); today's flags become undated open intervals so past answers stand. The stored
 * `priority_region` goes: derived, it can no longer drift.
 */
export class SemiaridMembership1765500000000 implements MigrationInterface {
  name = 'SemiaridMembership1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE semiarid_membership (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        municipality_code char(7) NOT NULL REFERENCES municipality(ibge_code),
        valid_from date,
        valid_until date,
        act text NOT NULL CHECK (length(trim(act)) > 0),
        recorded_at timestamptz NOT NULL DEFAULT now(),
        CHECK (valid_from IS NULL OR valid_until IS NULL OR valid_until >= valid_from)
      );
      CREATE INDEX semiarid_membership_municipality ON semiarid_membership (municipality_code, valid_from);
    `);
    await q.query(`INSERT INTO semiarid_membership (municipality_code, valid_from, valid_until, act)
                   SELECT ibge_code, NULL, NULL, $1 FROM municipality WHERE semiarid ORDER BY ibge_code`, [MIGRATED_FLAG_ACT]);
    await q.query(`ALTER TABLE municipality DROP COLUMN priority_region, DROP COLUMN semiarid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE municipality ADD COLUMN semiarid boolean NOT NULL DEFAULT false, ADD COLUMN priority_region boolean NOT NULL DEFAULT false`);
    await q.query(`UPDATE municipality m SET semiarid = EXISTS (SELECT 1 FROM semiarid_membership s WHERE s.municipality_code = m.ibge_code
                     AND (s.valid_from IS NULL OR s.valid_from <= current_date) AND (s.valid_until IS NULL OR current_date <= s.valid_until))`);
    await q.query(`UPDATE municipality SET priority_region = region IN ('NORTH', 'NORTHEAST') OR semiarid`);
    await q.query(`ALTER TABLE municipality ALTER COLUMN semiarid DROP DEFAULT, ALTER COLUMN priority_region DROP DEFAULT`);
    await q.query(`DROP TABLE semiarid_membership`);
  }
}
