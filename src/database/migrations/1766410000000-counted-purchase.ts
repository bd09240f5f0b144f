import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Portaria MDA nº 28/2024; docs/LAW.md, "Returns": a return is a negative lot judged as its
 * original, counted on its own day; both legs read through the (producer, day) index.
 */
export class CountedPurchase1766410000000 implements MigrationInterface {
  name = 'CountedPurchase1766410000000';

  async up(q: QueryRunner): Promise<void> {
    const columns = 'producer_id, purchased_on, purpose, supplier_kind, family_farmer_id, organization_id, contract_id, feedstock, origin_municipality_code, state';
    await q.query(`
      CREATE VIEW counted_purchase WITH (security_invoker = true) AS
        SELECT id, NULL::bigint AS return_id, ${columns}, purchased_on AS counted_on, cost, quantity_kg, cost AS judged_cost, quantity_kg AS judged_kg
          FROM purchase WHERE state = 'ACTIVE'
        UNION ALL
        SELECT p.id, r.id, ${columns.split(', ').map((c) => (c === 'producer_id' ? 'r.producer_id' : `p.${c}`)).join(', ')}, r.returned_on,
               CASE WHEN p.cost IS NULL THEN NULL ELSE -r.value END, -r.quantity, p.cost, p.quantity_kg
          FROM record_return r JOIN purchase p ON p.id = r.purchase_id AND p.state = 'ACTIVE' WHERE r.state = 'ACTIVE'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW counted_purchase`);
  }
}
