import { loadDemoData } from '../../src/database/demo-data';
import { rowMapperOf } from '../../src/services/raw-rows';
import { startTestApi, TestApi } from '../support/api';

/**
 * A compiled statement gives its rows' columns as their texts (`column::text` in a JSON array) and
 * the objects are read back column by column (RowMapper.reader): for every entity the mapper
 * takes, the rows so read are the rows its loaders map from pg's own results — numerics, dates,
 * timestamps, booleans, JSON, nulls, and text with quotes, backslashes, accents and characters
 * outside the BMP.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await loadDemoData(api.db.dataSource);
  await api.db.dataSource.query(`UPDATE producer SET legal_name = legal_name || ' "aspas" \\ barra, ação 🌱' WHERE id = (SELECT min(id) FROM producer)`);
}, 60_000);
afterAll(async () => {
  await api?.close();
});

test('every mapped entity: the rows from their texts are the rows from pg', async () => {
  const ds = api.db.dataSource;
  const compared: string[] = [];
  for (const meta of ds.entityMetadatas) {
    let mapper;
    try {
      mapper = rowMapperOf(meta);
    } catch {
      continue; // an entity the mapper does not take (TypeORM hydrates it)
    }
    const order = meta.primaryColumns.map((c) => `q.${c.databaseName}`).join(', ');
    const texts = `json_build_array(${meta.columns.map((c) => `q.${c.databaseName}::text`).join(', ')})`;
    const rows: Array<Record<string, unknown>> = await ds.query(`SELECT ${mapper.columns('q')}, ${texts} AS texts FROM ${meta.tableName} q ORDER BY ${order} LIMIT 300`);
    if (rows.length === 0) continue;
    const readers = meta.columns.map((c) => [c.propertyName, mapper.reader(c.propertyName)] as const);
    for (const row of rows) {
      const read: Record<string, unknown> = Object.create(Object.getPrototypeOf(mapper.map(row)));
      (row.texts as Array<string | null>).forEach((text, i) => { read[readers[i][0]] = text === null ? null : readers[i][1](text); });
      expect([meta.name, read]).toEqual([meta.name, mapper.map(row)]);
    }
    compared.push(meta.name);
  }
  expect(compared).toEqual(expect.arrayContaining(['Producer', 'Purchase', 'Contract', 'FamilyFarmingOrganization', 'AuditEntry', 'LawParameterVersion']));
});
