import { MigrationInterface, QueryRunner } from 'typeorm';

/** The supplier's CNPJ or CPF (C191/C195 field 02 of the EFD-Contribuições), optional: digits only, the CNPJ's alphanumeric form included. */
export class SupplierDocument1766440000000 implements MigrationInterface {
  name = 'SupplierDocument1766440000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchase ADD COLUMN supplier_document text CHECK (supplier_document ~ '^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchase DROP COLUMN supplier_document`);
  }
}
