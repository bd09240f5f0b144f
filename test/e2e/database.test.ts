import { createTestDatabase, TestDatabase } from '../support/database';
import { Decimal } from '../../src/law/decimal';
import { Municipality, Producer, Sale } from '../../src/domain';

let db: TestDatabase;
beforeAll(async () => { db = await createTestDatabase(); });
afterAll(async () => { await db.drop(); });

test('numeric columns come back as exact Decimals and dates as calendar strings', async () => {
  const m = db.dataSource.getRepository(Municipality);
  await m.insert({ ibgeCode: '4314902', name: 'Porto Alegre', state: 'RS', region: 'SOUTH' as never });
  const p = await db.dataSource.getRepository(Producer).save({ cnpj: '11222333000181', legalName: 'Biodiesel Sul', plantMunicipalityCode: '4314902', anpAuthorization: null });
  await db.dataSource.getRepository(Sale).insert({ producerId: p.id, soldOn: '2026-01-31', volumeM3: new Decimal('0.1'), revenue: new Decimal('1234567890.123456789'), origin: 'OWN_PRODUCTION' as never, market: 'DOMESTIC' as never, invoiceKey: null });
  const sale = await db.dataSource.getRepository(Sale).findOneByOrFail({ producerId: p.id });
  expect(sale.soldOn).toBe('2026-01-31');
  expect(sale.revenue).toBeInstanceOf(Decimal);
  expect(sale.revenue.toString()).toBe('1234567890.123456789');
  expect(sale.volumeM3.plus('0.2').toString()).toBe('0.3');
});

test('the database refuses a non-positive volume (check constraint)', async () => {
  await expect(db.dataSource.query(`INSERT INTO sale (producer_id, sold_on, volume_m3, revenue) SELECT id, '2026-01-01', 0, 1 FROM producer LIMIT 1`)).rejects.toThrow(/check constraint/);
});
