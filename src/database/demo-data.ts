import { DataSource, EntityManager } from 'typeorm';
import { municipalityFacts } from '../law/municipality';
import { addDemoMunicipalities } from './demo-data.municipalities';
import { SYSTEM_ACTOR } from '../services/actor';
import { writeAudit } from '../services/transaction';
import {
  AREA_MUNICIPALITIES, PRODUCERS, ORGANIZATIONS, MINIMUM_PRICES, MINIMUM_PRICE_SOURCE, PRICE, FARMER_LOT, FIRST_NAMES, SOUTH_SURNAMES, COMMON_SURNAMES, THIRD_PARTIES,
} from './demo-data.tables';
import { addDays, checkDigit, cnpjFrom, cpfFrom, insertRows, iso, monthDays, prng, Row } from './demo-data.generators';

export { addDays, cpfFrom, prng } from './demo-data.generators';

// Seeded, so every load is the same. Names are invented; CPFs/CNPJs are valid but belong to no one.

/** Its presence means the dataset is loaded. */
export const DEMO_MARKER_CNPJ = cnpjFrom(41_200_001);

export interface DemoCounts {
  municipalities: number;
  producers: number;
  farmers: number;
  registrations: number;
  organizations: number;
  contracts: number;
  purchases: number;
  sales: number;
  fomento: number;
  sealGrants: number;
  sealEvents: number;
  regimeElections: number;
  minimumPrices: number;
  imports: number;
  semiaridMemberships: number;
}

export async function demoDataLoaded(ds: DataSource | EntityManager): Promise<boolean> {
  const rows = await ds.query('SELECT 1 FROM producer WHERE cnpj = $1', [DEMO_MARKER_CNPJ]);
  return rows.length > 0;
}


/** Never overwrites municipalities already on record. */
export async function loadDemoData(ds: DataSource): Promise<DemoCounts> {
  return ds.transaction(async (em) => {
    if (await demoDataLoaded(em)) throw new Error('The demo dataset is already loaded (producer with CNPJ ' + DEMO_MARKER_CNPJ + ' exists); nothing was changed');
    const counts = await build(em);
    await writeAudit(em, SYSTEM_ACTOR, [{ operation: 'loadDemoData', entity: 'DemoData', entityId: null, producerId: null, after: counts }]);
    return counts;
  });
}

async function build(em: EntityManager): Promise<DemoCounts> {
  const random = prng(20_251_203);
  const between = (lo: number, hi: number) => lo + random() * (hi - lo);
  const int = (lo: number, hi: number) => Math.floor(between(lo, hi + 1));
  const pick = <T,>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  const money = (x: number) => x.toFixed(2);

  const { municipalities, semiaridMemberships } = await addDemoMunicipalities(em);

  const producerRows = PRODUCERS.map((p) => ({ cnpj: cnpjFrom(p.cnpjBase), legal_name: p.name, plant_municipality_code: p.plant, anp_authorization: `ANP ${int(100, 999)}/${int(2010, 2022)}` }));
  const producers = await insertRows(em, 'producer', [['cnpj', 'text'], ['legal_name', 'text'], ['plant_municipality_code', 'text'], ['anp_authorization', 'text']], producerRows, 'id::text, cnpj');
  const producerId = new Map(PRODUCERS.map((p) => [p.key, producers.find((r) => r.cnpj === cnpjFrom(p.cnpjBase))!.id]));

  const grantRows = PRODUCERS.map((p, i) => ({
    producer_id: producerId.get(p.key)!,
    granted_on: i === 3 ? '2025-09-01' : iso(2023, 3 + i, 1),
    valid_until: i === 3 ? '2030-08-31' : iso(2028, 2 + i, 28),
    act: `Portaria SAF/MDA nº ${int(10, 99)}/${i === 3 ? 2025 : 2023} (demonstração)`,
  }));
  const grants = await insertRows(em, 'seal_grant', [['producer_id', 'bigint'], ['granted_on', 'date'], ['valid_until', 'date'], ['act', 'text']], grantRows, 'id::text, producer_id::text');
  const ceGrant = grants.find((g) => g.producer_id === producerId.get('ce'))!.id;
  // Sertão Central: suspended for three months of 2025 and reinstated (art. 9º of the decree's procedure).
  const events = await insertRows(em, 'seal_event', [['grant_id', 'bigint'], ['kind', 'text'], ['effective_on', 'date'], ['reason', 'text']], [
    { grant_id: ceGrant, kind: 'SUSPENDED', effective_on: '2025-09-15', reason: 'Contratos com agricultores familiares sem assistência técnica comprovada (demonstração)' },
    { grant_id: ceGrant, kind: 'REINSTATED', effective_on: '2025-12-10', reason: 'Assistência técnica comprovada após diligência (demonstração)' },
  ], 'id');

  const elections = await insertRows(em, 'regime_election', [['producer_id', 'bigint'], ['regime', 'text'], ['elected_on', 'date'], ['starting_activity', 'boolean'], ['effective_year', 'int']],
    PRODUCERS.map((p) => ({ producer_id: producerId.get(p.key)!, regime: p.regime, elected_on: '2024-11-29', starting_activity: false, effective_year: 2025 })), 'id');

  const minimumPrices = await insertRows(em, 'minimum_price', [['feedstock', 'text'], ['valid_from', 'date'], ['valid_until', 'date'], ['price_per_kg', 'numeric'], ['source', 'text'], ['published_on', 'date']],
    MINIMUM_PRICES.map(([feedstock, from, until, price]) => ({ feedstock, valid_from: from, valid_until: until, price_per_kg: price, source: MINIMUM_PRICE_SOURCE, published_on: addDays(from, -30) })), 'id');
  const minimumPrice = (feedstock: string, on: string): number | null => {
    const v = MINIMUM_PRICES.find(([f, from, until]) => f === feedstock && from <= on && on <= until);
    return v ? Number(v[3]) : null;
  };

  interface Farmer { cpf: string; producer: string; crop: string; municipality: string }
  const farmers: Farmer[] = [];
  const farmerRows: Row[] = [];
  const registrationRows: Array<Row & { cpf: string }> = [];
  let serial = 310_000_000;
  for (const p of PRODUCERS) {
    for (let i = 0; i < p.farmers; i++) {
      const cpf = cpfFrom(serial++);
      const south = p.area.startsWith('SOUTH');
      const name = `${pick(FIRST_NAMES)} ${south && random() < 0.6 ? pick(SOUTH_SURNAMES) : pick(COMMON_SURNAMES)}${random() < 0.3 ? ` ${pick(COMMON_SURNAMES)}` : ''}`;
      const municipality = pick(AREA_MUNICIPALITIES[p.area]);
      const r = random();
      const crop = p.crops.find(([, share]) => r < share)![0];
      farmerRows.push({ cpf, name, municipality_code: municipality });
      // A mix of CAFs, replaced DAPs, lapsing ones and late DAPs (DAP_ISSUED_AFTER_CUTOFF).
      const kind = random();
      if (kind < 0.6) {
        const from = addDays('2023-01-02', int(0, 800));
        registrationRows.push({ cpf, kind: 'CAF', number: `CAF-${cpf.slice(0, 6)}-${int(1000, 9999)}`, valid_from: from, valid_until: addDays(from, 365 * 3) });
      } else if (kind < 0.8) {
        const dapFrom = addDays('2020-03-01', int(0, 900));
        const dapUntil = addDays('2024-06-30', int(0, 180));
        registrationRows.push({ cpf, kind: 'DAP', number: `SDW${cpf.slice(2, 9)}${int(100000, 999999)}`, valid_from: dapFrom, valid_until: dapUntil });
        registrationRows.push({ cpf, kind: 'CAF', number: `CAF-${cpf.slice(0, 6)}-${int(1000, 9999)}`, valid_from: addDays(dapUntil, 1), valid_until: addDays(dapUntil, 365 * 3) });
      } else if (kind < 0.93) {
        // Lapses during the period: a CAF ending in 2025-10 … 2026-06, not renewed.
        const until = addDays('2025-10-01', int(0, 270));
        registrationRows.push({ cpf, kind: 'CAF', number: `CAF-${cpf.slice(0, 6)}-${int(1000, 9999)}`, valid_from: addDays(until, -365 * 2), valid_until: until });
      } else if (kind < 0.97) {
        // A DAP dated after DAPs stopped being issued: kept, with a finding.
        const from = addDays('2023-02-01', int(0, 300));
        registrationRows.push({ cpf, kind: 'DAP', number: `SDW${cpf.slice(2, 9)}${int(100000, 999999)}`, valid_from: from, valid_until: addDays(from, 365 * 3) });
      } else {
        // Only a DAP that expired before the period.
        registrationRows.push({ cpf, kind: 'DAP', number: `SDW${cpf.slice(2, 9)}${int(100000, 999999)}`, valid_from: '2019-05-02', valid_until: '2024-12-31' });
      }
      farmers.push({ cpf, producer: p.key, crop, municipality });
    }
  }
  const farmerIds = await insertRows(em, 'family_farmer', [['cpf', 'text'], ['name', 'text'], ['municipality_code', 'text']], farmerRows, 'id::text, cpf');
  const farmerId = new Map(farmerIds.map((r) => [r.cpf, r.id]));
  const registrations = await insertRows(em, 'family_farmer_registration', [['family_farmer_id', 'bigint'], ['kind', 'text'], ['number', 'text'], ['valid_from', 'date'], ['valid_until', 'date']],
    registrationRows.map(({ cpf, ...r }) => ({ ...r, family_farmer_id: farmerId.get(cpf)! })), 'id');

  const orgIds = await insertRows(em, 'family_farming_organization', [['cnpj', 'text'], ['name', 'text'], ['kind', 'text'], ['municipality_code', 'text'], ['members', 'int'], ['family_farmer_members', 'int']],
    ORGANIZATIONS.map((o) => ({ cnpj: cnpjFrom(o.cnpjBase), name: o.name, kind: o.kind, municipality_code: o.municipality, members: o.members, family_farmer_members: o.familyFarmerMembers })), 'id::text, cnpj');
  const orgId = new Map(ORGANIZATIONS.map((o) => [o.cnpjBase, orgIds.find((r) => r.cnpj === cnpjFrom(o.cnpjBase))!.id]));
  // Alto Uruguai declares new counts on 2026-01-15 (art. 4º VI: read on each purchase's date).
  await em.query(`INSERT INTO organization_membership (organization_id, declared_on, members, family_farmer_members) VALUES ($1, '2026-01-15', 335, 301)`, [orgId.get(52_300_001)]);
  await em.query(`UPDATE family_farming_organization SET members = 335, family_farmer_members = 301 WHERE id = $1`, [orgId.get(52_300_001)]);
  await insertRows(em, 'organization_registration', [['organization_id', 'bigint'], ['kind', 'text'], ['number', 'text'], ['valid_from', 'date'], ['valid_until', 'date']],
    ORGANIZATIONS.map((o) => ({ organization_id: orgId.get(o.cnpjBase)!, kind: 'CAF', number: `CAFJ-${cnpjFrom(o.cnpjBase).slice(0, 8)}`, valid_from: '2024-01-02', valid_until: o.registrationUntil })));

  // Contracts (art. 3º §2 II–III): some late, some without assistance, some below the minimum price.
  interface Contract { key: string; producer: string; farmerCpf: string | null; org: number | null; signedOn: string; feedstock: string; price: number; assistance: boolean }
  const contracts: Contract[] = [];
  for (const f of farmers) {
    if (random() < 0.15) continue; // sells without a contract (NO_CONTRACT)
    const flaw = random();
    const min = minimumPrice(f.crop, '2025-06-15');
    const price = flaw < 0.04 && min ? min * 0.9 : PRICE[f.crop] * between(1.0, 1.12);
    const signedOn = flaw >= 0.04 && flaw < 0.1 ? addDays('2025-07-20', int(0, 30)) : addDays('2025-05-20', int(0, 30));
    contracts.push({ key: `${f.producer}:${f.cpf}`, producer: f.producer, farmerCpf: f.cpf, org: null, signedOn, feedstock: f.crop, price, assistance: !(flaw >= 0.1 && flaw < 0.15) });
  }
  for (const o of ORGANIZATIONS) {
    for (const [buyer, feedstock] of o.buyers) {
      contracts.push({ key: `${buyer}:org${o.cnpjBase}`, producer: buyer, farmerCpf: null, org: o.cnpjBase, signedOn: addDays('2025-05-10', int(0, 30)), feedstock, price: PRICE[feedstock] * between(1.02, 1.1), assistance: true });
    }
  }
  const contractIds = await insertRows(em, 'contract', [['producer_id', 'bigint'], ['family_farmer_id', 'bigint'], ['organization_id', 'bigint'], ['signed_on', 'date'], ['valid_from', 'date'], ['valid_until', 'date'], ['feedstock', 'text'], ['quantity_kg', 'numeric'], ['price_per_kg', 'numeric'], ['technical_assistance', 'boolean']],
    contracts.map((c) => ({
      producer_id: producerId.get(c.producer)!,
      family_farmer_id: c.farmerCpf ? farmerId.get(c.farmerCpf)! : null,
      organization_id: c.org ? orgId.get(c.org)! : null,
      signed_on: c.signedOn, valid_from: '2025-07-01', valid_until: '2026-12-31', feedstock: c.feedstock,
      quantity_kg: c.org ? 2_000_000 : int(40, 200) * 1000,
      price_per_kg: c.price.toFixed(4),
      technical_assistance: c.assistance,
    })), 'id::text, producer_id::text, family_farmer_id::text, organization_id::text');
  const producerKey = new Map([...producerId].map(([k, id]) => [id, k]));
  const cpfOf = new Map(farmerIds.map((r) => [r.id, r.cpf]));
  const orgBaseOf = new Map([...orgId].map(([base, id]) => [id, base]));
  const contractId = new Map<string, string>();
  for (const r of contractIds) {
    const p = producerKey.get(r.producer_id)!;
    contractId.set(r.family_farmer_id ? `${p}:${cpfOf.get(r.family_farmer_id)}` : `${p}:org${orgBaseOf.get(r.organization_id)}`, r.id);
  }
  const contractByKey = new Map(contracts.map((c) => [c.key, c]));

  const purchaseRows: Row[] = [];
  const saleRows: Row[] = [];
  const fomentoRows: Row[] = [];
  let invoice = 1;
  const months: Array<[number, number]> = [];
  for (let m = 7; m <= 12; m++) months.push([2025, m]);
  for (let m = 1; m <= 12; m++) months.push([2026, m]);
  for (const p of PRODUCERS) {
    const pid = producerId.get(p.key)!;
    const own = farmers.filter((f) => f.producer === p.key);
    const orgs = ORGANIZATIONS.filter((o) => o.buyers.some(([b]) => b === p.key));
    const plantUf = municipalityFacts(p.plant)!.state;
    let external = 1;
    for (const [year, month] of months) {
      const days = monthDays(year, month);
      const day = () => iso(year, month, int(1, days));
      const consumed = (on: string) => (random() < 0.88 ? on : addDays(on, int(1, 12)));
      const lot = (purchasedOn: string, feedstock: string, kg: number, cost: number | null, supplier: Row, origin: string, purpose = 'BIODIESEL_FEEDSTOCK') =>
        purchaseRows.push({
          producer_id: pid, purchased_on: purchasedOn, consumed_on: consumed(purchasedOn), feedstock, quantity_kg: kg.toFixed(1), cost: cost === null ? null : money(cost),
          family_farmer_id: null, organization_id: null, supplier_name: null, contract_id: null, ...supplier, origin_municipality_code: origin, purpose,
          external_id: `NF-${plantUf}-${year}${String(month).padStart(2, '0')}-${String(external++).padStart(6, '0')}`,
        });
      for (const f of own) {
        if (random() > 0.75) continue;
        const [lo, hi] = FARMER_LOT[f.crop];
        const kg = Math.round(between(lo, hi) / 10) * 10;
        const c = contractByKey.get(`${p.key}:${f.cpf}`);
        const on = day();
        const price = c ? c.price : PRICE[f.crop] * between(0.95, 1.05);
        lot(on, f.crop, kg, kg * price, { supplier_kind: 'FAMILY_FARMER', family_farmer_id: farmerId.get(f.cpf)!, contract_id: c ? contractId.get(c.key)! : null }, f.municipality);
      }
      for (const o of orgs) {
        const feedstock = o.buyers.find(([b]) => b === p.key)![1];
        const c = contractByKey.get(`${p.key}:org${o.cnpjBase}`)!;
        for (let i = int(2, o.kind === 'COOPERATIVE' ? 6 : 3); i > 0; i--) {
          const kg = Math.round(between(15_000, 80_000) / 100) * 100;
          // Associations also sell other products of family farming (art. 3º §2 I b).
          const purpose = o.kind === 'ASSOCIATION' && random() < 0.3 ? 'OTHER_PRODUCT' : 'BIODIESEL_FEEDSTOCK';
          lot(day(), feedstock, kg, kg * c.price, { supplier_kind: o.kind, organization_id: orgId.get(o.cnpjBase)!, contract_id: purpose === 'BIODIESEL_FEEDSTOCK' ? contractId.get(c.key)! : null }, o.municipality, purpose);
        }
      }
      for (let i = int(8, 14); i > 0; i--) {
        const kg = Math.round(between(120_000, 450_000) / 1000) * 1000;
        const feedstock = random() < 0.85 ? 'SOYBEAN' : p.area === 'NE' ? 'COTTONSEED' : 'BEEF_TALLOW';
        lot(day(), feedstock, kg, kg * (feedstock === 'BEEF_TALLOW' ? 4.1 : PRICE[feedstock]) * between(0.92, 1.06), { supplier_kind: 'THIRD_PARTY', supplier_name: pick(THIRD_PARTIES[p.area]) }, pick(AREA_MUNICIPALITIES[p.area]));
      }
      if (p.ownProduction) {
        for (let i = int(1, 3); i > 0; i--) lot(day(), 'SOYBEAN', Math.round(between(60_000, 200_000) / 1000) * 1000, null, { supplier_kind: 'OWN_PRODUCTION' }, p.plant);
      }
      // Sales: domestic mostly; one in twenty exported; one in fifty imported biodiesel resold.
      for (let i = 0; i < p.salesPerMonth; i++) {
        const volume = Math.round(between(25, 65) * 1000) / 1000;
        const r = random();
        const market = r < 0.05 ? 'EXPORT' : 'DOMESTIC';
        const origin = r > 0.98 ? 'IMPORTED' : 'OWN_PRODUCTION';
        const soldOn = day();
        const key = `${p.plant.slice(0, 2)}${soldOn.slice(2, 4)}${soldOn.slice(5, 7)}${cnpjFrom(p.cnpjBase)}55001${String(invoice++).padStart(9, '0')}1${String(int(10_000_000, 99_999_999))}`;
        saleRows.push({ producer_id: pid, sold_on: soldOn, volume_m3: volume.toFixed(3), revenue: money(volume * between(5_100, 6_300)), origin, market, invoice_key: key + String(checkDigit(key.split('').map(Number).slice(-43), Array.from({ length: 43 }, (_, k) => [4, 3, 2, 9, 8, 7, 6, 5][k % 8]))) });
      }
      // Fomento (art. 3º §2 I c).
      if (random() < 0.7) {
        const o = pick(orgs);
        const inNortheast = random() < 0.4;
        const place = inNortheast ? pick(AREA_MUNICIPALITIES.NE) : pick(AREA_MUNICIPALITIES[p.area]);
        const kind = random() < 0.75 ? 'TECHNICAL_ASSISTANCE' : pick(['DONATION', 'INVESTMENT', 'OTHER']);
        fomentoRows.push({ producer_id: pid, spent_on: day(), kind, amount: money(between(8_000, 120_000)), municipality_code: place, organization_id: random() < 0.5 ? orgId.get(o.cnpjBase)! : null, description: kind === 'TECHNICAL_ASSISTANCE' ? 'Assistência técnica e extensão rural aos agricultores contratados' : 'Apoio à produção familiar (demonstração)' });
      }
    }
  }
  await insertRows(em, 'purchase', [['producer_id', 'bigint'], ['purchased_on', 'date'], ['consumed_on', 'date'], ['feedstock', 'text'], ['quantity_kg', 'numeric'], ['cost', 'numeric'], ['supplier_kind', 'text'],
    ['family_farmer_id', 'bigint'], ['organization_id', 'bigint'], ['supplier_name', 'text'], ['origin_municipality_code', 'text'], ['contract_id', 'bigint'], ['purpose', 'text'], ['external_id', 'text']], purchaseRows);
  await insertRows(em, 'sale', [['producer_id', 'bigint'], ['sold_on', 'date'], ['volume_m3', 'numeric'], ['revenue', 'numeric'], ['origin', 'text'], ['market', 'text'], ['invoice_key', 'text']], saleRows);
  // Imports (art. 5º §1º), one in the 2026 zero window; fixed, so nothing else of the dataset moves.
  const importRows: Row[] = [
    { producer_id: producerId.get(PRODUCERS[0].key)!, cleared_on: '2026-05-14', volume_m3: '420.000', declaration_number: '26/0412345-6' },
    { producer_id: producerId.get(PRODUCERS[0].key)!, cleared_on: '2026-09-09', volume_m3: '380.500', declaration_number: '26/0912345-1' },
  ];
  await insertRows(em, 'biodiesel_import', [['producer_id', 'bigint'], ['cleared_on', 'date'], ['volume_m3', 'numeric'], ['declaration_number', 'text']], importRows);
  await insertRows(em, 'fomento_expense', [['producer_id', 'bigint'], ['spent_on', 'date'], ['kind', 'text'], ['amount', 'numeric'], ['municipality_code', 'text'], ['organization_id', 'bigint'], ['description', 'text']], fomentoRows);

  return {
    municipalities,
    producers: producers.length,
    farmers: farmerIds.length,
    registrations: registrations.length,
    organizations: orgIds.length,
    contracts: contractIds.length,
    purchases: purchaseRows.length,
    sales: saleRows.length,
    fomento: fomentoRows.length,
    sealGrants: grants.length,
    sealEvents: events.length,
    regimeElections: elections.length,
    minimumPrices: minimumPrices.length,
    imports: importRows.length,
    semiaridMemberships,
  };
}
