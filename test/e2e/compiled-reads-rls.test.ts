import { Pool, PoolClient } from 'pg';
import { getNamedType, GraphQLObjectType, Kind, OperationDefinitionNode, parse } from 'graphql';
import { ReadCompiler } from '../../src/graphql/compiled/compiler';
import { collectFields } from '../../src/graphql/compiled/selection';
import { getSchema } from '../../src/graphql/schema';
import { Producer } from '../../src/domain';
import { CompiledStatement } from '../../src/graphql/compiled/statement';
import { today } from '../../src/law/dates';
import { Role } from '../../src/law/types';
import { Actor } from '../../src/services/actor';
import { createServices } from '../../src/services';
import { startTestApi, TestApi } from '../support/api';
import { BIG, buildPlan, FEW, seed, Seeded } from './compiled-reads.fixtures';

/**
 * Row-level security is the second wall of a PRODUCER's compiled reads: the statement filters by
 * producer, and it also runs as the database role selo_producer (in the transaction the services'
 * runner opens for it), so that a statement that forgot its filter still sees only that producer's
 * rows. Here the filters are removed from compiled statements by hand, and the statements run as
 * the API runs them (src/services/compiled-read.service.ts).
 */

let api: TestApi;
let ids: Seeded;

beforeAll(async () => {
  api = await startTestApi();
  ids = await seed(api, buildPlan());
}, 60_000);
afterAll(async () => { await api?.close(); });

async function compile(query: string, producerId: string) {
  const schema = await getSchema();
  const operation = parse(query).definitions[0] as OperationDefinitionNode;
  const queryType = schema.getQueryType()!;
  const [[, nodes]] = [...collectFields(schema, {}, {}, queryType, [operation.selectionSet])];
  const field = queryType.getFields()[nodes[0].name.value];
  const args = Object.fromEntries((nodes[0].arguments ?? []).map((a) => [a.name.value, a.value.kind === Kind.STRING || a.value.kind === Kind.INT ? (a.value.kind === Kind.INT ? Number(a.value.value) : a.value.value) : null]));
  expect(getNamedType(field.type)).toBeInstanceOf(GraphQLObjectType);
  const statement = new ReadCompiler(schema, api.db.dataSource).compile({
    field, nodes, fragments: {}, variables: {}, args, actor: { sub: 'p', role: Role.PRODUCER, producerId, requestId: 'rls' }, today: today(),
  });
  if (!statement) throw new Error(`not compiled: ${query}`);
  return statement;
}

/** The statement with every producer filter taken out (the scope conditions the compiler adds, bound to the producer's id). */
function withoutFilters(statement: CompiledStatement, producerId: string): CompiledStatement {
  const sql = statement.sql.replace(/(\w+\.(id|producer_id) = \$(\d+)::bigint)/g, (all, _c, _p, n: string) => (statement.params[Number(n) - 1] === producerId ? `$${n}::bigint IS NOT NULL` : all));
  expect(sql).not.toBe(statement.sql);
  return { ...statement, sql };
}

const admin: Actor = { sub: 'a', role: Role.ADMIN, producerId: null, requestId: 'rls' };
const producer = (producerId: string): Actor => ({ sub: 'p', role: Role.PRODUCER, producerId, requestId: 'rls' });

/** The statement run as the API runs it for `actor`: its objects, with what they answer for their fields, as plain JSON-like values. */
async function run(actor: Actor, statement: CompiledStatement): Promise<any> {
  const data = await createServices(api.db.dataSource).compiledReads.run(actor, statement);
  return data === null ? null : plain(statement.objects(data));
}
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = plain(x);
  for (const symbol of Object.getOwnPropertySymbols(v)) Object.assign(out, plain((v as Record<symbol, unknown>)[symbol]));
  if (v instanceof Producer) out.producerOf = v.id;
  return out;
}

const producerIdsIn = (json: unknown): string[] => {
  const found = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'producerOf' && typeof x === 'string') found.add(x);
        walk(x);
      }
    }
  };
  walk(json);
  return [...found].sort();
};

test('a PRODUCER\'s compiled statement without its filters still sees only its own producer\'s rows', async () => {
  const own = ids.producers[BIG];
  const statement = await compile(
    '{ producers(first: 100) { totalCount edges { node { producerOf: id purchases(first: 100) { totalCount edges { node { id producer { producerOf: id } } } } sales(first: 100) { totalCount } sealGrants { producer { producerOf: id } } } } } }',
    own,
  );
  expect(statement.params).toContain(own);
  const open = withoutFilters(statement, own);

  // Without row-level security the filterless statement would show every producer: the filters
  // really were removed.
  const leaked = await run(admin, open);
  expect(leaked.totalCount).toBe(ids.producers.length);
  expect(producerIdsIn(leaked).length).toBeGreaterThan(1);

  // As the API runs it for the PRODUCER: its own producer only, and all of its rows.
  const scoped = await run(producer(own), open);
  expect(scoped.totalCount).toBe(1);
  expect(producerIdsIn(scoped)).toEqual([own]);
  expect(scoped.edges[0].node.purchases.totalCount).toBe(137);
  // The same answer as the statement with its filters.
  expect(scoped).toEqual(await run(producer(own), statement));
});

test('asked again, the filterless statement still sees only the PRODUCER\'s own rows; the same text unscoped still sees all', async () => {
  const own = ids.producers[FEW];
  const statement = await compile('{ producers(first: 100) { totalCount edges { node { producerOf: id purchases(first: 100) { totalCount } } } } }', own);
  const open = withoutFilters(statement, own);
  // Asked again and again on the pool's connections, alternately scoped and not.
  for (let i = 0; i < 4; i++) {
    const scoped = await run(producer(own), open);
    expect(scoped.totalCount).toBe(1);
    expect(producerIdsIn(scoped)).toEqual([own]);
    const leaked = await run(admin, open);
    expect(leaked.totalCount).toBe(ids.producers.length);
  }
});

test('a lookup of another producer\'s record without its filter finds nothing under row-level security', async () => {
  const own = ids.producers[FEW];
  const other = ids.purchases[0]; // the big producer's
  const statement = await compile(`{ purchase(id: "${other}") { id cost producer { producerOf: id } } }`, own);
  const open = withoutFilters(statement, own);
  expect((await run(admin, open)).producer.producerOf).toBe(ids.producers[BIG]);
  expect(await run(producer(own), open)).toBeNull();
});

test('row-level security lasts for the statement only: the pooled connection is itself again after it', async () => {
  const own = ids.producers[FEW];
  const statement = await compile('{ producers(first: 100) { totalCount } }', own);
  await run(producer(own), statement);
  // Every connection of the pool, the one that ran it among them.
  const pool = (api.db.dataSource.driver as unknown as { master: Pool }).master;
  const clients: PoolClient[] = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
  try {
    expect(clients.length).toBeGreaterThan(0);
    for (const client of clients) {
      const { rows: [row] } = await client.query(`SELECT current_user AS who, current_setting('selo.producer_id', true) AS producer, (SELECT count(*) FROM producer)::int AS n`);
      expect(row.who).not.toBe('selo_producer');
      expect(row.producer ?? '').toBe('');
      expect(row.n).toBe(ids.producers.length);
    }
  } finally {
    clients.forEach((c) => c.release());
  }
});

test('the audit log without its filter: under row-level security a PRODUCER sees its own entries only, neither the shared ones (producer null) nor another producer\'s', async () => {
  const rows: Array<{ id: string; producer: string | null }> = await api.db.dataSource.query('SELECT a.id::text AS id, a.producer_id::text AS producer FROM audit_entry a ORDER BY a.id DESC');
  const counts = new Map<string, number>();
  rows.forEach((r) => { if (r.producer !== null) counts.set(r.producer, (counts.get(r.producer) ?? 0) + 1); });
  // Entries of several producers and of shared records: a leak would show.
  expect(counts.size).toBeGreaterThan(1);
  expect(rows.some((r) => r.producer === null)).toBe(true);
  const own = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  const statement = await compile('{ auditLog(first: 100) { totalCount edges { node { id } } } }', own);
  const open = withoutFilters(statement, own);
  const idsOf = (page: { edges: Array<{ node: { id: string } }> }) => page.edges.map((e) => e.node.id);

  const leaked = await run(admin, open);
  expect(leaked.totalCount).toBe(rows.length);
  // As the API runs it: the policy shows a PRODUCER its own entries (it may write shared ones, not read them).
  const visible = rows.filter((r) => r.producer === own).map((r) => r.id);
  const scoped = await run(producer(own), open);
  expect(scoped.totalCount).toBe(visible.length);
  expect(idsOf(scoped)).toEqual(visible.slice(0, 100));
  // With its filter, as the service scopes it: its own entries only.
  expect(idsOf(await run(producer(own), statement))).toEqual(rows.filter((r) => r.producer === own).map((r) => r.id).slice(0, 100));
});
