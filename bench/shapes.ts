// The read shapes of the benchmark: what frontends and analysts send, each beside a minimal
// hand-written server (node:http + pg, one SQL statement that nests the JSON in PostgreSQL, which
// Node parses and stringifies) returning byte for byte the same JSON.
import { BenchData } from './data';
import { decimalSql, MONEY_SCALE, QUANTITY_SCALE } from '../src/graphql/scalars';
import { priorityRegionOnSql } from '../src/services/facts/priority-region.sql';

export interface Shape {
  name: string;
  query: string;
  variables(data: BenchData): Record<string, unknown>;
  /** The hand-written statement: one row, one `json` column `data` (the response's data). */
  sql: string;
  params(data: BenchData): unknown[];
  /** The most SQL statements the API may send for it: one per root field. */
  maxStatements: number;
}

/** A decimal as the API writes it: R$ at least 2 decimals, kg and m³ 3. */
const money = (ref: string) => decimalSql(ref, MONEY_SCALE);
const quantity = (ref: string) => decimalSql(ref, QUANTITY_SCALE);
const list = (select: string) => `coalesce((${select}), '[]'::json)`;
const registrations = (table: string, column: string, owner: string, fields = `'kind', r.kind, 'number', r.number, 'validFrom', r.valid_from, 'validUntil', r.valid_until`) =>
  list(`SELECT json_agg(json_build_object(${fields}) ORDER BY r.valid_from, r.id) FROM ${table} r WHERE r.${column} = ${owner}`);

export const SHAPES: Shape[] = [
  {
    name: 'a producer\'s 100 purchases with contract, farmer, registrations, municipality',
    query: `query Lots($p: ID!) { producer(id: $p) { id legalName purchases(first: 100) { edges { node { id consumedOn quantityKg cost supplierKind
      contract { id signedOn pricePerKg } familyFarmer { name cpf municipality { name state } registrations { kind number validFrom validUntil } } } } } } }`,
    variables: (d) => ({ p: d.bigProducerId }),
    sql: `SELECT json_build_object('producer', (SELECT json_build_object('id', p.id::text, 'legalName', p.legal_name, 'purchases', json_build_object('edges', ${list(`
      SELECT json_agg(json_build_object('node', json_build_object('id', x.id::text, 'consumedOn', x.consumed_on, 'quantityKg', ${quantity('x.quantity_kg')}, 'cost', ${money('x.cost')},
               'supplierKind', x.supplier_kind,
               'contract', CASE WHEN c.id IS NOT NULL THEN json_build_object('id', c.id::text, 'signedOn', c.signed_on, 'pricePerKg', ${money('c.price_per_kg')}) END,
               'familyFarmer', CASE WHEN f.id IS NOT NULL THEN json_build_object('name', f.name, 'cpf', f.cpf, 'municipality', json_build_object('name', m.name, 'state', m.state),
                 'registrations', ${registrations('family_farmer_registration', 'family_farmer_id', 'f.id')}) END)) ORDER BY x.consumed_on, x.id)
        FROM (SELECT * FROM purchase WHERE producer_id = p.id ORDER BY consumed_on, id LIMIT 100) x
        LEFT JOIN contract c ON c.id = x.contract_id LEFT JOIN family_farmer f ON f.id = x.family_farmer_id LEFT JOIN municipality m ON m.ibge_code = f.municipality_code`)}))
      FROM producer p WHERE p.id = $1)) AS data`,
    params: (d) => [d.bigProducerId],
    maxStatements: 1,
  },
  {
    name: 'family farmers with registrations',
    query: `{ familyFarmers(first: 100) { edges { node { id cpf name registrations { kind number validFrom validUntil } } } } }`,
    variables: () => ({}),
    sql: `SELECT json_build_object('familyFarmers', json_build_object('edges', ${list(`
      SELECT json_agg(json_build_object('node', json_build_object('id', f.id::text, 'cpf', f.cpf, 'name', f.name,
               'registrations', ${registrations('family_farmer_registration', 'family_farmer_id', 'f.id')})) ORDER BY f.id)
        FROM (SELECT * FROM family_farmer ORDER BY id LIMIT 100) f`)})) AS data`,
    params: () => [],
    maxStatements: 1,
  },
  {
    name: 'organizations with registrations and municipality',
    query: `{ organizations(first: 30) { totalCount edges { node { id cnpj name kind members familyFarmerMembers municipality { name region } registrations { kind number validFrom validUntil } } } } }`,
    variables: () => ({}),
    sql: `SELECT json_build_object('organizations', json_build_object('totalCount', (SELECT count(*) FROM family_farming_organization), 'edges', ${list(`
      SELECT json_agg(json_build_object('node', json_build_object('id', o.id::text, 'cnpj', o.cnpj, 'name', o.name, 'kind', o.kind, 'members', o.members,
               'familyFarmerMembers', o.family_farmer_members, 'municipality', json_build_object('name', m.name, 'region', m.region),
               'registrations', ${registrations('organization_registration', 'organization_id', 'o.id')})) ORDER BY o.id)
        FROM (SELECT * FROM family_farming_organization ORDER BY id LIMIT 30) o JOIN municipality m ON m.ibge_code = o.municipality_code`)})) AS data`,
    params: () => [],
    maxStatements: 1,
  },
  {
    name: 'producers with their March sales (a filter by date)',
    query: `{ producers(first: 20) { edges { node { id legalName sales(first: 50, from: "2025-03-01", to: "2025-03-31") { totalCount edges { node { id soldOn volumeM3 revenue origin market } } } } } } }`,
    variables: () => ({}),
    sql: `SELECT json_build_object('producers', json_build_object('edges', ${list(`
      SELECT json_agg(json_build_object('node', json_build_object('id', p.id::text, 'legalName', p.legal_name, 'sales', json_build_object(
               'totalCount', (SELECT count(*) FROM sale s WHERE s.producer_id = p.id AND s.sold_on BETWEEN '2025-03-01' AND '2025-03-31'),
               'edges', ${list(`SELECT json_agg(json_build_object('node', json_build_object('id', s.id::text, 'soldOn', s.sold_on, 'volumeM3', ${quantity('s.volume_m3')},
                          'revenue', ${money('s.revenue')}, 'origin', s.origin, 'market', s.market)) ORDER BY s.sold_on, s.id)
                   FROM (SELECT * FROM sale WHERE producer_id = p.id AND sold_on BETWEEN '2025-03-01' AND '2025-03-31' ORDER BY sold_on, id LIMIT 50) s`)})))
               ORDER BY p.id)
        FROM (SELECT * FROM producer ORDER BY id LIMIT 20) p`)})) AS data`,
    params: () => [],
    maxStatements: 1,
  },
  {
    name: 'producers with contracts and their counterparty',
    query: `{ producers(first: 20) { edges { node { id contracts(first: 50) { edges { node { id signedOn validUntil pricePerKg technicalAssistance familyFarmer { name cpf } organization { name kind } } } } } } } }`,
    variables: () => ({}),
    sql: `SELECT json_build_object('producers', json_build_object('edges', ${list(`
      SELECT json_agg(json_build_object('node', json_build_object('id', p.id::text, 'contracts', json_build_object('edges', ${list(`
               SELECT json_agg(json_build_object('node', json_build_object('id', c.id::text, 'signedOn', c.signed_on, 'validUntil', c.valid_until, 'pricePerKg', ${money('c.price_per_kg')},
                        'technicalAssistance', c.technical_assistance,
                        'familyFarmer', CASE WHEN f.id IS NOT NULL THEN json_build_object('name', f.name, 'cpf', f.cpf) END,
                        'organization', CASE WHEN o.id IS NOT NULL THEN json_build_object('name', o.name, 'kind', o.kind) END)) ORDER BY c.id)
                 FROM (SELECT * FROM contract WHERE producer_id = p.id ORDER BY id LIMIT 50) c
                 LEFT JOIN family_farmer f ON f.id = c.family_farmer_id LEFT JOIN family_farming_organization o ON o.id = c.organization_id`)})))
               ORDER BY p.id)
        FROM (SELECT * FROM producer ORDER BY id LIMIT 20) p`)})) AS data`,
    params: () => [],
    maxStatements: 1,
  },
  {
    name: 'fragments, aliases and variables: a month of one producer',
    query: `query Month($p: ID!, $from: Date!, $to: Date!, $n: Int!) { big: producer(id: $p) { ...Header march: purchases(first: $n, from: $from, to: $to) { count: totalCount pageInfo { more: hasNextPage } edges { node { ...Lot } } } } }
      fragment Header on Producer { id cnpj legalName plant: plantMunicipality { name state } }
      fragment Lot on Purchase { id purchasedOn kg: quantityKg cost origin: originMunicipality { name priorityRegion } }`,
    variables: (d) => ({ p: d.bigProducerId, from: '2025-03-01', to: '2025-03-31', n: 100 }),
    sql: `SELECT json_build_object('big', (SELECT json_build_object('id', p.id::text, 'cnpj', p.cnpj, 'legalName', p.legal_name, 'plant', json_build_object('name', pm.name, 'state', pm.state),
      'march', json_build_object('count', (SELECT count(*) FROM purchase WHERE producer_id = p.id AND consumed_on BETWEEN $2 AND $3),
        'pageInfo', json_build_object('more', (SELECT count(*) > $4 FROM (SELECT 1 FROM purchase WHERE producer_id = p.id AND consumed_on BETWEEN $2 AND $3 LIMIT $4 + 1) y)),
        'edges', ${list(`SELECT json_agg(json_build_object('node', json_build_object('id', x.id::text, 'purchasedOn', x.purchased_on, 'kg', ${quantity('x.quantity_kg')}, 'cost', ${money('x.cost')},
                   'origin', json_build_object('name', m.name, 'priorityRegion', ${priorityRegionOnSql('m.ibge_code', 'current_date')}))) ORDER BY x.consumed_on, x.id)
            FROM (SELECT * FROM purchase WHERE producer_id = p.id AND consumed_on BETWEEN $2 AND $3 ORDER BY consumed_on, id LIMIT $4) x JOIN municipality m ON m.ibge_code = x.origin_municipality_code`)}))
      FROM producer p JOIN municipality pm ON pm.ibge_code = p.plant_municipality_code WHERE p.id = $1)) AS data`,
    params: (d) => [d.bigProducerId, '2025-03-01', '2025-03-31', 100],
    maxStatements: 1,
  },
  {
    name: 'lists two levels deep: grants with events, elections, purchases with registrations',
    query: `{ producers(first: 10) { edges { node { id sealGrants { grantedOn validUntil events { kind effectiveOn } } regimeElections { regime effectiveYear }
      purchases(first: 20) { edges { node { id familyFarmer { name registrations { number validFrom } } } } } } } } }`,
    variables: () => ({}),
    sql: `SELECT json_build_object('producers', json_build_object('edges', ${list(`
      SELECT json_agg(json_build_object('node', json_build_object('id', p.id::text,
               'sealGrants', ${list(`SELECT json_agg(json_build_object('grantedOn', g.granted_on, 'validUntil', g.valid_until, 'events', ${list(`
                   SELECT json_agg(json_build_object('kind', e.kind, 'effectiveOn', e.effective_on) ORDER BY e.id) FROM seal_event e WHERE e.grant_id = g.id`)}) ORDER BY g.granted_on, g.id)
                 FROM seal_grant g WHERE g.producer_id = p.id`)},
               'regimeElections', ${list(`SELECT json_agg(json_build_object('regime', r.regime, 'effectiveYear', r.effective_year) ORDER BY r.effective_year, r.id) FROM regime_election r WHERE r.producer_id = p.id`)},
               'purchases', json_build_object('edges', ${list(`SELECT json_agg(json_build_object('node', json_build_object('id', x.id::text,
                   'familyFarmer', CASE WHEN f.id IS NOT NULL THEN json_build_object('name', f.name, 'registrations', ${registrations('family_farmer_registration', 'family_farmer_id', 'f.id', `'number', r.number, 'validFrom', r.valid_from`)}) END)) ORDER BY x.consumed_on, x.id)
                 FROM (SELECT * FROM purchase WHERE producer_id = p.id ORDER BY consumed_on, id LIMIT 20) x LEFT JOIN family_farmer f ON f.id = x.family_farmer_id`)})))
               ORDER BY p.id)
        FROM (SELECT * FROM producer ORDER BY id LIMIT 10) p`)})) AS data`,
    params: () => [],
    maxStatements: 1,
  },
];
