// The national program as benchmark data: ten years (2017–2026), 60 producers across the five
// regions, 100,000 family farmers, 400 organizations and about 10,000,000 records, all built in
// SQL (generate_series) year after year, as a bulk load does. A scale factor shrinks the
// counts (not the producers nor the years) for development. Every row is fixed by its number, so
// every run builds the same data.
import { DataSource } from 'typeorm';
import { insertMunicipalities } from './data';

export const NATIONAL_YEARS = { first: 2017, last: 2026 } as const;
export const NATIONAL_PRODUCERS = 60;

export interface NationalScale {
  factor: number;
  farmers: number;
  organizations: number;
  /** Per producer and year. */
  purchasesPerProducerYear: number;
  salesPerProducerYear: number;
  fomentoPerProducerYear: number;
  importsPerProducerYear: number;
}

/** The counts at a factor (1 = the national program; at least a handful of each at any factor). */
export function nationalScale(factor: number): NationalScale {
  if (!(factor > 0 && factor <= 1)) throw new Error('bench: --national-scale takes a factor above 0, at most 1');
  const n = (full: number, min: number) => Math.max(min, Math.round(full * factor));
  return {
    factor,
    farmers: n(100_000, 120),
    organizations: n(400, 12),
    purchasesPerProducerYear: n(15_000, 40),
    salesPerProducerYear: n(1_200, 12),
    fomentoPerProducerYear: n(150, 4),
    importsPerProducerYear: n(20, 1),
  };
}

/** Five regions, three to six municipalities each; the third element marks the Semiárido. */
const MUNICIPALITIES: Array<[string, string, boolean]> = [
  ['1302603', 'Manaus', false], ['1501402', 'Belém', false], ['1721000', 'Palmas', false], ['1100205', 'Porto Velho', false],
  ['2611606', 'Recife', false], ['2611101', 'Petrolina', true], ['2304400', 'Fortaleza', false], ['2910800', 'Feira de Santana', true],
  ['2111300', 'São Luís', false], ['2211001', 'Teresina', false],
  ['3143302', 'Montes Claros', true], ['3550308', 'São Paulo', false], ['3304557', 'Rio de Janeiro', false], ['3205309', 'Vitória', false],
  ['4314902', 'Porto Alegre', false], ['4314100', 'Passo Fundo', false], ['4113700', 'Londrina', false], ['4106902', 'Curitiba', false], ['4205407', 'Florianópolis', false],
  ['5107602', 'Rondonópolis', false], ['5107925', 'Sorriso', false], ['5208707', 'Goiânia', false], ['5002704', 'Campo Grande', false], ['5103403', 'Cuiabá', false],
];
const CODES = `ARRAY[${MUNICIPALITIES.map(([c]) => `'${c}'`).join(', ')}]::text[]`;
const M = MUNICIPALITIES.length;

export interface NationalData {
  producerIds: string[];
  rows: number;
  loadSeconds: number;
  counts: Record<string, number>;
  /** Indexes and foreign keys built again after the load, each as the schema defines it. */
  rebuilt: number;
}

/**
 * Producer pi's plant is municipality pi % 24; farmer fi contracts with producer fi % 60. Purchase g:
 * supplier by g % 20 (0–11 farmer, 12–13 cooperative, 14 association, 15–18 third party, 19 own),
 * other product when g % 50 = 7, origin g % 24.
 */
export async function buildNationalData(ds: DataSource, s: NationalScale, progress: (line: string) => void = () => {}): Promise<NationalData> {
  const q = (sql: string, params: unknown[] = []) => ds.query(sql, params);
  const t0 = performance.now();
  await insertMunicipalities(ds, MUNICIPALITIES);

  await q(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code)
           SELECT lpad((70000000000100 + g * 100)::text, 14, '0'), 'Usina Nacional ' || g, (${CODES})[1 + g % ${M}] FROM generate_series(0, ${NATIONAL_PRODUCERS - 1}) g ORDER BY g`);
  const producers: Array<{ id: string }> = await q(`SELECT id::text AS id FROM producer ORDER BY id`);
  const pMin = producers[0].id;

  // Farmers: one CAF from 2016; the CAF of farmer index fi expires at the end of 2020 when fi % 200 = 3.
  await q(`INSERT INTO family_farmer (cpf, name, municipality_code)
           SELECT lpad((g + 1)::text, 11, '0'), 'Agricultor ' || g, (${CODES})[1 + (g * 7) % ${M}] FROM generate_series(0, $1 - 1) g ORDER BY g`, [s.farmers]);
  const [{ min: fMin }] = await q(`SELECT min(id)::bigint AS min FROM family_farmer`);
  await q(`INSERT INTO family_farmer_registration (family_farmer_id, kind, number, valid_from, valid_until)
           SELECT id, 'CAF', 'CAF-' || id, DATE '2016-01-01', CASE WHEN (id - $1::bigint) % 200 = 3 THEN DATE '2020-12-31' ELSE DATE '2027-12-31' END FROM family_farmer`, [fMin]);
  // Organizations: two cooperatives to one association; one in five below the member share.
  await q(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members)
           SELECT lpad((60000000000000 + g)::text, 14, '0'), 'Organização ' || g, CASE WHEN g % 3 < 2 THEN 'COOPERATIVE' ELSE 'ASSOCIATION' END,
                  (${CODES})[1 + g % ${M}], 100, CASE WHEN g % 5 = 0 THEN 50 ELSE 80 END FROM generate_series(0, $1 - 1) g ORDER BY g`, [s.organizations]);
  await q(`INSERT INTO organization_registration (organization_id, kind, number, valid_from, valid_until)
           SELECT id, 'CAF', 'CAFJ-' || id, DATE '2016-01-01', DATE '2027-12-31' FROM family_farming_organization`);
  const [{ min: oMin }] = await q(`SELECT min(id)::bigint AS min FROM family_farming_organization`);

  // The Selo: granted in 2016 to five producers in six; producer pi % 10 = 3 suspended for a
  // month in year 2017 + pi % 10, pi % 15 = 7 cancelled in 2022; the special regime every year.
  await q(`INSERT INTO seal_grant (producer_id, granted_on, valid_until, act)
           SELECT id, DATE '2016-06-01', DATE '2027-06-01', 'Ato ' || id || '/2016' FROM producer WHERE (id - $1::bigint) % 6 <> 5 ORDER BY id`, [pMin]);
  await q(`INSERT INTO seal_event (grant_id, kind, effective_on)
           SELECT g.id, e.kind, e.day FROM seal_grant g JOIN producer p ON p.id = g.producer_id
             CROSS JOIN LATERAL (VALUES ('SUSPENDED', make_date(2017 + ((p.id - $1::bigint) % 10)::int, 5, 1)), ('REINSTATED', make_date(2017 + ((p.id - $1::bigint) % 10)::int, 6, 1))) e(kind, day)
            WHERE (p.id - $1::bigint) % 10 = 3
           UNION ALL
           SELECT g.id, 'CANCELLED', DATE '2022-08-01' FROM seal_grant g WHERE (g.producer_id - $1::bigint) % 15 = 7`, [pMin]);
  await q(`INSERT INTO regime_election (producer_id, regime, elected_on, effective_year)
           SELECT p.id, 'SPECIAL_PER_M3', make_date(y - 1, 11, 1), y FROM producer p CROSS JOIN generate_series(${NATIONAL_YEARS.first}, ${NATIONAL_YEARS.last}) y`);
  const setupRows = MUNICIPALITIES.length + NATIONAL_PRODUCERS + 2 * s.farmers + 2 * s.organizations;

  // The ten years go in as a bulk load does (pg_restore's order): the big tables' secondary indexes
  // and foreign keys are taken off and built again after the data, each key checked over every row.
  const rebuild = await dropSecondaryStructures(ds, BULK_TABLES);
  // Year after year: the contracts, purchases, sales, fomento and imports of the year.
  for (let y = NATIONAL_YEARS.first; y <= NATIONAL_YEARS.last; y++) {
    const ty = performance.now();
    const [{ min: yContractMin }] = await q(`SELECT coalesce(max(id), 0) + 1 AS min FROM contract`);
    // Contract ids are consecutive in the order inserted (one statement, ORDER BY): farmer fi's
    // contract of the year is the first id + fi; organization oi's with producer pi is after them.
    await ds.query(`INSERT INTO contract (producer_id, family_farmer_id, organization_id, signed_on, valid_from, valid_until, feedstock, quantity_kg, price_per_kg, technical_assistance)
      SELECT producer_id, family_farmer_id, organization_id, make_date($1 - 1, 12, 1), make_date($1, 1, 1), make_date($1, 12, 31), 'SOYBEAN', qty, 2.5, true FROM (
        SELECT 0 AS part, g AS k, $2::bigint + g % 60 AS producer_id, $3::bigint + g AS family_farmer_id, NULL::bigint AS organization_id, 1000000 AS qty FROM generate_series(0, $4 - 1) g
        UNION ALL
        SELECT 1, o * 60 + pi, $2::bigint + pi, NULL, $5::bigint + o, 5000000 FROM generate_series(0, $6 - 1) o CROSS JOIN generate_series(0, 59) pi) c
      ORDER BY part, k`, [y, pMin, fMin, s.farmers, oMin, s.organizations]);
    // Farmer of purchase g of producer pi: the farmers contracted by pi (fi % 60 = pi) in turn.
    const perProducer = Math.max(1, Math.floor(s.farmers / NATIONAL_PRODUCERS));
    await ds.query(`
      INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, organization_id,
                            supplier_name, origin_municipality_code, contract_id, purpose)
      SELECT $2::bigint + pi, d, d, feedstock, kg, CASE WHEN kind = 'OWN_PRODUCTION' THEN NULL WHEN kind = 'THIRD_PARTY' THEN kg * 2.2 ELSE kg * 2.5 END,
             kind, CASE WHEN kind = 'FAMILY_FARMER' THEN $3::bigint + fi END,
             CASE WHEN kind IN ('COOPERATIVE', 'ASSOCIATION') THEN $5::bigint + oi END,
             CASE WHEN kind = 'THIRD_PARTY' THEN 'Trading ' || (g % 7) END,
             (${CODES})[1 + g % ${M}],
             CASE WHEN kind = 'FAMILY_FARMER' THEN $8::bigint + fi WHEN kind IN ('COOPERATIVE', 'ASSOCIATION') THEN $8::bigint + $4 + oi * 60 + pi END,
             CASE WHEN kind IN ('FAMILY_FARMER', 'COOPERATIVE', 'ASSOCIATION') AND g % 50 = 7 THEN 'OTHER_PRODUCT' ELSE 'BIODIESEL_FEEDSTOCK' END
        FROM (SELECT g, pi, make_date($1, 1 + (g / 7) % 12, 1 + g % 28) AS d,
                     CASE WHEN g % 20 < 12 THEN 'FAMILY_FARMER' WHEN g % 20 < 14 THEN 'COOPERATIVE' WHEN g % 20 = 14 THEN 'ASSOCIATION'
                          WHEN g % 20 < 19 THEN 'THIRD_PARTY' ELSE 'OWN_PRODUCTION' END AS kind,
                     CASE WHEN g % 20 IN (15, 19) AND g % 3 = 0 THEN 'CASTOR_BEAN' WHEN g % 20 IN (16, 19) AND g % 3 = 1 THEN 'PALM' ELSE 'SOYBEAN' END AS feedstock,
                     (1000 + g % 500)::numeric AS kg,
                     least(pi + 60 * ((g / 20) % $9), $4 - 1) AS fi,
                     -- Associations are every third organization (oi % 3 = 2), cooperatives the rest.
                     CASE WHEN g % 20 = 14 THEN (2 + 3 * ((g / 20) % greatest(1, $6 / 3))) % $6 ELSE (3 * ((g / 20) % greatest(1, $6 / 3)) + (g / 20) % 2) % $6 END AS oi
                FROM generate_series(0, 59) pi CROSS JOIN generate_series(0, $7 - 1) g
               ORDER BY d, pi, g) x`,
    [y, pMin, fMin, s.farmers, oMin, s.organizations, s.purchasesPerProducerYear, yContractMin, perProducer]);
    await ds.query(`INSERT INTO sale (producer_id, sold_on, volume_m3, revenue, origin, market)
      SELECT $2::bigint + pi, d, 30 + g % 10, (30 + g % 10) * 5123.45, CASE WHEN g % 33 = 0 THEN 'IMPORTED' ELSE 'OWN_PRODUCTION' END, CASE WHEN g % 10 = 0 THEN 'EXPORT' ELSE 'DOMESTIC' END
        FROM (SELECT pi, g, make_date($1, 1 + (g / 3) % 12, 1 + g % 28) AS d FROM generate_series(0, 59) pi CROSS JOIN generate_series(0, $3 - 1) g ORDER BY d, pi, g) x`,
    [y, pMin, s.salesPerProducerYear]);
    await ds.query(`INSERT INTO fomento_expense (producer_id, spent_on, kind, amount, municipality_code)
      SELECT $2::bigint + pi, make_date($1, 1 + g % 12, 1 + g % 28), 'TECHNICAL_ASSISTANCE', 10000 + g, (${CODES})[1 + (g + pi) % ${M}]
        FROM generate_series(0, 59) pi CROSS JOIN generate_series(0, $3 - 1) g`, [y, pMin, s.fomentoPerProducerYear]);
    await ds.query(`INSERT INTO biodiesel_import (producer_id, cleared_on, volume_m3, declaration_number)
      SELECT $2::bigint + pi, make_date($1, 1 + g % 12, 1 + g % 28), 500 + g, 'DI ' || $1 || '/' || g
        FROM generate_series(0, 59) pi CROSS JOIN generate_series(0, $3 - 1) g`, [y, pMin, s.importsPerProducerYear]);
    progress(`  ${y} loaded in ${Math.round(performance.now() - ty) / 1000} s`);
  }
  const tr = performance.now();
  const rebuilt = await rebuild();
  progress(`  ${rebuilt} indexes and foreign keys built again in ${Math.round(performance.now() - tr) / 1000} s`);
  await q('ANALYZE');
  const counts: Record<string, number> = {};
  for (const t of ['contract', 'purchase', 'sale', 'fomento_expense', 'biodiesel_import', 'seal_grant', 'seal_event', 'regime_election', 'organization_membership']) {
    const [{ n }] = await q(`SELECT count(*)::int AS n FROM ${t}`);
    counts[t] = n;
  }
  const loadSeconds = (performance.now() - t0) / 1000;
  const rows = setupRows + Object.values(counts).reduce((a, b) => a + b, 0);
  return { producerIds: producers.map((p) => p.id), rows, loadSeconds, counts, rebuilt };
}

const BULK_TABLES = ['contract', 'purchase', 'sale', 'fomento_expense', 'biodiesel_import'];

/**
 * Drops the tables' foreign keys and the indexes that back no constraint, and returns what builds
 * them again from their own definitions (pg_get_constraintdef, pg_indexes): the schema after the
 * load is the migrations' schema.
 */
async function dropSecondaryStructures(ds: DataSource, tables: string[]): Promise<() => Promise<number>> {
  const read = async () => {
    const keys: Array<{ tbl: string; name: string; def: string }> = await ds.query(
      `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1) ORDER BY 1, 2`, [tables]);
    const indexes: Array<{ name: string; def: string }> = await ds.query(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
        WHERE i.schemaname = current_schema() AND i.tablename = ANY($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname) ORDER BY 1`, [tables]);
    return { keys, indexes };
  };
  const { keys, indexes } = await read();
  for (const k of keys) await ds.query(`ALTER TABLE ${k.tbl} DROP CONSTRAINT ${k.name}`);
  for (const i of indexes) await ds.query(`DROP INDEX ${i.name}`);
  return async () => {
    // Two connections of the pool build side by side (2 cores); the keys after the indexes they may use.
    const pending = [...indexes.map((i) => i.def)];
    const worker = async () => { for (let def = pending.shift(); def; def = pending.shift()) await ds.query(def); };
    await Promise.all([worker(), worker()]);
    for (const k of keys) await ds.query(`ALTER TABLE ${k.tbl} ADD CONSTRAINT ${k.name} ${k.def}`);
    if (JSON.stringify(await read()) !== JSON.stringify({ keys, indexes })) throw new Error('bench: the indexes and foreign keys built again differ from the schema\'s');
    return keys.length + indexes.length;
  };
}
