import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The layer rules of eslint.config.mjs, run by ESLint's own API on small sources placed where the
 * rules apply: src/graphql sends no SQL (neither pg nor src/database), src/config knows nothing of
 * src/http; the same imports elsewhere pass.
 */
const ROOT = path.resolve(__dirname, '../..');

/** ESLint's API in a process of its own (it loads eslint.config.mjs as an ES module, which jest's sandbox cannot). */
const LINT = `
const { ESLint } = require('eslint');
const [filePath, code] = JSON.parse(process.argv[1]);
new ESLint({ cwd: process.cwd() }).lintText(code, { filePath }).then(([r]) => {
  process.stdout.write(JSON.stringify(r.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message)));
});`;

async function restricted(filePath: string, code: string): Promise<string[]> {
  return JSON.parse(execFileSync(process.execPath, ['-e', LINT, JSON.stringify([filePath, code])], { cwd: ROOT, encoding: 'utf8' })) as string[];
}

test('a file under src/graphql that imports pg, a pg module or src/database fails the lint', async () => {
  expect(await restricted('src/graphql/compiled/fixture.ts', "import { Pool } from 'pg';\nexport const p = Pool;\n")).toEqual([expect.stringContaining('src/graphql sends no SQL')]);
  expect(await restricted('src/graphql/fixture.ts', "import type { PoolClient } from 'pg';\nexport type C = PoolClient;\n")).toHaveLength(1);
  expect(await restricted('src/graphql/producer/fixture.ts', "import { to } from 'pg-copy-streams';\nexport const t = to;\n")).toHaveLength(1);
  expect(await restricted('src/graphql/compiled/fixture.ts', "import { createDataSource } from '../../database/data-source';\nexport const d = createDataSource;\n"))
    .toEqual([expect.stringContaining('never src/database')]);
});

test('src/config importing src/http fails the lint', async () => {
  expect(await restricted('src/config.ts', "import { corsForOrigins } from './http/cors';\nexport const c = corsForOrigins;\n")).toEqual([expect.stringContaining('src/config does not import src/http')]);
});

test('the same imports where the layers allow them pass', async () => {
  expect(await restricted('src/services/fixture.ts', "import { Pool } from 'pg';\nimport { createDataSource } from '../database/data-source';\nexport const p = [Pool, createDataSource];\n")).toEqual([]);
  expect(await restricted('src/graphql/fixture.ts', "import { createServices } from '../services';\nexport const s = createServices;\n")).toEqual([]);
  expect(await restricted('src/server.ts', "import { corsForOrigins } from './http/cors';\nexport const c = corsForOrigins;\n")).toEqual([]);
});
