import { Pool, PoolClient } from 'pg';
import { getNamedType, GraphQLObjectType, Kind, OperationDefinitionNode, parse } from 'graphql';
import { ReadCompiler } from '../../src/graphql/compiled/compiler';
import { runCompiled } from '../../src/graphql/compiled/run';
import { collectFields } from '../../src/graphql/compiled/selection';
import { getSchema } from '../../src/graphql/schema';
import { Role } from '../../src/law/types';
import { startTestApi, TestApi } from '../support/api';
import { BIG, buildPlan, FEW, seed, Seeded } from './compiled-reads.fixtures';

/**
 * Row-level security is the second wall of a PRODUCER's compiled reads (DESIGN §4): the statement
 * filters by producer, and it also runs as the database role selo_producer, so that a statement
 * that forgot its filter still sees only that producer's rows. Here the filters are removed from
 * compiled statements by hand, and the statements run as the API runs them.
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
    field, nodes, fragments: {}, variables: {}, args, actor: { sub: 'p', role: Role.PRODUCER, producerId, requestId: 'rls' },
  });
  if (!statement) throw new Error(`not compiled: ${query}`);
  return statement;
}

/** The statement with every producer filter taken out (the scope conditions the compiler adds). */
function withoutFilters(sql: string, producerId: string): string {
  const stripped = sql.replace(new RegExp(`(\\w+\\.(id|producer_id) = '${producerId}'::bigint)`, 'g'), 'true');
  expect(stripped).not.toBe(sql);
  return stripped;
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
  expect(statement.producerScope).toBe(own);
  const open = { ...statement, sql: withoutFilters(statement.sql, own) };

  // Without row-level security the filterless statement would show every producer: the filters
  // really were removed.
  const leaked = JSON.parse((await runCompiled(api.db.dataSource, { ...open, producerScope: null }))!);
  expect(leaked.totalCount).toBe(ids.producers.length);
  expect(producerIdsIn(leaked).length).toBeGreaterThan(1);

  // As the API runs it for the PRODUCER: its own producer only, and all of its rows.
  const scoped = JSON.parse((await runCompiled(api.db.dataSource, open))!);
  expect(scoped.totalCount).toBe(1);
  expect(producerIdsIn(scoped)).toEqual([own]);
  expect(scoped.edges[0].node.purchases.totalCount).toBe(137);
  // The same answer as the statement with its filters.
  expect(scoped).toEqual(JSON.parse((await runCompiled(api.db.dataSource, statement))!));
});

test('prepared for the PRODUCER as asked again, the filterless statement still sees only its own rows; the same text unscoped still sees all', async () => {
  const own = ids.producers[FEW];
  const statement = await compile('{ producers(first: 100) { totalCount edges { node { producerOf: id purchases(first: 100) { totalCount } } } } }', own);
  const open = { ...statement, sql: withoutFilters(statement.sql, own) };
  // Text, prepared, then executed from the prepared plan (run.ts), alternately scoped and not.
  for (let i = 0; i < 4; i++) {
    const scoped = JSON.parse((await runCompiled(api.db.dataSource, open))!);
    expect(scoped.totalCount).toBe(1);
    expect(producerIdsIn(scoped)).toEqual([own]);
    const leaked = JSON.parse((await runCompiled(api.db.dataSource, { ...open, producerScope: null }))!);
    expect(leaked.totalCount).toBe(ids.producers.length);
  }
});

test('a lookup of another producer\'s record without its filter finds nothing under row-level security', async () => {
  const own = ids.producers[FEW];
  const other = ids.purchases[0]; // the big producer's
  const statement = await compile(`{ purchase(id: "${other}") { id cost producer { producerOf: id } } }`, own);
  const open = { ...statement, sql: withoutFilters(statement.sql, own) };
  expect(JSON.parse((await runCompiled(api.db.dataSource, { ...open, producerScope: null }))!).producer.producerOf).toBe(ids.producers[BIG]);
  expect(await runCompiled(api.db.dataSource, open)).toBeNull();
});

test('row-level security lasts for the statement only: the pooled connection is itself again after it', async () => {
  const own = ids.producers[FEW];
  const statement = await compile('{ producers(first: 100) { totalCount } }', own);
  await runCompiled(api.db.dataSource, statement);
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
  const open = { ...statement, sql: withoutFilters(statement.sql, own) };
  const idsOf = (json: string | null) => (JSON.parse(json!) as { edges: Array<{ node: { id: string } }> }).edges.map((e) => e.node.id);

  const leaked = JSON.parse((await runCompiled(api.db.dataSource, { ...open, producerScope: null }))!);
  expect(leaked.totalCount).toBe(rows.length);
  // As the API runs it: the policy shows a PRODUCER its own entries (it may write shared ones, not read them).
  const visible = rows.filter((r) => r.producer === own).map((r) => r.id);
  const scoped = await runCompiled(api.db.dataSource, open);
  expect(JSON.parse(scoped!).totalCount).toBe(visible.length);
  expect(idsOf(scoped)).toEqual(visible.slice(0, 100));
  // With its filter, as the service scopes it: its own entries only.
  expect(idsOf(await runCompiled(api.db.dataSource, statement))).toEqual(rows.filter((r) => r.producer === own).map((r) => r.id).slice(0, 100));
});
