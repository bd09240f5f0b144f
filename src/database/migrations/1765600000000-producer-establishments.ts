import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key carries its issuer's CNPJ (Ajuste SINIEF 07/2005, cl. 3ª): a producer records keys of its
 * own CNPJ and its establishments, so keys are unique per producer, and another producer's key is
 * no longer a CONFLICT that reveals it.
 */
export class ProducerEstablishments1765600000000 implements MigrationInterface {
  name = 'ProducerEstablishments1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE producer ADD COLUMN establishments char(14)[] NOT NULL DEFAULT '{}';
      ALTER TABLE sale DROP CONSTRAINT sale_invoice_key_key;
      ALTER TABLE sale ADD CONSTRAINT sale_producer_invoice_key UNIQUE (producer_id, invoice_key);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sale DROP CONSTRAINT sale_producer_invoice_key;
      ALTER TABLE sale ADD CONSTRAINT sale_invoice_key_key UNIQUE (invoice_key);
      ALTER TABLE producer DROP COLUMN establishments;
    `);
  }
}
