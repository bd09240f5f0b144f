// Deterministic benchmark data, built in SQL (generate_series) so that a million purchases take
// seconds. Shapes follow the records the API keeps; the mix of suppliers, feedstocks, regions and
// exclusions is fixed by the row number, so every run builds the same data.
import { DataSource } from 'typeorm';
import { municipalityFacts } from '../src/law/municipality';
import { recordSemiaridEditions } from '../src/database/semiarid-editions';

export interface BenchScale {
  /** Purchases of the big producer in the year (the Selo year case). */
  purchasesInYear: number;
  /** Of which in the tax month (the taxPeriod case). */
  purchasesInTaxMonth: number;
  salesInTaxMonth: number;
  salesInOtherMonths: number;
  farmers: number;
  smallProducers: number;
  purchasesPerSmallProducer: number;
}

export const SCALES: Record<'full' | 'quick', BenchScale> = {
  full: { purchasesInYear: 1_000_000, purchasesInTaxMonth: 100_000, salesInTaxMonth: 10_000, salesInOtherMonths: 1_000, farmers: 2_000, smallProducers: 19, purchasesPerSmallProducer: 60 },
  quick: { purchasesInYear: 6_000, purchasesInTaxMonth: 1_000, salesInTaxMonth: 200, salesInOtherMonths: 20, farmers: 60, smallProducers: 4, purchasesPerSmallProducer: 12 },
};

const MUNICIPALITIES: Array<[string, string, boolean]> = [
  ['2611606', 'Recife', false], ['2611101', 'Petrolina', true], ['2304400', 'Fortaleza', false], ['2910800', 'Feira de Santana', true],
  ['1501402', 'Belém', false], ['4314902', 'Porto Alegre', false], ['4314100', 'Passo Fundo', false], ['5107602', 'Rondonópolis', false],
  ['5107925', 'Sorriso', false], ['3143302', 'Montes Claros', true], ['4113700', 'Londrina', false], ['5208707', 'Goiânia', false],
];

export interface BenchData {
  bigProducerId: string;
  taxYear: number;
  taxMonth: number;
  counts: Record<string, number>;
}

/**
 * The municipalities a bench data set uses ([IBGE code, name, in the Semiárido]), with their state
 * and region, and the dated Semiárido membership of its members: one interval per edition (2017,
 * 2021, 2024). Those already recorded are left as they are.
 */
export async function insertMunicipalities(ds: DataSource, municipalities: ReadonlyArray<[string, string, boolean]>): Promise<void> {
  const values = municipalities.map(([code, name]) => {
    const facts = municipalityFacts(code)!;
    return `('${code}', '${name}', '${facts.state}', '${facts.region}')`;
  });
  const added: Array<{ ibge_code: string }> = await ds.query(`INSERT INTO municipality (ibge_code, name, state, region) VALUES ${values.join(', ')} ON CONFLICT DO NOTHING RETURNING ibge_code`);
  const addedCodes = new Set(added.map((m) => m.ibge_code));
  await recordSemiaridEditions(ds.manager, municipalities.filter(([code, , semiarid]) => semiarid && addedCodes.has(code)).map(([code]) => code));
}

export async function buildBenchData(ds: DataSource, s: BenchScale): Promise<BenchData> {
  const q = (sql: string, params: unknown[] = []) => ds.query(sql, params);
  await insertMunicipalities(ds, MUNICIPALITIES);
  const codes = `ARRAY[${MUNICIPALITIES.map(([c]) => `'${c}'`).join(', ')}]::text[]`;

  const [{ id: bigProducerId }] = await q(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code) VALUES ('90000000000100', 'Usina Grande do Nordeste', '2611606') RETURNING id`);
  await q(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code)
           SELECT lpad((90000000000200 + g)::text, 14, '0'), 'Usina ' || g, (${codes})[1 + g % ${MUNICIPALITIES.length}] FROM generate_series(1, $1) g`, [s.smallProducers]);

  // Farmers: one CAF each; the farmer of index i = id − min(id) (purchase g buys from index
  // g % farmers) has a CAF that expired before the year when i % 200 = 3.
  await q(`INSERT INTO family_farmer (cpf, name, municipality_code)
           SELECT lpad(g::text, 11, '0'), 'Agricultor ' || g, (${codes})[1 + g % ${MUNICIPALITIES.length}] FROM generate_series(1, $1) g`, [s.farmers]);
  const [{ min: farmerMin }] = await q(`SELECT min(id)::bigint AS min FROM family_farmer`);
  await q(`INSERT INTO family_farmer_registration (family_farmer_id, kind, number, valid_from, valid_until)
           SELECT id, 'CAF', 'CAF-' || id, DATE '2024-01-01', CASE WHEN (id - $1::bigint) % 200 = 3 THEN DATE '2024-12-31' ELSE DATE '2027-12-31' END FROM family_farmer`, [farmerMin]);

  // Organizations: cooperatives (one in five below the member share) and associations.
  await q(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members)
           SELECT lpad((80000000000000 + g)::text, 14, '0'), 'Organização ' || g, CASE WHEN g <= 20 THEN 'COOPERATIVE' ELSE 'ASSOCIATION' END,
                  (${codes})[1 + g % ${MUNICIPALITIES.length}], 100, CASE WHEN g % 5 = 0 THEN 50 ELSE 80 END FROM generate_series(1, 30) g`);
  await q(`INSERT INTO organization_registration (organization_id, kind, number, valid_from, valid_until)
           SELECT id, 'CAF', 'CAFJ-' || id, DATE '2024-01-01', DATE '2027-12-31' FROM family_farming_organization`);
  const [{ min: orgMin }] = await q(`SELECT min(id)::bigint AS min FROM family_farming_organization`);

  // Contracts of the big producer: one per farmer and per organization, soybean, the whole year;
  // the contract of farmer index i has no technical assistance when i % 300 = 5.
  await q(`INSERT INTO contract (producer_id, family_farmer_id, signed_on, valid_from, valid_until, feedstock, quantity_kg, price_per_kg, technical_assistance)
           SELECT $1, id, DATE '2024-12-01', DATE '2025-01-01', DATE '2025-12-31', 'SOYBEAN', 1000000, 2.5, (id - $2::bigint) % 300 <> 5 FROM family_farmer ORDER BY id`, [bigProducerId, farmerMin]);
  const [{ min: contractMin }] = await q(`SELECT min(id)::bigint AS min FROM contract`);
  await q(`INSERT INTO contract (producer_id, organization_id, signed_on, valid_from, valid_until, feedstock, quantity_kg, price_per_kg, technical_assistance)
           SELECT $1, id, DATE '2024-12-01', DATE '2025-01-01', DATE '2025-12-31', 'SOYBEAN', 5000000, 2.5, true FROM family_farming_organization ORDER BY id`, [bigProducerId]);
  const [{ min: orgContractMin }] = await q(`SELECT min(id)::bigint AS min FROM contract WHERE organization_id IS NOT NULL`);

  // Purchases of the big producer: the tax month (March 2025) holds purchasesInTaxMonth, the
  // other eleven months the rest. Supplier by g % 20: 0–11 farmer, 12–13 cooperative,
  // 14 association, 15–18 third party, 19 own production.
  await q(`
    INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, organization_id,
                          supplier_name, origin_municipality_code, contract_id, purpose)
    SELECT $1, d, d, feedstock, kg, CASE WHEN kind = 'OWN_PRODUCTION' THEN NULL WHEN kind = 'THIRD_PARTY' THEN kg * 2.2 ELSE kg * 2.5 END,
           kind, CASE WHEN kind = 'FAMILY_FARMER' THEN $3::bigint + g % $4 END,
           CASE WHEN kind = 'COOPERATIVE' THEN $5::bigint + g % 20 WHEN kind = 'ASSOCIATION' THEN $5::bigint + 20 + g % 10 END,
           CASE WHEN kind = 'THIRD_PARTY' THEN 'Trading ' || (g % 7) END,
           (${codes})[1 + g % ${MUNICIPALITIES.length}],
           CASE WHEN kind = 'FAMILY_FARMER' THEN $6::bigint + g % $4 WHEN kind = 'COOPERATIVE' THEN $7::bigint + g % 20 WHEN kind = 'ASSOCIATION' THEN $7::bigint + 20 + g % 10 END,
           CASE WHEN kind IN ('FAMILY_FARMER', 'COOPERATIVE', 'ASSOCIATION') AND g % 50 = 7 THEN 'OTHER_PRODUCT' ELSE 'BIODIESEL_FEEDSTOCK' END
      FROM (SELECT g,
                   CASE WHEN g <= $2 THEN DATE '2025-03-01' + (g % 31)
                        ELSE make_date(2025, (ARRAY[1,2,4,5,6,7,8,9,10,11,12])[1 + g % 11], 1 + g % 28) END AS d,
                   CASE WHEN g % 20 < 12 THEN 'FAMILY_FARMER' WHEN g % 20 < 14 THEN 'COOPERATIVE' WHEN g % 20 = 14 THEN 'ASSOCIATION'
                        WHEN g % 20 < 19 THEN 'THIRD_PARTY' ELSE 'OWN_PRODUCTION' END AS kind,
                   CASE WHEN g % 20 IN (15, 19) AND g % 3 = 0 THEN 'CASTOR_BEAN' WHEN g % 20 IN (16, 19) AND g % 3 = 1 THEN 'PALM' ELSE 'SOYBEAN' END AS feedstock,
                   (1000 + g % 500)::numeric AS kg
              FROM generate_series(1, $8) g) x`,
  [bigProducerId, s.purchasesInTaxMonth, farmerMin, s.farmers, orgMin, contractMin, orgContractMin, s.purchasesInYear]);

  // Sales: the tax month and the other months; one in ten exported, one in 33 imported.
  await q(`INSERT INTO sale (producer_id, sold_on, volume_m3, revenue, origin, market)
           SELECT $1, d, 30 + g % 10, (30 + g % 10) * 5123.45, CASE WHEN g % 33 = 0 THEN 'IMPORTED' ELSE 'OWN_PRODUCTION' END,
                  CASE WHEN g % 10 = 0 THEN 'EXPORT' ELSE 'DOMESTIC' END
             FROM (SELECT g, CASE WHEN g <= $2 THEN DATE '2025-03-01' + (g % 31) ELSE make_date(2025, (ARRAY[1,2,4,5,6,7,8,9,10,11,12])[1 + g % 11], 1 + g % 28) END AS d
                     FROM generate_series(1, $2 + $3 * 11) g) x`, [bigProducerId, s.salesInTaxMonth, s.salesInOtherMonths]);
  await q(`INSERT INTO fomento_expense (producer_id, spent_on, kind, amount, municipality_code)
           SELECT $1, make_date(2025, 1 + g % 12, 1 + g % 28), 'TECHNICAL_ASSISTANCE', 10000 + g, (${codes})[1 + g % ${MUNICIPALITIES.length}] FROM generate_series(1, 200) g`, [bigProducerId]);

  // The Selo, suspended for part of the tax month (two segments), and the special regime.
  const [{ id: grantId }] = await q(`INSERT INTO seal_grant (producer_id, granted_on, valid_until, act) VALUES ($1, '2024-06-01', '2027-06-01', 'Ato 1/2024') RETURNING id`, [bigProducerId]);
  await q(`INSERT INTO seal_event (grant_id, kind, effective_on) VALUES ($1, 'SUSPENDED', '2025-03-10'), ($1, 'REINSTATED', '2025-03-21')`, [grantId]);
  await q(`INSERT INTO regime_election (producer_id, regime, elected_on, effective_year) SELECT id, 'SPECIAL_PER_M3', '2024-11-01', 2025 FROM producer`);

  // Small producers: a page of purchases each, from farmers.
  await q(`INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, origin_municipality_code, purpose)
           SELECT p.id, make_date(2025, 1 + g % 12, 1 + g % 28), make_date(2025, 1 + g % 12, 1 + g % 28), 'SOYBEAN', 1000 + g, (1000 + g) * 2.5, 'FAMILY_FARMER',
                  $2::bigint + (p.id * 31 + g) % $3, (${codes})[1 + g % ${MUNICIPALITIES.length}], 'BIODIESEL_FEEDSTOCK'
             FROM producer p CROSS JOIN generate_series(1, $4) g WHERE p.id <> $1`, [bigProducerId, farmerMin, s.farmers, s.purchasesPerSmallProducer]);
  await q(`ANALYZE`);

  const [{ n: purchasesInYear }] = await q(`SELECT count(*)::int AS n FROM purchase WHERE producer_id = $1`, [bigProducerId]);
  const [{ n: purchasesInTaxMonth }] = await q(`SELECT count(*)::int AS n FROM purchase WHERE producer_id = $1 AND consumed_on BETWEEN '2025-03-01' AND '2025-03-31'`, [bigProducerId]);
  const [{ n: salesInTaxMonth }] = await q(`SELECT count(*)::int AS n FROM sale WHERE producer_id = $1 AND sold_on BETWEEN '2025-03-01' AND '2025-03-31'`, [bigProducerId]);
  const [{ n: purchases }] = await q(`SELECT count(*)::int AS n FROM purchase`);
  return { bigProducerId: String(bigProducerId), taxYear: 2025, taxMonth: 3, counts: { purchasesInYear, purchasesInTaxMonth, salesInTaxMonth, purchases } };
}
