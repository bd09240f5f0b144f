import { MigrationInterface, QueryRunner } from 'typeorm';

const KEY = `'^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$'`;
const OWN = `producer_id = nullif(current_setting('selo.producer_id', true), '')::bigint`;

/**
 * Returns (finNFe 4) reduce a purchase or sale in the month of the return (docs/LAW.md,
 * "Returns"), read as negative records on their day.
 */
export class RecordReturn1766330000000 implements MigrationInterface {
  name = 'RecordReturn1766330000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE record_return (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        purchase_id bigint REFERENCES purchase(id),
        sale_id bigint REFERENCES sale(id),
        returned_on date NOT NULL,
        quantity numeric NOT NULL CHECK (quantity > 0),
        value numeric NOT NULL CHECK (value > 0),
        invoice_key char(44) CHECK (invoice_key ~ ${KEY}),
        original_key char(44) NOT NULL CHECK (original_key ~ ${KEY}),
        state text NOT NULL DEFAULT 'ACTIVE' CHECK (state IN ('ACTIVE', 'CANCELLED')),
        version int NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((purchase_id IS NULL) <> (sale_id IS NULL))
      )`);
    await q.query(`CREATE INDEX record_return_purchase ON record_return (purchase_id) WHERE purchase_id IS NOT NULL`);
    await q.query(`CREATE INDEX record_return_sale ON record_return (sale_id) WHERE sale_id IS NOT NULL`);
    await q.query(`CREATE INDEX record_return_producer_day ON record_return (producer_id, returned_on)`);
    await q.query(`CREATE INDEX record_return_invoice_key ON record_return (invoice_key) WHERE invoice_key IS NOT NULL`);
    await q.query(`ALTER TABLE record_return ENABLE ROW LEVEL SECURITY`);
    await q.query(`CREATE POLICY record_return_all ON record_return TO PUBLIC USING (current_user <> 'selo_producer') WITH CHECK (current_user <> 'selo_producer')`);
    await q.query(`CREATE POLICY record_return_own_producer ON record_return TO selo_producer USING (${OWN}) WITH CHECK (${OWN})`);
    await q.query(`GRANT SELECT, INSERT, UPDATE ON record_return TO selo_producer`);

    // security_invoker: a PRODUCER's statement sees through the views only what row-level security shows it.
    await q.query(`
      CREATE VIEW counted_sale WITH (security_invoker = true) AS
        SELECT id, producer_id, sold_on, volume_m3, revenue, origin, market, state FROM sale WHERE state = 'ACTIVE'
        UNION ALL
        SELECT s.id, s.producer_id, r.returned_on, -r.quantity, -r.value, s.origin, s.market, s.state
          FROM record_return r JOIN sale s ON s.id = r.sale_id AND s.state = 'ACTIVE' WHERE r.state = 'ACTIVE'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW counted_sale`);
    await q.query(`DROP TABLE record_return`);
  }
}
