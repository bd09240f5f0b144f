import { getNamedType, GraphQLID, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, isObjectType } from 'graphql';
import pino from 'pino';
import { Purchase } from '../../src/domain';
import { EntityClass, ROOT_KINDS, SQL_READ, sqlReadOf } from '../../src/graphql/compiled/annotations';
import { compiledReadsSchema } from '../../src/graphql/compiled/execution';
import { getSchema } from '../../src/graphql/schema';
import { hasOwnResolver } from '../../src/graphql/scalars';
import { createTestDatabase, TestDatabase } from '../support/database';

/**
 * The compiled reads' annotations (src/graphql/compiled/annotations.ts) are checked against
 * TypeORM's metadata once, when the compiled schema is made at start-up: a wrong one fails the start,
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
  expect(() => compiledReadsSchema(schema, db.dataSource, logger)).not.toThrow();
});

test('an annotation naming a property the entity lacks, or an argument the field lacks, fails when the compiled schema is made', () => {
  expect(() => compiledReadsSchema(schemaWith({ kind: 'records', entity: Purchase, arg: 'producerId', fk: 'producerId', order: ['purchasedOn', 'id'] }), db.dataSource, logger)).not.toThrow();
  expect(() => compiledReadsSchema(schemaWith({ kind: 'records', entity: Purchase, arg: 'producerId', fk: 'producerId', order: ['boughtOn'] }), db.dataSource, logger))
    .toThrow('compiled reads: Purchase has no property boughtOn');
  expect(() => compiledReadsSchema(schemaWith({ kind: 'records', entity: Purchase, arg: 'producer', fk: 'producerId', order: ['id'] }), db.dataSource, logger))
    .toThrow('compiled reads: Query.things has no argument producer');
});

/**
 * The fields of the types the compiled reads reach that lead to other objects and are computed
 * (by the law, from stored rows, on a date): answered by their resolvers for the whole page. Any
 * other field leading to objects must say by an annotation how its rows are read.
 */
const COMPUTED_OBJECTS = new Set([
  'Producer.taxPeriod', 'Producer.sealCompliance', 'Producer.sealStanding', 'Purchase.selo', 'Purchase.familyFarmingFindings',
  'Contract.conformity', 'FamilyFarmer.eligibility', 'FamilyFarmingOrganization.habilitation', 'RegimeElection.findings', 'LawParameterVersion.values',
  'RecordReturn.closedPeriod',
]);

test('every stored property and relation of the types the compiled reads reach is written by SQL, not left to a resolver', async () => {
  const schema = await getSchema();
  // From each root read to the types its annotations lead to, with the entity of their rows.
  const nodeOf = (type: GraphQLObjectType) => getNamedType((getNamedType(type.getFields().edges.type) as GraphQLObjectType).getFields().node.type) as GraphQLObjectType;
  const queue: Array<[GraphQLObjectType, EntityClass]> = [];
  const reach = (type: GraphQLObjectType, entity: EntityClass, connection: boolean) => queue.push([connection ? nodeOf(type) : type, entity]);
  const roots: string[] = [];
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    const read = sqlReadOf(field);
    if (!read || read.kind === 'value' || !ROOT_KINDS.has(read.kind)) continue;
    roots.push(field.name);
    reach(getNamedType(field.type) as GraphQLObjectType, read.entity, read.kind === 'list');
  }
  const seen = new Set<string>();
  const stored: string[] = [];
  const computed: string[] = [];
  const unannotated: string[] = [];
  while (queue.length) {
    const [type, entity] = queue.shift()!;
    if (seen.has(type.name)) continue;
    seen.add(type.name);
    const meta = db.dataSource.getMetadata(entity);
    for (const field of Object.values(type.getFields())) {
      const read = sqlReadOf(field);
      const target = getNamedType(field.type);
      if (read && read.kind !== 'value' && isObjectType(target)) reach(target, read.entity, read.kind === 'page');
      if (!read && isObjectType(target) && !COMPUTED_OBJECTS.has(`${type.name}.${field.name}`)) unannotated.push(`${type.name}.${field.name}`);
      if (read || field.args.length > 0 || !meta.findColumnWithPropertyName(field.name)) continue;
      (hasOwnResolver(field) ? computed : stored).push(`${type.name}.${field.name}`);
    }
  }
  // Every root read of stored rows; the computed roots (a month's taxes, the Selo's year, the law's answers) are not.
  expect(roots.sort()).toEqual([
    'auditLog', 'contract', 'familyFarmer', 'familyFarmers', 'lawParameterVersions', 'minimumPrices', 'municipality', 'organization',
    'organizations', 'producer', 'producers', 'purchase', 'regimeElections', 'sealGrant', 'sealGrants',
  ]);
  expect(seen).toEqual(new Set([
    'Producer', 'Purchase', 'Sale', 'Contract', 'BiodieselImport', 'FamilyFarmer', 'FamilyFarmingOrganization', 'FamilyFarmingRegistration',
    'MembershipDeclaration', 'Municipality', 'SemiaridMembership', 'SealGrant', 'SealEvent', 'RegimeElection', 'AuditEntry', 'MinimumPrice', 'LawParameterVersion',
    'RecordReturn',
  ]));
  expect(stored).toEqual(expect.arrayContaining(['BiodieselImport.volumeM3', 'Purchase.cost', 'Producer.establishments', 'AuditEntry.before', 'MembershipDeclaration.recordedAt']));
  expect(computed).toEqual([]);
  expect(unannotated).toEqual([]);
});
