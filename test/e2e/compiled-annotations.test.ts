import { GraphQLID, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import pino from 'pino';
import { Purchase } from '../../src/domain';
import { SQL_READ } from '../../src/graphql/compiled/annotations';
import { compiledReadsGateway } from '../../src/graphql/compiled/executor';
import { getSchema } from '../../src/graphql/schema';
import { createTestDatabase, TestDatabase } from '../support/database';

/**
 * The compiled reads' annotations (src/graphql/compiled/annotations.ts) are checked against
 * TypeORM's metadata once, when the executor is made at start-up: a wrong one fails the start,
 * instead of making every request that reaches its field fall back to the resolver in silence.
 */
let db: TestDatabase;
beforeAll(async () => { db = await createTestDatabase(2); });
afterAll(async () => { await db.drop(); });

const logger = pino({ level: 'silent' });
const Thing = new GraphQLObjectType({ name: 'Thing', fields: { id: { type: GraphQLID } } });
const schemaWith = (read: Record<string, unknown>) => new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: { things: { type: new GraphQLList(new GraphQLNonNull(Thing)), args: { producerId: { type: GraphQLString } }, extensions: { [SQL_READ]: read } } },
  }),
});

test("the application's own annotations pass", async () => {
  const schema = await getSchema();
  expect(() => compiledReadsGateway(schema, db.dataSource, logger)).not.toThrow();
});

test('an annotation naming a property the entity lacks, or an argument the field lacks, fails when the executor is made', () => {
  expect(() => compiledReadsGateway(schemaWith({ kind: 'records', entity: Purchase, arg: 'producerId', fk: 'producerId', order: ['purchasedOn', 'id'] }), db.dataSource, logger)).not.toThrow();
  expect(() => compiledReadsGateway(schemaWith({ kind: 'records', entity: Purchase, arg: 'producerId', fk: 'producerId', order: ['boughtOn'] }), db.dataSource, logger))
    .toThrow('compiled reads: Purchase has no property boughtOn');
  expect(() => compiledReadsGateway(schemaWith({ kind: 'records', entity: Purchase, arg: 'producer', fk: 'producerId', order: ['id'] }), db.dataSource, logger))
    .toThrow('compiled reads: Query.things has no argument producer');
});
