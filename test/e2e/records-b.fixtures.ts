import { TestApi } from '../support/api';
import { createProducer, newCnpj, newCpf } from '../support/fixtures';

/** Reference data and producers the records tests build on. */
export interface RecordsWorld {
  /** Recife (PE): Nordeste, priority region. */
  recife: string;
  /** Porto Alegre (RS): Sul. */
  portoAlegre: string;
  producerA: string;
  producerB: string;
  farmer: string;
  cooperative: string;
  association: string;
}

export const MUNICIPALITIES = [
  { ibgeCode: '2611606', name: 'Recife', semiarid: false },
  { ibgeCode: '4314902', name: 'Porto Alegre', semiarid: false },
  { ibgeCode: '2910800', name: 'Feira de Santana', semiarid: true },
];

/** Kept here for the tests that import them from this module. */
export { createProducer, newCnpj, newCpf };

/** Farmers and organizations are inserted in SQL: these tests are about the producers' records. */
export async function insertFarmer(api: TestApi, municipality = '2611606', name = 'Maria da Silva'): Promise<string> {
  const [row] = await api.db.dataSource.query(`INSERT INTO family_farmer (cpf, name, municipality_code) VALUES ($1, $2, $3) RETURNING id`, [newCpf(), name, municipality]);
  return String(row.id);
}

export async function insertOrganization(api: TestApi, kind: 'COOPERATIVE' | 'ASSOCIATION', municipality = '2611606'): Promise<string> {
  const [row] = await api.db.dataSource.query(
    `INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members) VALUES ($1, $2, $3, $4, 100, 80) RETURNING id`,
    [newCnpj(), `${kind} Sertão`, kind, municipality],
  );
  return String(row.id);
}

export async function setUpWorld(api: TestApi): Promise<RecordsWorld> {
  await api.ok(`mutation($m: [MunicipalityInput!]!) { upsertMunicipalities(input: $m) { ibgeCode } }`, { m: MUNICIPALITIES });
  return {
    recife: '2611606',
    portoAlegre: '4314902',
    producerA: await createProducer(api, 'Biodiesel Alfa S.A.'),
    producerB: await createProducer(api, 'Biodiesel Beta Ltda', '4314902'),
    farmer: await insertFarmer(api),
    cooperative: await insertOrganization(api, 'COOPERATIVE'),
    association: await insertOrganization(api, 'ASSOCIATION'),
  };
}

export async function insertContract(api: TestApi, producerId: string, farmerId: string): Promise<string> {
  const [row] = await api.db.dataSource.query(
    `INSERT INTO contract (producer_id, family_farmer_id, signed_on, valid_from, valid_until, feedstock, quantity_kg, price_per_kg, technical_assistance)
     VALUES ($1, $2, '2025-01-10', '2025-02-01', '2025-12-31', 'SOYBEAN', 100000, 2.5, true) RETURNING id`,
    [producerId, farmerId],
  );
  return String(row.id);
}

/** The error of a response that must have failed, with its code, field and reason. */
export function errorOf(res: { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }) {
  expect(res.errors?.length).toBeGreaterThan(0);
  const e = res.errors![0];
  return { code: e.extensions?.code, field: e.extensions?.field, reason: e.extensions?.reason, message: e.message };
}
