import { MigrationInterface, QueryRunner } from 'typeorm';

const RLS = (table: string) => `
  ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
  CREATE POLICY ${table}_all ON ${table} TO PUBLIC USING (current_user <> 'selo_producer') WITH CHECK (current_user <> 'selo_producer');
  CREATE POLICY ${table}_own_producer ON ${table} TO selo_producer
    USING (producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint)
    WITH CHECK (producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint);`;

/**
 * A purchase's credit facts (Lei 10.637/2002 and 10.833/2003 art. 3º; Lei 10.865/2004 art. 15),
 * nullable (missing → awaited); the yearly apportionment election (art. 3º §§8º–9º) and refund
 * claims (Lei 11.116/2005 art. 16).
 */
export class Credits1766400000000 implements MigrationInterface {
  name = 'Credits1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE purchase
        ADD COLUMN IF NOT EXISTS pis_cofins_cst char(2) CHECK (pis_cofins_cst ~ '^[0-9]{2}$'),
        ADD COLUMN credit_supplier text CHECK (credit_supplier IN ('NATURAL_PERSON', 'COOPERATIVE', 'COMPANY', 'ABROAD')),
        ADD COLUMN credit_product text CHECK (credit_product IN ('IN_NATURA', 'SOYBEAN', 'VEGETABLE_OIL', 'ANIMAL_FAT', 'INPUT', 'FUEL_INPUT', 'B100_FOR_RESALE')),
        ADD COLUMN icms_value numeric CHECK (icms_value >= 0),
        ADD COLUMN import_pis_paid numeric CHECK (import_pis_paid >= 0),
        ADD COLUMN import_cofins_paid numeric CHECK (import_cofins_paid >= 0),
        ADD COLUMN credit_revenue_group text CHECK (credit_revenue_group IN ('TAXED_DOMESTIC', 'UNTAXED_DOMESTIC', 'EXPORT'));
      CREATE TABLE credit_apportionment_election (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        year integer NOT NULL,
        method text NOT NULL CHECK (method IN ('DIRECT_ALLOCATION', 'REVENUE_RATIO')),
        elected_on date NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT credit_apportionment_election_year UNIQUE (producer_id, year)
      );
      CREATE TABLE credit_claim (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        tax text NOT NULL CHECK (tax IN ('PIS', 'COFINS')),
        origin_year integer NOT NULL,
        origin_month integer NOT NULL CHECK (origin_month BETWEEN 1 AND 12),
        cod_cred char(3) NOT NULL,
        kind text NOT NULL CHECK (kind IN ('REFUND', 'OFFSET')),
        filed_on date NOT NULL,
        amount numeric NOT NULL CHECK (amount > 0),
        document_number text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      ALTER TABLE tax_period ADD COLUMN credits_snapshot jsonb;
      CREATE INDEX credit_claim_producer ON credit_claim (producer_id, filed_on, id);
      ${RLS('credit_apportionment_election')}
      ${RLS('credit_claim')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE tax_period DROP COLUMN credits_snapshot;
      DROP TABLE credit_claim;
      DROP TABLE credit_apportionment_election;
      ALTER TABLE purchase DROP COLUMN credit_supplier, DROP COLUMN credit_product, DROP COLUMN icms_value,
        DROP COLUMN import_pis_paid, DROP COLUMN import_cofins_paid, DROP COLUMN credit_revenue_group;
    `);
  }
}
