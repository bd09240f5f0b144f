import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PGPAF minimum prices as published (Decreto 5.996/2006): by product, state or region and period.
 * `scope` is null for a national price, a state's two-digit IBGE code, or a region; a purchase is
 * judged against the most specific price in force for its origin.
 */
export class MinimumPriceScope1765940000000 implements MigrationInterface {
  name = 'MinimumPriceScope1765940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE minimum_price ADD COLUMN scope text
        CHECK (scope IS NULL OR scope ~ '^[1-5][0-9]$' OR scope IN ('NORTH', 'NORTHEAST', 'CENTER_WEST', 'SOUTHEAST', 'SOUTH'));
      DROP INDEX minimum_price_feedstock;
      CREATE INDEX minimum_price_feedstock ON minimum_price (feedstock, scope, valid_from);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX minimum_price_feedstock;
      ALTER TABLE minimum_price DROP COLUMN scope;
      CREATE INDEX minimum_price_feedstock ON minimum_price (feedstock, valid_from);
    `);
  }
}
