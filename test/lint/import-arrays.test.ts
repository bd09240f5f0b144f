import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The imports spread no array into a call (eslint.config.mjs): a ZIP of 128,700 NF-e items answered
 * 500 when their audit records were pushed with `audit.push(...records)`, each record an argument on
 * the stack. The rule is run by ESLint's own API on a small source, and on the import's files as they are.
 */
const ROOT = path.resolve(__dirname, '../..');

const LINT = `
const { ESLint } = require('eslint');
const [filePath, code] = JSON.parse(process.argv[1]);
const eslint = new ESLint({ cwd: process.cwd() });
(code === null ? eslint.lintFiles([filePath]) : eslint.lintText(code, { filePath })).then((results) => {
  process.stdout.write(JSON.stringify(results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => \`\${require('node:path').relative(process.cwd(), r.filePath)}:\${m.line}\`))));
});`;

function spreadCalls(filePath: string, code: string | null): string[] {
  return JSON.parse(execFileSync(process.execPath, ['-e', LINT, JSON.stringify([filePath, code])], { cwd: ROOT, encoding: 'utf8' })) as string[];
}

test('an array spread into push() or Math.max() under src/import fails the lint; a loop passes', () => {
  expect(spreadCalls('src/import/nfe/fixture.ts', 'export function f(a: number[], b: number[]) { a.push(...b); return Math.max(...a); }\n'))
    .toEqual(['src/import/nfe/fixture.ts:1', 'src/import/nfe/fixture.ts:1']);
  expect(spreadCalls('src/import/nfe/fixture.ts', 'export function f(a: number[], b: number[]) { for (const x of b) a.push(x); return a; }\n')).toEqual([]);
});

test('the import\'s own files spread no array into a call', () => {
  expect(spreadCalls('src/import/**/*.ts', null)).toEqual([]);
  expect(spreadCalls('scripts/import*.ts', null)).toEqual([]);
});
