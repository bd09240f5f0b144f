// `npm run schema`: write schema.graphql from the code (the committed copy is checked by a test).
import 'reflect-metadata';
import fs from 'node:fs';
import { printSchemaFile, SCHEMA_FILE } from '../src/graphql/schema';

printSchemaFile()
  .then((text) => {
    fs.writeFileSync(SCHEMA_FILE, text);
    process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
  })
  .catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
