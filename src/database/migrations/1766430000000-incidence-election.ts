import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The yearly election of the incidence regime (Lei 10.637/2002 art. 8º; Lei 10.833/2003 art. 10):
 * irrevocable for the calendar year, so one per producer and year, under row-level security.
 */
export class IncidenceElection1766430000000 implements MigrationInterface {
  name = 'IncidenceElection1766430000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE incidence_election (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        year integer NOT NULL,
        regime text NOT NULL CHECK (regime IN ('NON_CUMULATIVE', 'CUMULATIVE')),
        elected_on date NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT incidence_election_year UNIQUE (producer_id, year)
      );
      ALTER TABLE incidence_election ENABLE ROW LEVEL SECURITY;
      CREATE POLICY incidence_election_all ON incidence_election TO PUBLIC USING (current_user <> 'selo_producer') WITH CHECK (current_user <> 'selo_producer');
      CREATE POLICY incidence_election_own_producer ON incidence_election TO selo_producer
        USING (producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint)
        WITH CHECK (producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE incidence_election');
  }
}
