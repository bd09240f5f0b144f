import { Pool } from 'pg';
import { getArgumentValues, OperationDefinitionNode, parse } from 'graphql';
import { ReadCompiler } from '../../src/graphql/compiled/compiler';
import { runCompiled } from '../../src/graphql/compiled/run';
import { collectFields } from '../../src/graphql/compiled/selection';
import { getSchema } from '../../src/graphql/schema';
import { Actor } from '../../src/services/actor';
import { Role } from '../../src/law/types';
import { startTestApi, StatementCounter, TestApi } from '../support/api';
import { createTestDatabase, TestDatabase } from '../support/database';
import { newCpf, RECIFE } from '../support/fixtures';

/**
 * A compiled statement asked again is kept prepared on the connection that runs it (run.ts): the
 * answer stays the same, the text sent becomes an EXECUTE, and a connection keeps a bounded number.
 */

let api: TestApi;
let single: TestDatabase;
const counter = new StatementCounter();

beforeAll(async () => {
  api = await startTestApi();
  // One connection: every statement meets the same prepared ones.
  single = await createTestDatabase(1, counter);
  for (const db of [api.db.dataSource, single.dataSource]) {
    await db.query(`INSERT INTO municipality (ibge_code, name, state, region) VALUES ($1, 'Recife', 'PE', 'NORDESTE') ON CONFLICT DO NOTHING`, [RECIFE]);
    for (let i = 0; i < 3; i++) {
      await db.query(`INSERT INTO family_farmer (cpf, name, municipality_code) VALUES ($1, $2, $3)`, [newCpf(), `Agricultora "${i}" \\ ção`, RECIFE]);
    }
  }
}, 60_000);
afterAll(async () => {
  await api?.close();
  await single?.drop();
});

test('a read asked again answers the same bytes from its prepared statement', async () => {
  const query = '{ familyFarmers(first: 10) { totalCount edges { cursor node { id cpf name municipality { name } registrations { number } } } } }';
  const body = JSON.stringify({ query });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${await api.token()}` };
  const texts: string[] = [];
  const answers: string[] = [];
  for (let i = 0; i < 12; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    api.statements.reset();
    answers.push(await (await fetch(api.url, { method: 'POST', headers, body })).text());
    expect(api.statements.count).toBe(1);
    texts.push(api.statements.statements[0]);
  }
  expect(JSON.parse(answers[0]).data.familyFarmers.totalCount).toBe(3);
  expect(new Set(answers).size).toBe(1);
  // First as text, then prepared (on each connection it meets), then executed as prepared.
  expect(texts[0]).toMatch(/^SELECT /);
  expect(texts[1]).toMatch(/^PREPARE selo_read_[0-9a-f]{32} AS SELECT /);
  expect(texts.filter((t) => /^EXECUTE selo_read_[0-9a-f]{32}$/.test(t)).length).toBeGreaterThan(0);
  expect(new Set(texts.slice(1).map((t) => /selo_read_[0-9a-f]+/.exec(t)![0])).size).toBe(1);
});

async function statementFor(query: string) {
  const schema = await getSchema();
  const operation = parse(query).definitions[0] as OperationDefinitionNode;
  const queryType = schema.getQueryType()!;
  const [[, nodes]] = [...collectFields(schema, {}, {}, queryType, [operation.selectionSet])];
  const field = queryType.getFields()[nodes[0].name.value];
  const statement = new ReadCompiler(schema, single.dataSource).compile({
    field, nodes, fragments: {}, variables: {}, args: getArgumentValues(field, nodes[0], {}), actor: { sub: 'a', role: Role.ADMIN, producerId: null, requestId: 'prepared' },
  });
  if (!statement) throw new Error(`not compiled: ${query}`);
  return statement;
}

test('a connection keeps at most 32 prepared reads, the ones it used last', async () => {
  const pool = (single.dataSource.driver as unknown as { master: Pool }).master;
  const preparedNames = async () => (await pool.query(`SELECT name FROM pg_prepared_statements`)).rows.map((r) => r.name as string).sort();
  const names: string[] = [];
  for (let first = 1; first <= 40; first++) {
    const statement = await statementFor(`{ familyFarmers(first: ${first}) { edges { node { name } } } }`);
    const plain = (await single.dataSource.query(statement.sql))[0].data as string;
    counter.reset();
    // Text, then prepared, then executed: the same answer each time.
    for (let i = 0; i < 3; i++) expect(await runCompiled(single.dataSource, statement)).toBe(plain);
    expect(counter.statements[2]).toMatch(/^EXECUTE /);
    expect(JSON.parse(plain).edges).toHaveLength(Math.min(first, 3));
    names.push(/selo_read_[0-9a-f]+/.exec(counter.statements[2])![0]);
  }
  expect(new Set(names).size).toBe(40);
  expect(await preparedNames()).toEqual(names.slice(8).sort());
  // The oldest, dropped, is prepared again when it comes back (and another dropped for it).
  const oldest = await statementFor('{ familyFarmers(first: 1) { edges { node { name } } } }');
  counter.reset();
  await runCompiled(single.dataSource, oldest);
  expect(counter.statements[0]).toMatch(new RegExp(`^DEALLOCATE ${names[8]};\\nPREPARE ${names[0]} AS `));
  expect(await preparedNames()).toEqual([names[0], ...names.slice(9)].sort());
});

test('a read with computed fields, whose text is never the same, is never prepared', async () => {
  const statement = await statementFor('{ familyFarmers(first: 2) { edges { node { name eligibleOn(date: "2025-03-01") } } } }');
  expect(statement.holes.length).toBeGreaterThan(0);
  counter.reset();
  for (let i = 0; i < 3; i++) await runCompiled(single.dataSource, statement);
  expect(counter.statements.every((t) => t.startsWith('SELECT '))).toBe(true);
});

test('a root field compiled again from the same parsed document and variables is the statement made before; other variables, another producer or computed fields make their own', async () => {
  const schema = await getSchema();
  const compiler = new ReadCompiler(schema, single.dataSource);
  const document = parse('query($n: Int) { familyFarmers(first: $n) { edges { node { name } } } purchase(id: "1") { id } familyFarmer(id: "1") { name eligibleOn(date: "2025-03-01") } }');
  const queryType = schema.getQueryType()!;
  const roots = [...collectFields(schema, {}, {}, queryType, [(document.definitions[0] as OperationDefinitionNode).selectionSet])].map(([, nodes]) => nodes);
  const admin: Actor = { sub: 'a', role: Role.ADMIN, producerId: null, requestId: 'cache' };
  const compile = (nodes: typeof roots[number], variables: Record<string, unknown>, actor = admin) => {
    const field = queryType.getFields()[nodes[0].name.value];
    return compiler.compile({ field, nodes, fragments: {}, variables, args: getArgumentValues(field, nodes[0], variables), actor });
  };
  const [farmers, purchase, farmer] = roots;
  const five = compile(farmers, { n: 5 })!;
  expect(five.sql).toContain('LIMIT 6');
  expect(compile(farmers, { n: 5 })).toBe(five);
  const six = compile(farmers, { n: 6 })!;
  expect(six.sql).toContain('LIMIT 7');
  expect(compile(farmers, { n: 5 })).toBe(five);
  // A PRODUCER's statement is confined to its producer: never an ADMIN's.
  const asAdmin = compile(purchase, {})!;
  const asProducer = compile(purchase, {}, { sub: 'p', role: Role.PRODUCER, producerId: '7', requestId: 'cache' })!;
  expect(asAdmin.producerScope).toBeNull();
  expect(asProducer.producerScope).toBe('7');
  expect(asProducer.sql).toContain(`producer_id = '7'::bigint`);
  expect(compile(purchase, {})).toBe(asAdmin);
  // With a computed field, a new marker each time.
  const first = compile(farmer, {})!;
  const second = compile(farmer, {})!;
  expect(first.holes.length).toBe(1);
  expect(second.marker).not.toBe(first.marker);
  expect(second.sql).not.toBe(first.sql);
});
