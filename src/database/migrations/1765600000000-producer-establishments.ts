import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * NF-e keys name their issuer: a 44-digit access key carries the issuing establishment's CNPJ in
 * positions 7 to 20 (Ajuste SINIEF 07/2005, cláusula terceira). A producer records the keys of its
 * own CNPJ and of the establishments an ADMIN records on it (`producer.establishments`, each CNPJ of
 * at most one producer: checked by the service under a lock). A key is then unique per producer
 * (which is per issuer): the global uniqueness answered CONFLICT for another producer's key, telling
 * it that someone held it, and let a key bearing another's CNPJ be recorded first.
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
