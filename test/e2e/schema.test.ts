import fs from 'node:fs';
import { printSchemaFile, SCHEMA_FILE } from '../../src/graphql/schema';

test('schema.graphql is the schema the code builds (run `npm run schema` after changing types)', async () => {
  expect(fs.readFileSync(SCHEMA_FILE, 'utf8')).toBe(await printSchemaFile());
});
