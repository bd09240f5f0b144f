import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An NF-e key may name an alphanumeric CNPJ (NT Conjunta 2025.001): its positions 7 to 18 take
 * 0–9 and A–Z; the check digit and model are verified by the service (src/formats/nfe-key.ts).
 */
export class NfeKeyAlphanumeric1766310000000 implements MigrationInterface {
  name = 'NfeKeyAlphanumeric1766310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sale DROP CONSTRAINT sale_invoice_key_check`);
    await q.query(`ALTER TABLE sale ADD CONSTRAINT sale_invoice_key_check CHECK (invoice_key ~ '^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sale DROP CONSTRAINT sale_invoice_key_check`);
    await q.query(`ALTER TABLE sale ADD CONSTRAINT sale_invoice_key_check CHECK (invoice_key ~ '^[0-9]{44}$')`);
  }
}
