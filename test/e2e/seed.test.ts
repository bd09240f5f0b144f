import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { cnpj as cnpjLib, cpf as cpfLib } from 'cpf-cnpj-validator';
import { demoDataLoaded, DEMO_MARKER_CNPJ, loadDemoData } from '../../src/database/demo-data';
import { prepareDatabase } from '../../src/database/prepare';
import { municipalityFacts } from '../../src/law/municipality';
import { priorityRegionOnSql, semiaridOnSql } from '../../src/services/facts/priority-region.sql';
import { startTestApi, TestApi } from '../support/api';
import { createTestDatabase } from '../support/database';

let api: TestApi;
const q = (sql: string, params: unknown[] = []) => api.db.dataSource.query(sql, params);

beforeAll(async () => {
  api = await startTestApi();
  await loadDemoData(api.db.dataSource);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe('the demo dataset', () => {
  it('loads once: a second load refuses and changes nothing', async () => {
    expect(await demoDataLoaded(api.db.dataSource)).toBe(true);
    const purchases = await api.count('SELECT count(*) FROM purchase');
    await expect(loadDemoData(api.db.dataSource)).rejects.toThrow(/already loaded/);
    expect(await api.count('SELECT count(*) FROM purchase')).toBe(purchases);
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'loadDemoData'`)).toBe(1);
  });

  it('is the same on every load (seeded PRNG)', async () => {
    const other = await createTestDatabase(2);
    try {
      await prepareDatabase(other.dataSource);
      await loadDemoData(other.dataSource);
      const digest = `SELECT md5(string_agg(concat_ws('|', purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, supplier_name, origin_municipality_code, external_id), ',' ORDER BY external_id, id)) AS d FROM purchase`;
      const sales = `SELECT md5(string_agg(concat_ws('|', sold_on, volume_m3, revenue, origin, market, invoice_key), ',' ORDER BY invoice_key)) AS d FROM sale`;
      expect(await other.dataSource.query(digest)).toEqual(await q(digest));
      expect(await other.dataSource.query(sales)).toEqual(await q(sales));
    } finally {
      await other.drop();
    }
  }, 60_000);

  it('npm run seed loads it into any database, and a second run says so and changes nothing', async () => {
    const other = await createTestDatabase(1);
    try {
      const seed = () => spawnSync(process.execPath, ['-r', '@swc-node/register', 'scripts/seed.ts'], { cwd: path.resolve(__dirname, '../..'), env: { ...process.env, DATABASE_URL: other.url }, encoding: 'utf8' });
      const first = seed();
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(/^Demo dataset loaded in \d+\.\d\d s: municipalities \d+, producers 6, farmers \d+/);
      const purchases = Number((await other.dataSource.query('SELECT count(*) AS n FROM purchase'))[0].n);
      expect(purchases).toBe(await api.count('SELECT count(*) FROM purchase'));
      const second = seed();
      expect(second.status).toBe(0);
      expect(second.stdout).toContain('The demo dataset is already loaded');
      expect(Number((await other.dataSource.query('SELECT count(*) AS n FROM purchase'))[0].n)).toBe(purchases);
    } finally {
      await other.drop();
    }
  }, 60_000);

  it('has producers in the South, the Centre-West and the Northeast, one of them ad valorem', async () => {
    const producers = await q(`SELECT p.cnpj, m.state, ${semiaridOnSql('m.ibge_code', "'2025-12-31'::date")} AS semiarid, r.regime FROM producer p JOIN municipality m ON m.ibge_code = p.plant_municipality_code
                                 JOIN regime_election r ON r.producer_id = p.id AND r.effective_year = 2025 ORDER BY p.id`);
    expect(producers.map((p: { state: string }) => p.state)).toEqual(['RS', 'PR', 'MT', 'GO', 'BA', 'CE']);
    expect(producers.filter((p: { semiarid: boolean }) => p.semiarid)).toHaveLength(2);
    expect(producers.filter((p: { regime: string }) => p.regime === 'AD_VALOREM')).toHaveLength(1);
    for (const p of producers) expect(cnpjLib.isValid(p.cnpj)).toBe(true);
    expect(producers[0].cnpj).toBe(DEMO_MARKER_CNPJ);
  });

  it('uses real IBGE codes with a dated Semiárido membership, one interval per edition, the priority region derived from it', async () => {
    const on = (day: string) => `${semiaridOnSql('ibge_code', `'${day}'::date`)} AS semiarid_${day.slice(0, 4)}, ${priorityRegionOnSql('ibge_code', `'${day}'::date`)} AS priority_${day.slice(0, 4)}`;
    const rows = await q(`SELECT ibge_code, state, region, ${on('2016-06-30')}, ${on('2025-06-30')},
                                 (SELECT json_agg(json_build_object('from', valid_from, 'until', valid_until, 'act', act) ORDER BY valid_from) FROM semiarid_membership s
                                   WHERE s.municipality_code = m.ibge_code) AS intervals FROM municipality m`);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    for (const m of rows) {
      const facts = municipalityFacts(m.ibge_code)!;
      expect([m.state, m.region]).toEqual([facts.state, facts.region]);
      // Decreto 10.527/2020 art. 6º: Norte, Nordeste or Semiárido on the date; no edition before 2017-12-05.
      expect(m.semiarid_2016).toBe(false);
      expect(m.priority_2016).toBe(m.region === 'NORTH' || m.region === 'NORTHEAST');
      expect(m.priority_2025).toBe(m.region === 'NORTH' || m.region === 'NORTHEAST' || m.semiarid_2025);
      if (m.intervals) {
        expect(m.intervals).toEqual([
          { from: '2017-12-05', until: '2021-12-29', act: 'Resolução Condel/Sudene nº 115/2017' },
          { from: '2021-12-30', until: '2024-01-02', act: 'Resolução Condel/Sudene nº 150/2021' },
          { from: '2024-01-03', until: null, act: 'Resolução Condel/Sudene nº 176/2024' },
        ]);
      }
    }
    expect(rows.filter((m: { semiarid_2025: boolean }) => m.semiarid_2025).length).toBeGreaterThanOrEqual(10);
    expect(rows.some((m: { region: string; semiarid_2025: boolean }) => m.region === 'SOUTHEAST' && m.semiarid_2025)).toBe(true);
  });

  it('has hundreds of family farmers with DAP/CAF: some expired, a few DAPs after the 2022-10-31 cutoff', async () => {
    const farmers = await q('SELECT cpf FROM family_farmer');
    expect(farmers.length).toBeGreaterThanOrEqual(300);
    expect(farmers.every((f: { cpf: string }) => cpfLib.isValid(f.cpf))).toBe(true);
    expect(await api.count(`SELECT count(DISTINCT kind) FROM family_farmer_registration`)).toBe(2);
    const lapsed = await api.count(`SELECT count(*) FROM family_farmer f WHERE NOT EXISTS (SELECT 1 FROM family_farmer_registration r WHERE r.family_farmer_id = f.id AND r.valid_until >= '2026-12-31')`);
    expect(lapsed).toBeGreaterThan(20);
    const late = await api.count(`SELECT count(*) FROM family_farmer_registration WHERE kind = 'DAP' AND valid_from > '2022-10-31'`);
    expect(late).toBeGreaterThan(0);
    expect(late).toBeLessThan(40);
  });

  it('has cooperatives and associations, one cooperative below the 60% family-farmer share', async () => {
    expect(await api.count(`SELECT count(*) FROM family_farming_organization WHERE kind = 'COOPERATIVE'`)).toBeGreaterThanOrEqual(5);
    expect(await api.count(`SELECT count(*) FROM family_farming_organization WHERE kind = 'ASSOCIATION'`)).toBeGreaterThanOrEqual(2);
    expect(await api.count(`SELECT count(*) FROM family_farming_organization WHERE kind = 'COOPERATIVE' AND family_farmer_members < members * 0.6`)).toBe(1);
  });

  it('has contracts mostly conforming, some signed late, some without technical assistance, some below the minimum price', async () => {
    const total = await api.count('SELECT count(*) FROM contract');
    const late = await api.count(`SELECT count(*) FROM contract c WHERE c.signed_on > (SELECT min(p.purchased_on) FROM purchase p WHERE p.contract_id = c.id)`);
    const noAssistance = await api.count('SELECT count(*) FROM contract WHERE NOT technical_assistance');
    const belowMinimum = await api.count(`SELECT count(*) FROM contract c JOIN minimum_price m ON m.feedstock = c.feedstock AND c.signed_on BETWEEN m.valid_from AND m.valid_until WHERE c.price_per_kg < m.price_per_kg`);
    for (const n of [late, noAssistance, belowMinimum]) expect(n).toBeGreaterThan(0);
    expect(late + noAssistance + belowMinimum).toBeLessThan(total / 4);
    expect(await api.count(`SELECT count(DISTINCT feedstock) FROM minimum_price`)).toBeGreaterThanOrEqual(2);
  });

  it('has a year and a half of purchases, consumed mostly the same day, some own production', async () => {
    const [r] = await q(`SELECT min(purchased_on) AS first, max(purchased_on) AS last, count(DISTINCT date_trunc('month', purchased_on))::int AS months,
                                avg((consumed_on = purchased_on)::int)::float AS same_day, count(*) FILTER (WHERE supplier_kind = 'OWN_PRODUCTION')::int AS own,
                                count(DISTINCT supplier_kind)::int AS kinds, count(*)::int AS n FROM purchase`);
    expect(r.first >= '2025-07-01' && r.last <= '2026-12-31').toBe(true);
    expect(r.months).toBe(18);
    expect(r.same_day).toBeGreaterThan(0.8);
    expect(r.own).toBeGreaterThan(0);
    expect(r.kinds).toBe(5);
    expect(r.n).toBeGreaterThan(3000);
  });

  it('has sales, mostly domestic, some exported, a few imported; fomento; a Selo suspended and reinstated', async () => {
    const [s] = await q(`SELECT count(*)::int AS n, count(*) FILTER (WHERE market = 'EXPORT')::int AS exported, count(*) FILTER (WHERE origin = 'IMPORTED')::int AS imported,
                                bool_and(invoice_key ~ '^[0-9]{44}$') AS keys FROM sale`);
    expect(s.exported).toBeGreaterThan(0);
    expect(s.imported).toBeGreaterThan(0);
    expect(s.exported + s.imported).toBeLessThan(s.n / 5);
    expect(s.keys).toBe(true);
    expect(await api.count('SELECT count(*) FROM fomento_expense')).toBeGreaterThan(20);
    const events = await q(`SELECT kind, effective_on FROM seal_event ORDER BY effective_on`);
    expect(events.map((e: { kind: string }) => e.kind)).toEqual(['SUSPENDED', 'REINSTATED']);
    expect(await api.count('SELECT count(*) FROM seal_grant')).toBe(6);
  });
});

describe('the operations people run answer on the demo data', () => {
  let producerId: string;
  let eligible: string;
  let lapsed: string;
  beforeAll(async () => {
    [{ id: producerId }] = await q(`SELECT id::text FROM producer WHERE cnpj = $1`, [DEMO_MARKER_CNPJ]);
    // A farmer's lot with a CAF valid on its date, and one whose farmer holds nothing valid then.
    [{ id: eligible }] = await q(`SELECT p.id::text FROM purchase p WHERE p.supplier_kind = 'FAMILY_FARMER' AND EXISTS (
                                    SELECT 1 FROM family_farmer_registration r WHERE r.family_farmer_id = p.family_farmer_id AND r.kind = 'CAF' AND p.purchased_on BETWEEN r.valid_from AND r.valid_until) ORDER BY p.id LIMIT 1`);
    [{ id: lapsed }] = await q(`SELECT p.id::text FROM purchase p WHERE p.supplier_kind = 'FAMILY_FARMER' AND NOT EXISTS (
                                  SELECT 1 FROM family_farmer_registration r WHERE r.family_farmer_id = p.family_farmer_id AND p.purchased_on BETWEEN r.valid_from AND r.valid_until) ORDER BY p.id LIMIT 1`);
  });

  it("a producer's taxPeriod for a month", async () => {
    const selection = 'regime pisDue cofinsDue totalDue warnings { code } segments { from to pisDue cofinsDue mix { category share } }';
    for (const [year, month] of [[2025, 10], [2026, 4], [2026, 9]]) {
      const data = await api.ok(`query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) { ${selection} } }`, { p: producerId, y: year, m: month });
      expect(data.taxPeriod.segments.length).toBeGreaterThan(0);
      expect(Number(data.taxPeriod.totalDue)).toBeGreaterThanOrEqual(0);
    }
    const own = await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2025, month: 11) { totalDue } }`, { p: producerId }, { role: 'PRODUCER', producerId });
    expect(own.taxPeriod.totalDue).toBeDefined();
  });

  it('sealCompliance for 2025 lists the excluded items', async () => {
    const producers: Array<{ id: string }> = await q('SELECT id::text FROM producer ORDER BY id');
    let excluded = 0;
    for (const p of producers) {
      const data = await api.ok(`query($p: ID!) { sealCompliance(producerId: $p, year: 2025) { base countedTotal achievedShare compliant excluded { id source amount findings { code } } } }`, { p: p.id });
      expect(Number(data.sealCompliance.base)).toBeGreaterThan(0);
      excluded += data.sealCompliance.excluded.length;
      for (const item of data.sealCompliance.excluded) expect(item.findings.length).toBeGreaterThan(0);
    }
    // The dataset has lapsed registrations, late contracts and contracts without assistance.
    expect(excluded).toBeGreaterThan(0);
  });

  it('coefficientRules in force on a date', async () => {
    const data = await api.ok(`{ coefficientRules(on: "2025-10-15") { category pisPerM3 cofinsPerM3 } }`);
    // Decreto 10.527/2020 art. 5º §1º and art. 6º: four categories.
    expect(data.coefficientRules).toHaveLength(4);
  });

  it("a purchase's familyFarmingOrigin", async () => {
    const ask = (id: string) => api.ok(`query($id: ID!) { purchase(id: $id) { familyFarmingOrigin familyFarmingFindings { code } } }`, { id });
    // art. 6º §2: a DAP/CAF valid on the purchase date makes the lot family farming; none valid, not.
    expect((await ask(eligible)).purchase.familyFarmingOrigin).toBe(true);
    const notCounting = await ask(lapsed);
    expect(notCounting.purchase.familyFarmingOrigin).toBe(false);
    expect(notCounting.purchase.familyFarmingFindings.map((f: { code: string }) => f.code)).toEqual(['SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID']);
  });
});
