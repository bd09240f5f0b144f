import { cpf as cpfLib } from 'cpf-cnpj-validator';
import { TestApi } from '../support/api';
import { addDays, cpfFrom, prng } from '../../src/database/demo-data';
import { newCnpj } from '../support/fixtures';
import { Decimal, INPUT_BOUNDS, outOfInputBounds } from '../../src/law/decimal';

/**
 * One data set, planned once and written identically into several databases (the two servers of
 * the compiled-reads comparison): the same rows in the same order, so that identity ids match.
 * It spans what a read can show differently: every supplierKind, nulls and values in each
 * nullable column, numerics with trailing zeros and many decimals, equal consumedOn dates
 * inserted out of id order, and text with accents, quotes, backslashes, control characters and
 * characters outside the BMP.
 */

export interface PlannedMunicipality { ibgeCode: string; name: string; semiarid: boolean }
export interface PlannedProducer {
  cnpj: string;
  legalName: string;
  plantMunicipalityCode: string;
  anpAuthorization: string | null;
  /** Written through createProducer (and renamed through updateProducer, version 2, when set), else by SQL. */
  via: 'api' | 'sql';
  renamedTo?: string;
}
export interface PlannedFarmer { cpf: string; name: string; municipalityCode: string }
export interface PlannedOrganization { cnpj: string; name: string; kind: 'COOPERATIVE' | 'ASSOCIATION'; municipalityCode: string }
export interface PlannedPurchase {
  producer: number;
  purchasedOn: string;
  consumedOn: string;
  feedstock: string;
  quantityKg: string;
  cost: string | null;
  supplierKind: 'FAMILY_FARMER' | 'COOPERATIVE' | 'ASSOCIATION' | 'THIRD_PARTY' | 'OWN_PRODUCTION';
  farmer: number | null;
  organization: number | null;
  supplierName: string | null;
  originMunicipalityCode: string;
  purpose: 'BIODIESEL_FEEDSTOCK' | 'OTHER_PRODUCT';
  externalId: string | null;
  /** Written through recordPurchases rather than SQL. */
  viaApi?: boolean;
}
/** A DAP/CAF of farmer `owner` (or of organization `owner` when `of` is 'organization'). */
export interface PlannedRegistration { of: 'farmer' | 'organization'; owner: number; kind: 'DAP' | 'CAF'; number: string; validFrom: string; validUntil: string }
export interface PlannedContract {
  producer: number; farmer: number | null; organization: number | null; signedOn: string; validFrom: string; validUntil: string;
  feedstock: string; quantityKg: string; pricePerKg: string; technicalAssistance: boolean;
  /** Plan indexes of the purchases bought under it. */
  purchases: number[];
}
export interface PlannedSale { producer: number; soldOn: string; volumeM3: string; revenue: string; origin: 'OWN_PRODUCTION' | 'IMPORTED'; market: 'DOMESTIC' | 'EXPORT'; invoiceKey: string | null }
export interface PlannedGrant { producer: number; grantedOn: string; validUntil: string; act: string | null; events: Array<{ kind: string; effectiveOn: string; reason: string | null; validUntil: string | null }> }
export interface PlannedElection { producer: number; regime: 'AD_VALOREM' | 'SPECIAL_PER_M3'; electedOn: string; startingActivity: boolean; effectiveYear: number }
export interface Plan {
  municipalities: PlannedMunicipality[];
  producers: PlannedProducer[];
  farmers: PlannedFarmer[];
  organizations: PlannedOrganization[];
  purchases: PlannedPurchase[];
  registrations: PlannedRegistration[];
  contracts: PlannedContract[];
  sales: PlannedSale[];
  grants: PlannedGrant[];
  elections: PlannedElection[];
}

/** The ids the databases gave, by plan index. */
export interface Seeded {
  producers: string[];
  farmers: string[];
  organizations: string[];
  purchases: string[];
  contracts: string[];
  sales: string[];
  grants: string[];
}

/** Indexes into Plan.producers of the cases the tests name. */
export const BIG = 0; //      > 100 purchases
export const NONE = 1; //     no purchase
export const ONE = 2; //      one purchase
export const EVERY_KIND = 3; // a few, of every supplierKind
export const FEW = 4; //      a few, some recorded through the API
export const RENAMED = 5; //  created and renamed through the API (version 2), a few purchases
export const BIG_PURCHASES = 137;

/** A CPF with valid check digits, from a serial (deterministic, unlike cpfLib.generate). */
function cpfFor(serial: number): string {
  const digits = cpfFrom((100000000 + serial * 7919) % 1_000_000_000);
  if (!cpfLib.isValid(digits)) throw new Error(`bad test CPF ${digits}`);
  return digits;
}

const RECIFE = '2611606';
const PORTO_ALEGRE = '4314902';
const FEIRA = '2910800';
const MOSSORO = '2408003';
const SANTA_BARBARA = '3545803';
const BELEM = '1501402';
const RIO_VERDE = '5218805';

/** Numerics as they may be stored: trailing zeros, integers with zeros, many decimals, tiny and huge. */
/** The widest number the API takes. */
const WIDEST_TAKEN = new Decimal('999999999999999.9999999999');

export const NUMERICS = ['250.50', '0.001', '1000', '12345678.123', '1000.000', '100.0', '0.10', '1.10', '42', '3.14159265358979323846', '99999999999999999999.99999999', '0.0000001', '120.000', '7'];

/** consumedOn dates of the big producer: few, so that many purchases share one (ordered by id then). */
const BIG_DATES = ['2024-02-29', '2024-12-31', '2025-01-01', '2025-01-15', '2025-02-28', '2025-03-01', '2025-06-30', '2025-07-01', '2025-12-31', '2026-01-01', '2026-02-01'];

export function buildPlan(): Plan {
  const next = prng(20261203);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const municipalities: PlannedMunicipality[] = [
    { ibgeCode: RECIFE, name: 'Recife', semiarid: false },
    { ibgeCode: PORTO_ALEGRE, name: 'Porto Alegre', semiarid: false },
    { ibgeCode: FEIRA, name: 'Feira de Santana', semiarid: true },
    { ibgeCode: MOSSORO, name: 'Mossoró', semiarid: true },
    { ibgeCode: SANTA_BARBARA, name: "Santa Bárbara d'Oeste", semiarid: false },
    { ibgeCode: BELEM, name: 'Belém', semiarid: false },
    { ibgeCode: RIO_VERDE, name: 'Rio Verde', semiarid: false },
  ];
  const codes = municipalities.map((m) => m.ibgeCode);
  const producers: PlannedProducer[] = [
    { cnpj: newCnpj(), legalName: 'Óleos "Boa Esperança" Indústria e Comércio S.A.', plantMunicipalityCode: RECIFE, anpAuthorization: 'ANP 123/2019', via: 'sql' },
    { cnpj: newCnpj(), legalName: "Biodiesel d'Oeste Ltda", plantMunicipalityCode: SANTA_BARBARA, anpAuthorization: null, via: 'sql' },
    { cnpj: '12ABC34501DE35', legalName: 'Usina \\ Barra — Ação & Coração', plantMunicipalityCode: MOSSORO, anpAuthorization: 'ANP\t456/2021', via: 'sql' },
    { cnpj: newCnpj(), legalName: 'Ñandú Bioenergia 🌱 Ltda', plantMunicipalityCode: BELEM, anpAuthorization: null, via: 'api' },
    { cnpj: newCnpj(), legalName: 'Cooperativa Agroindustrial <Sul>\nfilial 2', plantMunicipalityCode: PORTO_ALEGRE, anpAuthorization: '', via: 'sql' },
    { cnpj: newCnpj(), legalName: 'Biocombustíveis Cerrado S/A', plantMunicipalityCode: RIO_VERDE, anpAuthorization: 'ANP 789/2022', via: 'api', renamedTo: 'Biocombustíveis do Cerrado – Goiás S/A' },
    { cnpj: newCnpj(), legalName: 'Zé\u0001Óleo\u007f\u2028Ltda', plantMunicipalityCode: FEIRA, anpAuthorization: null, via: 'sql' },
  ];
  const farmers: PlannedFarmer[] = [
    { cpf: cpfFor(1), name: 'Maria da Conceição', municipalityCode: FEIRA },
    { cpf: cpfFor(2), name: "José D'Ávila", municipalityCode: MOSSORO },
    { cpf: cpfFor(3), name: 'Antônio "Tonho" Gonçalves', municipalityCode: RECIFE },
    { cpf: cpfFor(4), name: 'Iracema 🌽 Tupinambá', municipalityCode: BELEM },
  ];
  const organizations: PlannedOrganization[] = [
    { cnpj: newCnpj(), name: 'Cooperativa do Sertão', kind: 'COOPERATIVE', municipalityCode: FEIRA },
    { cnpj: newCnpj(), name: 'Associação dos Agricultores de Mossoró', kind: 'ASSOCIATION', municipalityCode: MOSSORO },
  ];
  const feedstocks = ['SOYBEAN', 'CASTOR_BEAN', 'PALM', 'MACAUBA', 'COTTONSEED', 'BEEF_TALLOW', 'USED_COOKING_OIL', 'SUNFLOWER', 'PEANUT', 'CANOLA', 'OTHER'];
  const kinds: PlannedPurchase['supplierKind'][] = ['FAMILY_FARMER', 'COOPERATIVE', 'ASSOCIATION', 'THIRD_PARTY', 'OWN_PRODUCTION'];
  // A purchase recorded through the API holds numbers it takes (INPUT_BOUNDS): the wider ones are cut
  // to it there, and stay whole in the rows written by SQL, as rows stored before the bound may be.
  const taken = (v: string | null) => (v === null || !outOfInputBounds(v) ? v : Decimal.min(WIDEST_TAKEN, new Decimal(v).toDecimalPlaces(INPUT_BOUNDS.decimals, Decimal.ROUND_DOWN)).toFixed());
  const purchase = (producer: number, i: number, kind: PlannedPurchase['supplierKind'], consumedOn: string, extra: Partial<PlannedPurchase> = {}): PlannedPurchase => withTaken({
    producer,
    purchasedOn: addDays(consumedOn, -Math.floor(next() * 12)),
    consumedOn,
    feedstock: pick(feedstocks),
    quantityKg: NUMERICS[i % NUMERICS.length],
    cost: kind === 'OWN_PRODUCTION' ? null : NUMERICS[(i * 5 + 3) % NUMERICS.length],
    supplierKind: kind,
    farmer: kind === 'FAMILY_FARMER' ? i % farmers.length : null,
    organization: kind === 'COOPERATIVE' ? 0 : kind === 'ASSOCIATION' ? 1 : null,
    supplierName: kind === 'THIRD_PARTY' ? pick(['Cargill Agrícola S.A.', 'Fornecedor "Sul"\tLtda', 'Ölmühle Gmbh 🛢️', 'Trading \\ Norte']) : null,
    originMunicipalityCode: pick(codes),
    purpose: next() < 0.8 ? 'BIODIESEL_FEEDSTOCK' : 'OTHER_PRODUCT',
    externalId: next() < 0.5 ? null : `NF-${producer}-${i}-ç`,
    ...extra,
  });
  const withTaken = (p: PlannedPurchase): PlannedPurchase => (p.viaApi ? { ...p, quantityKg: taken(p.quantityKg)!, cost: taken(p.cost) } : p);

  const purchases: PlannedPurchase[] = [];
  // The big producer: dates drawn from a few, so that ids do not follow the order by consumedOn.
  for (let i = 0; i < BIG_PURCHASES; i++) purchases.push(purchase(BIG, i, kinds[i % kinds.length], pick(BIG_DATES)));
  // The others are interleaved with it and with each other in id order.
  purchases.splice(40, 0, purchase(ONE, 0, 'THIRD_PARTY', '2025-03-01', { externalId: null }));
  kinds.forEach((kind, k) => purchases.splice(10 + k * 7, 0, purchase(EVERY_KIND, k, kind, k < 3 ? '2025-05-05' : '2025-05-04')));
  for (let i = 0; i < 4; i++) purchases.push(purchase(FEW, i, kinds[(i * 2) % kinds.length], ['2025-08-10', '2025-08-10', '2025-08-09', '2026-01-01'][i], { viaApi: i >= 2 }));
  for (let i = 0; i < 3; i++) purchases.push(purchase(RENAMED, i + 3, kinds[i], ['2025-09-30', '2025-09-01', '2025-09-30'][i], { viaApi: true }));
  purchases.push(purchase(6, 8, 'FAMILY_FARMER', '2025-10-10'), purchase(6, 9, 'OWN_PRODUCTION', '2025-10-10'));

  // Registrations: none, one or several per owner, equal validFrom dates out of id order.
  const registrations: PlannedRegistration[] = [
    { of: 'farmer', owner: 0, kind: 'DAP', number: 'DAP-0001/2019', validFrom: '2019-03-01', validUntil: '2022-10-31' },
    { of: 'farmer', owner: 1, kind: 'CAF', number: 'CAF 22\\"b"', validFrom: '2023-01-01', validUntil: '2026-12-31' },
    { of: 'farmer', owner: 0, kind: 'CAF', number: 'CAF-0001', validFrom: '2023-01-01', validUntil: '2026-12-31' },
    { of: 'organization', owner: 0, kind: 'CAF', number: 'CAF-PJ-7 ação', validFrom: '2023-06-01', validUntil: '2027-05-31' },
    { of: 'farmer', owner: 2, kind: 'DAP', number: 'DAP\t3', validFrom: '2020-01-01', validUntil: '2023-12-31' },
    { of: 'organization', owner: 1, kind: 'DAP', number: 'DAP-PJ-1', validFrom: '2021-01-01', validUntil: '2022-10-31' },
    { of: 'farmer', owner: 0, kind: 'DAP', number: 'DAP-0000/2018', validFrom: '2019-03-01', validUntil: '2019-12-31' },
  ];
  const indexesOf = (producer: number, kind: PlannedPurchase['supplierKind']) => purchases.flatMap((x, i) => (x.producer === producer && x.supplierKind === kind ? [i] : []));
  const contract = (producer: number, farmer: number | null, organization: number | null, i: number, bought: number[]): PlannedContract => ({
    producer, farmer, organization, signedOn: addDays('2024-01-10', i * 17), validFrom: addDays('2024-01-15', i * 17), validUntil: addDays('2026-12-31', -i),
    feedstock: pick(feedstocks), quantityKg: NUMERICS[(i * 3) % NUMERICS.length], pricePerKg: NUMERICS[(i * 7 + 1) % NUMERICS.length], technicalAssistance: i % 3 !== 1, purchases: bought,
  });
  const contracts: PlannedContract[] = [
    contract(BIG, 0, null, 0, indexesOf(BIG, 'FAMILY_FARMER').slice(0, 9)),
    contract(BIG, null, 0, 1, indexesOf(BIG, 'COOPERATIVE').slice(0, 4)),
    contract(EVERY_KIND, 1, null, 2, indexesOf(EVERY_KIND, 'FAMILY_FARMER')),
    contract(BIG, null, 1, 3, []),
    contract(RENAMED, 2, null, 4, []),
  ];
  const sales: PlannedSale[] = [];
  const saleDates = ['2025-01-31', '2025-03-01', '2025-03-01', '2025-03-15', '2025-12-31', '2026-01-02'];
  for (let i = 0; i < 31; i++) {
    sales.push({ producer: i % 5 === 4 ? FEW : BIG, soldOn: pick(saleDates), volumeM3: NUMERICS[(i + 2) % NUMERICS.length], revenue: NUMERICS[(i * 3 + 1) % NUMERICS.length],
      origin: i % 4 === 3 ? 'IMPORTED' : 'OWN_PRODUCTION', market: i % 6 === 5 ? 'EXPORT' : 'DOMESTIC', invoiceKey: i % 3 === 0 ? null : `352501${String(i * 7919).padStart(38, '0')}` });
  }
  const grants: PlannedGrant[] = [
    { producer: BIG, grantedOn: '2024-01-01', validUntil: '2028-12-31', act: 'Portaria 12/2024 — "Selo"', events: [
      { kind: 'SUSPENDED', effectiveOn: '2025-03-10', reason: 'auditoria\nfase 1', validUntil: null },
      { kind: 'REINSTATED', effectiveOn: '2025-03-21', reason: null, validUntil: null },
      { kind: 'RENEWED', effectiveOn: '2025-06-01', reason: 'renovação', validUntil: '2030-12-31' },
    ] },
    { producer: FEW, grantedOn: '2025-02-01', validUntil: '2027-01-31', act: null, events: [] },
    { producer: BIG, grantedOn: '2020-01-01', validUntil: '2023-12-31', act: 'Portaria 3/2020', events: [{ kind: 'CANCELLED', effectiveOn: '2023-06-30', reason: 'pedido', validUntil: null }] },
  ];
  const elections: PlannedElection[] = [
    { producer: BIG, regime: 'SPECIAL_PER_M3', electedOn: '2024-11-20', startingActivity: false, effectiveYear: 2025 },
    { producer: FEW, regime: 'SPECIAL_PER_M3', electedOn: '2025-02-01', startingActivity: true, effectiveYear: 2025 },
    { producer: BIG, regime: 'AD_VALOREM', electedOn: '2023-11-10', startingActivity: false, effectiveYear: 2024 },
  ];
  return { municipalities, producers, farmers, organizations, purchases, registrations, contracts, sales, grants, elections };
}

const INSERT_PURCHASE = `INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, organization_id, supplier_name, origin_municipality_code, purpose, external_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`;

/** Write the plan into one API's database, in plan order; the ids it got, by plan index. */
export async function seed(api: TestApi, plan: Plan): Promise<Seeded> {
  const sql = (text: string, params: unknown[]) => api.db.dataSource.query(text, params);
  await api.ok(`mutation($m: [MunicipalityInput!]!) { upsertMunicipalities(input: $m) { ibgeCode } }`, { m: plan.municipalities });
  const producers: string[] = [];
  for (const p of plan.producers) {
    if (p.via === 'api') {
      const created = await api.ok(`mutation($i: CreateProducerInput!) { createProducer(input: $i) { id version } }`, {
        i: { cnpj: p.cnpj, legalName: p.legalName, plantMunicipalityCode: p.plantMunicipalityCode, anpAuthorization: p.anpAuthorization },
      });
      if (p.renamedTo) {
        await api.ok(`mutation($id: ID!, $i: UpdateProducerInput!, $v: Int!) { updateProducer(id: $id, input: $i, expectedVersion: $v) { version } }`, {
          id: created.createProducer.id, i: { legalName: p.renamedTo }, v: created.createProducer.version,
        });
      }
      producers.push(String(created.createProducer.id));
    } else {
      const [row] = await sql(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code, anp_authorization) VALUES ($1, $2, $3, $4) RETURNING id`,
        [p.cnpj, p.legalName, p.plantMunicipalityCode, p.anpAuthorization]);
      producers.push(String(row.id));
    }
  }
  const farmers: string[] = [];
  for (const f of plan.farmers) {
    const [row] = await sql(`INSERT INTO family_farmer (cpf, name, municipality_code) VALUES ($1, $2, $3) RETURNING id`, [f.cpf, f.name, f.municipalityCode]);
    farmers.push(String(row.id));
  }
  const organizations: string[] = [];
  for (const o of plan.organizations) {
    const [row] = await sql(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members) VALUES ($1, $2, $3, $4, 120, 90) RETURNING id`,
      [o.cnpj, o.name, o.kind, o.municipalityCode]);
    organizations.push(String(row.id));
  }
  const purchases: string[] = [];
  for (const p of plan.purchases) {
    const farmer = p.farmer === null ? null : farmers[p.farmer];
    const organization = p.organization === null ? null : organizations[p.organization];
    if (p.viaApi) {
      const data = await api.ok(`mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { id } }`, {
        input: [{
          producerId: producers[p.producer], purchasedOn: p.purchasedOn, consumedOn: p.consumedOn, feedstock: p.feedstock, quantityKg: p.quantityKg,
          cost: p.cost, supplierKind: p.supplierKind, familyFarmerId: farmer, organizationId: organization, supplierName: p.supplierName,
          originMunicipalityCode: p.originMunicipalityCode, purpose: p.purpose, externalId: p.externalId,
        }],
      });
      purchases.push(String(data.recordPurchases[0].id));
    } else {
      const [row] = await sql(INSERT_PURCHASE, [producers[p.producer], p.purchasedOn, p.consumedOn, p.feedstock, p.quantityKg, p.cost, p.supplierKind,
        farmer, organization, p.supplierName, p.originMunicipalityCode, p.purpose, p.externalId]);
      purchases.push(String(row.id));
    }
  }
  for (const r of plan.registrations) {
    const [table, column, owners] = r.of === 'farmer' ? ['family_farmer_registration', 'family_farmer_id', farmers] : ['organization_registration', 'organization_id', organizations];
    await sql(`INSERT INTO ${table} (${column}, kind, number, valid_from, valid_until) VALUES ($1, $2, $3, $4, $5)`, [owners[r.owner], r.kind, r.number, r.validFrom, r.validUntil]);
  }
  const contracts: string[] = [];
  for (const c of plan.contracts) {
    const [row] = await sql(`INSERT INTO contract (producer_id, family_farmer_id, organization_id, signed_on, valid_from, valid_until, feedstock, quantity_kg, price_per_kg, technical_assistance)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [producers[c.producer], c.farmer === null ? null : farmers[c.farmer], c.organization === null ? null : organizations[c.organization], c.signedOn, c.validFrom, c.validUntil,
      c.feedstock, c.quantityKg, c.pricePerKg, c.technicalAssistance]);
    contracts.push(String(row.id));
    for (const i of c.purchases) await sql('UPDATE purchase SET contract_id = $1 WHERE id = $2', [row.id, purchases[i]]);
  }
  const sales: string[] = [];
  for (const x of plan.sales) {
    const [row] = await sql('INSERT INTO sale (producer_id, sold_on, volume_m3, revenue, origin, market, invoice_key) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
      [producers[x.producer], x.soldOn, x.volumeM3, x.revenue, x.origin, x.market, x.invoiceKey]);
    sales.push(String(row.id));
  }
  const grants: string[] = [];
  for (const g of plan.grants) {
    const [row] = await sql('INSERT INTO seal_grant (producer_id, granted_on, valid_until, act) VALUES ($1, $2, $3, $4) RETURNING id', [producers[g.producer], g.grantedOn, g.validUntil, g.act]);
    grants.push(String(row.id));
    for (const e of g.events) {
      await sql('INSERT INTO seal_event (grant_id, kind, effective_on, reason, valid_until) VALUES ($1, $2, $3, $4, $5)', [row.id, e.kind, e.effectiveOn, e.reason, e.validUntil]);
    }
  }
  for (const e of plan.elections) {
    await sql('INSERT INTO regime_election (producer_id, regime, elected_on, starting_activity, effective_year) VALUES ($1, $2, $3, $4, $5)',
      [producers[e.producer], e.regime, e.electedOn, e.startingActivity, e.effectiveYear]);
  }
  // Imports of biodiesel: numerics with trailing zeros and many decimals, text to escape, equal
  // clearance dates inserted out of id order.
  const imports: Array<[number, string, string, string]> = [
    [BIG, '2025-03-10', '120.500', 'DI "25/0001" \\ ç'], [BIG, '2025-01-05', '0.001', 'DUIMP 25BR0001'], [BIG, '2025-03-10', '3.14159265358979323846', 'DI 25/0002'],
    [BIG, '2024-12-31', '1000', 'DI 24/0099'], [FEW, '2025-06-01', '42.10', 'DUIMP 25BR0002'],
  ];
  for (const [p, clearedOn, volume, declaration] of imports) {
    await sql('INSERT INTO biodiesel_import (producer_id, cleared_on, volume_m3, declaration_number) VALUES ($1, $2, $3, $4)', [producers[p], clearedOn, volume, declaration]);
  }
  await seedDated(sql, plan, organizations);
  return { producers, farmers, organizations, purchases, contracts, sales, grants };
}

/**
 * Dated and recorded rows: member declarations (undated, on equal days out of id order), Semiárido
 * intervals (undated, open), minimum prices (equal validFrom), and the times of everything
 * recorded with now() (member declarations, audit entries) set to the same instants, with
 * microseconds, in every database; the audit entries' records to the same JSON.
 */
async function seedDated(sql: (text: string, params: unknown[]) => Promise<any[]>, plan: Plan, organizations: string[]): Promise<void> {
  const declarations: Array<[number, string | null, number, number]> = [
    [0, '2025-03-01', 200, 150], [0, '2024-07-15', 180, 100], [0, '2025-03-01', 210, 160], [1, '2024-01-01', 50, 10], [1, null, 40, 40],
  ];
  for (const [o, on, members, family] of declarations) {
    await sql('INSERT INTO organization_membership (organization_id, declared_on, members, family_farmer_members) VALUES ($1, $2, $3, $4)', [organizations[o], on, members, family]);
  }
  const [m0, m1] = plan.municipalities.map((m) => m.ibgeCode);
  const intervals: Array<[string, string | null, string | null, string]> = [
    [m0, '2021-08-01', null, 'Resolução Condel/Sudene nº 150/2021'], [m0, null, '2017-11-22', 'Resolução "antiga" \\ nº 107/2017'],
    [m1, '2017-11-23', '2021-07-31', 'Resolução Condel/Sudene nº 115/2017'], [m1, '2024-01-01', null, 'Resolução nº 176/2024'],
  ];
  for (const [code, from, until, act] of intervals) {
    await sql('INSERT INTO semiarid_membership (municipality_code, valid_from, valid_until, act) VALUES ($1, $2, $3, $4)', [code, from, until, act]);
  }
  const prices: Array<[string, string, string, string, string]> = [
    ['SOYBEAN', '2025-01-01', '2025-12-31', '2.10', 'Portaria MDA nº 1/2025'], ['CASTOR_BEAN', '2025-01-01', '2025-12-31', '3.500', 'Portaria "X" nº 2/2025'],
    ['SOYBEAN', '2024-01-01', '2024-12-31', '1.9', 'Portaria nº 3/2024'], ['SOYBEAN', '2025-01-01', '2025-06-30', '2.25', 'Portaria nº 4/2025 (retificação)'],
  ];
  for (const [feedstock, from, until, price, source] of prices) {
    await sql('INSERT INTO minimum_price (feedstock, valid_from, valid_until, price_per_kg, source, published_on) VALUES ($1, $2, $3, $4, $5, $2)', [feedstock, from, until, price, source]);
  }
  await sql(`UPDATE organization_membership SET recorded_at = timestamptz '2025-02-03 04:05:06.789123+00' + id * interval '1 day 1.000999 second'`, []);
  await sql(`UPDATE audit_entry SET at = timestamptz '2025-05-06 07:08:09.000500+00' + id * interval '1 hour 0.999999 second',
    before = CASE WHEN before IS NULL THEN NULL ELSE jsonb_build_object('id', entity_id, 'legalName', 'a "b" \\ ç', 'n', id) END,
    after = CASE WHEN after IS NULL THEN NULL ELSE jsonb_build_object('id', entity_id, 'cost', 12.50, 'items', jsonb_build_array(1, 'x', null, true)) END`, []);
}

/** Every row the reads can show, as text, so that two databases can be compared whole. */
export async function dump(api: TestApi): Promise<string> {
  const tables: Array<[string, string]> = [
    ['municipality', 'SELECT ibge_code, name, state, region FROM municipality ORDER BY ibge_code'],
    ['semiarid_membership', 'SELECT municipality_code, valid_from::text, valid_until::text, act FROM semiarid_membership ORDER BY municipality_code, valid_from NULLS FIRST, id'],
    ['producer', 'SELECT id, cnpj, legal_name, plant_municipality_code, anp_authorization, version FROM producer ORDER BY id'],
    ['family_farmer', 'SELECT id, cpf, name, municipality_code FROM family_farmer ORDER BY id'],
    ['family_farming_organization', 'SELECT id, cnpj, name, kind, municipality_code FROM family_farming_organization ORDER BY id'],
    ['purchase', `SELECT id, producer_id, purchased_on::text, consumed_on::text, feedstock, quantity_kg::text, cost::text, supplier_kind, family_farmer_id,
                         organization_id, supplier_name, origin_municipality_code, purpose, external_id, contract_id FROM purchase ORDER BY id`],
    ['registrations', `SELECT 'f', id, family_farmer_id, kind, number, valid_from::text, valid_until::text FROM family_farmer_registration
                       UNION ALL SELECT 'o', id, organization_id, kind, number, valid_from::text, valid_until::text FROM organization_registration ORDER BY 1, 2`],
    ['contract', 'SELECT id, producer_id, family_farmer_id, organization_id, signed_on::text, valid_from::text, valid_until::text, feedstock, quantity_kg::text, price_per_kg::text, technical_assistance FROM contract ORDER BY id'],
    ['sale', 'SELECT id, producer_id, sold_on::text, volume_m3::text, revenue::text, origin, market, invoice_key FROM sale ORDER BY id'],
    ['seal', `SELECT g.id, g.producer_id, g.granted_on::text, g.valid_until::text, g.act, e.id AS event, e.kind, e.effective_on::text, e.reason, e.valid_until::text AS renewed
                FROM seal_grant g LEFT JOIN seal_event e ON e.grant_id = g.id ORDER BY g.id, e.id`],
    ['regime_election', 'SELECT id, producer_id, regime, elected_on::text, starting_activity, effective_year FROM regime_election ORDER BY id'],
    ['organization_membership', 'SELECT id, organization_id, declared_on::text, members, family_farmer_members, recorded_at FROM organization_membership ORDER BY id'],
    ['minimum_price', 'SELECT id, feedstock, valid_from::text, valid_until::text, price_per_kg::text, source, published_on::text FROM minimum_price ORDER BY id'],
    ['law_parameter_version', 'SELECT id, key, parameter, scope, value, valid_from::text, valid_until::text, published_on::text, legal_basis, note, shipped FROM law_parameter_version ORDER BY id'],
    ['audit_entry', 'SELECT id, at, actor, role, operation, entity, entity_id, producer_id, before, after FROM audit_entry ORDER BY id'],
  ];
  const parts: string[] = [];
  for (const [name, text] of tables) parts.push(`${name}: ${JSON.stringify(await api.db.dataSource.query(text))}`);
  return parts.join('\n');
}
