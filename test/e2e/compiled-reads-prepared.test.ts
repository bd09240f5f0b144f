import { getArgumentValues, OperationDefinitionNode, parse } from 'graphql';
import { ReadCompiler } from '../../src/graphql/compiled/compiler';
import { collectFields } from '../../src/graphql/compiled/selection';
import { getSchema } from '../../src/graphql/schema';
import { Actor } from '../../src/services/actor';
import { CompiledReadService } from '../../src/services/compiled-read.service';
import { today } from '../../src/law/dates';
import { Role } from '../../src/law/types';
import { startTestApi, StatementCounter, TestApi } from '../support/api';
import { createTestDatabase, TestDatabase } from '../support/database';
import { newCpf, RECIFE } from '../support/fixtures';

/**
 * A compiled statement carries no value in its text: every value (ids, pages, cursors, dates, the
 * producer of a PRODUCER's scope) is a bound parameter, so a read asked again with other values is
 * the same text. The first texts a process runs are prepared by name through pg's `name` option,
 * a bounded number of them; the others are planned as they come.
 */

let api: TestApi;
let single: TestDatabase;
const counter = new StatementCounter();

beforeAll(async () => {
  api = await startTestApi();
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

test('a read asked again answers the same bytes in one statement, the same text each time', async () => {
  const query = '{ familyFarmers(first: 10) { totalCount edges { cursor node { id cpf name municipality { name } registrations { number } } } } }';
  const body = JSON.stringify({ query });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${await api.token()}` };
  const texts: string[] = [];
  const answers: string[] = [];
  for (let i = 0; i < 4; i++) {
    api.statements.reset();
    answers.push(await (await fetch(api.url, { method: 'POST', headers, body })).text());
    expect(api.statements.count).toBe(1);
    texts.push(api.statements.statements[0]);
  }
  expect(JSON.parse(answers[0]).data.familyFarmers.totalCount).toBe(3);
  expect(new Set(answers).size).toBe(1);
  expect(new Set(texts).size).toBe(1);
  expect(texts[0]).toMatch(/^SELECT /);
  expect(texts[0]).not.toMatch(/PREPARE|EXECUTE/);
});

async function statementFor(query: string) {
  const schema = await getSchema();
  const operation = parse(query).definitions[0] as OperationDefinitionNode;
  const queryType = schema.getQueryType()!;
  const [[, nodes]] = [...collectFields(schema, {}, {}, queryType, [operation.selectionSet])];
  const field = queryType.getFields()[nodes[0].name.value];
  const statement = new ReadCompiler(schema, single.dataSource).compile({
    field, nodes, fragments: {}, variables: {}, args: getArgumentValues(field, nodes[0], {}), actor: { sub: 'a', role: Role.ADMIN, producerId: null, requestId: 'prepared' }, today: today(),
  });
  if (!statement) throw new Error(`not compiled: ${query}`);
  return statement;
}

test('every value is a bound parameter: pages, ids and text keys, quotes included, never in the text', async () => {
  const texts = new Set<string>();
  for (let first = 1; first <= 5; first++) {
    const statement = await statementFor(`{ familyFarmers(first: ${first}) { edges { node { name } } } }`);
    texts.add(statement.sql);
    expect(statement.params).toContain(first);
    const data = (await single.dataSource.query(statement.sql, [...statement.params]))[0].data;
    // The connection's rows: as many as asked and one more when there is one (hasNextPage), of the three farmers.
    expect((data as unknown[][])[0]).toHaveLength(Math.min(first + 1, 3));
  }
  expect(texts.size).toBe(1);
  const odd = "26'11606";
  const lookup = await statementFor(`{ municipality(ibgeCode: ${JSON.stringify(odd)}) { name } }`);
  expect(lookup.params).toEqual([odd]);
  expect(lookup.sql).not.toContain(odd);
  expect(lookup.sql).not.toContain("'");
  expect((await single.dataSource.query(lookup.sql, [...lookup.params]))[0].data).toBeNull();
  const recife = await statementFor(`{ municipality(ibgeCode: "${RECIFE}") { name } }`);
  expect(recife.sql).toBe(lookup.sql);
  expect(recife.objects((await single.dataSource.query(recife.sql, [...recife.params]))[0].data)).toMatchObject({ name: 'Recife' });
});

test('a root field compiled again from the same parsed document and variables is the statement made before; other variables or another producer make their own', async () => {
  const schema = await getSchema();
  const compiler = new ReadCompiler(schema, single.dataSource);
  const document = parse('query($n: Int) { familyFarmers(first: $n) { edges { node { name } } } purchase(id: "1") { id } familyFarmer(id: "1") { name eligibleOn(date: "2025-03-01") } }');
  const queryType = schema.getQueryType()!;
  const roots = [...collectFields(schema, {}, {}, queryType, [(document.definitions[0] as OperationDefinitionNode).selectionSet])].map(([, nodes]) => nodes);
  const admin: Actor = { sub: 'a', role: Role.ADMIN, producerId: null, requestId: 'cache' };
  const compile = (nodes: typeof roots[number], variables: Record<string, unknown>, actor = admin) => {
    const field = queryType.getFields()[nodes[0].name.value];
    return compiler.compile({ field, nodes, fragments: {}, variables, args: getArgumentValues(field, nodes[0], variables), actor, today: today() });
  };
  const [farmers, purchase, farmer] = roots;
  const five = compile(farmers, { n: 5 })!;
  expect(five.params).toContain(5);
  expect(compile(farmers, { n: 5 })).toBe(five);
  const six = compile(farmers, { n: 6 })!;
  expect(six.params).toContain(6);
  expect(six.sql).toBe(five.sql);
  expect(compile(farmers, { n: 5 })).toBe(five);
  // A PRODUCER's statement is confined to its producer: never an ADMIN's.
  const asAdmin = compile(purchase, {})!;
  const asProducer = compile(purchase, {}, { sub: 'p', role: Role.PRODUCER, producerId: '7', requestId: 'cache' })!;
  expect(asAdmin.params).toEqual(['1']);
  expect(asProducer.params).toEqual(['1', '7']);
  expect(asProducer.sql).toMatch(/producer_id = \$2::bigint/);
  expect(compile(purchase, {})).toBe(asAdmin);
  // A computed field is its resolver's: the statement reads the whole row for it, and is kept too.
  const first = compile(farmer, {})!;
  expect(compile(farmer, {})).toBe(first);
  expect(first.sql).toContain('municipality_code::text');
});

test('the first texts are prepared once per connection under their own names, up to the bound; the rest are not', async () => {
  // `single` has one connection: what it prepared is what pg_prepared_statements shows.
  const reads = new CompiledReadService(single.dataSource, 2);
  const admin: Actor = { sub: 'a', role: Role.ADMIN, producerId: null, requestId: 'named' };
  const farmers = await statementFor('{ familyFarmers(first: 2) { edges { node { name } } } }');
  const counted = await statementFor('{ familyFarmers { totalCount } }');
  const named = await statementFor('{ municipality(ibgeCode: "2611606") { name } }');
  const unnamed = await statementFor('{ familyFarmers(first: 1) { totalCount edges { node { cpf } } } }');
  const prepared = async () => (await single.dataSource.query(`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'selo_read_%' ORDER BY name`)) as Array<{ name: string; statement: string }>;
  const before = await prepared();
  counter.reset();
  for (const s of [farmers, farmers, counted, named, unnamed, farmers, unnamed]) {
    expect(await reads.run(admin, s)).toEqual((await single.dataSource.query(s.sql, [...s.params]))[0].data);
  }
  // Each run is one statement the logger sees, named or not (beside the comparison's own).
  expect(counter.count).toBe(14);
  const after = await prepared();
  expect(after.filter((a) => !before.some((b) => b.name === a.name))).toEqual([
    { name: 'selo_read_1', statement: farmers.sql },
    { name: 'selo_read_2', statement: counted.sql },
  ]);
  const names = after.map((a) => a.statement);
  expect(names).not.toContain(named.sql);
  expect(names).not.toContain(unnamed.sql);
});

test('a named statement that fails is the same TypeORM error as an unnamed one, and the connection goes on', async () => {
  // The pool's two names given above stand: this service names the third text.
  const reads = new CompiledReadService(single.dataSource, 3);
  const admin: Actor = { sub: 'a', role: Role.ADMIN, producerId: null, requestId: 'named-error' };
  const failing = { sql: 'SELECT json_build_array(1 / $1::integer) AS data', params: [0] };
  await expect(reads.run(admin, failing)).rejects.toMatchObject({ name: 'QueryFailedError', driverError: { code: '22012' } });
  await expect(reads.run(admin, { ...failing, params: [1] })).resolves.toEqual([1]);
  expect(await single.dataSource.query(`SELECT statement FROM pg_prepared_statements WHERE name = 'selo_read_3'`)).toEqual([{ statement: failing.sql }]);
});

test('a value the text never names is never bound: connections asked for no rows and no count run as one statement', async () => {
  for (const query of [
    '{ producers(first: 1) { edges { node { id purchases(first: 2, from: "2025-01-01", to: "2025-12-31") { __typename pageInfo { hasPreviousPage } } } } } }',
    '{ auditLog(first: 2, entity: "Purchase") { __typename pageInfo { hasPreviousPage } } }',
    '{ producers(first: 1) { edges { node { purchases(first: 2, from: "2025-01-01") { totalCount pageInfo { hasNextPage } } } } } }',
  ]) {
    const statement = await statementFor(query);
    statement.params.forEach((_, i) => expect(statement.sql).toMatch(new RegExp(`\\$${i + 1}(?!\\d)`)));
    await expect(single.dataSource.query(statement.sql, [...statement.params])).resolves.toHaveLength(1);
  }
});
