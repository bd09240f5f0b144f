import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { jwtVerify } from 'jose';
import { signToken } from '../../src/graphql/auth/token';
import { Role } from '../../src/law/types';
import { TEST_SECRET } from '../support/api';
import { ApiProcess, exitOf, freePort, killLeftovers, ROOT, spawnApi, waitForReady } from '../support/api-process';

/**
 * The production build (`npm run build` → dist/, `npm run start:prod`, the image's CMD): dist/
 * starts with NODE_ENV=production on the embedded database and answers /readyz and GraphQL with
 * the law read from the parameter files copied beside it; its schema is schema.graphql; what it
 * loads is in the production dependencies, which the Dockerfile's runtime stage installs alone.
 * (No Docker engine is needed: the Dockerfile is read, and npm says what its install would hold.)
 */

const DIST = path.join(ROOT, 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
const children: ApiProcess[] = [];
let dataParent: string;

beforeAll(() => {
  execFileSync(process.execPath, [pkg.scripts.build.replace(/^node /, '')], { cwd: ROOT, stdio: 'pipe' });
  dataParent = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-api-dist-'));
  fs.chmodSync(dataParent, 0o755);
});
afterAll(() => {
  killLeftovers(children, path.join(dataParent, 'pg'));
  fs.rmSync(dataParent, { recursive: true, force: true });
});

/** Every package a built file loads (CommonJS require, ES import), by package name. */
function packagesLoaded(): Map<string, string[]> {
  const loaded = new Map<string, string[]>();
  for (const file of fs.readdirSync(DIST, { recursive: true }) as string[]) {
    if (!/\.(c|m)?js$/.test(file)) continue;
    const text = fs.readFileSync(path.join(DIST, file), 'utf8');
    const specifiers = [...text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g), ...text.matchAll(/^\s*import\s[^;]*?\bfrom\s+["']([^"']+)["']/gm), ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    for (const s of specifiers) {
      if (s.startsWith('.') || s.startsWith('node:') || builtinModules.includes(s.split('/')[0])) continue;
      const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0];
      loaded.set(name, [...(loaded.get(name) ?? []), file]);
    }
  }
  return loaded;
}

interface Locked { dev?: boolean; devOptional?: boolean }
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> };

/** The runtime stage of the Dockerfile, its instructions one a line. */
function runtimeStage(): string[] {
  const lines = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  const stages = lines.reduce<string[][]>((acc, line) => (line.startsWith('FROM ') ? [...acc, [line]] : (acc[acc.length - 1].push(line), acc)), []);
  return stages[stages.length - 1];
}

/**
 * What the runtime stage's install leaves in node_modules, by package name: `npm ci --omit=dev`
 * installs every package of the lock file not marked `dev` (a `devOptional` one stays, unless
 * optional packages are omitted too), less what the stage then removes.
 */
function runtimeInstall(): Map<string, Locked> {
  const removed = runtimeStage().flatMap((l) => [...l.matchAll(/node_modules\/((?:@[^/\s]+\/)?[^/\s]+)/g)].map((m) => m[1]));
  const installed = new Map<string, Locked>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where || entry.dev) continue;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (where === `node_modules/${name}` && removed.includes(name)) continue;
    installed.set(name, entry);
  }
  return installed;
}

test('the build: the code, the embedded database module and the law\'s parameter files in dist/; no TypeScript', () => {
  expect(fs.existsSync(path.join(DIST, 'main.js'))).toBe(true);
  expect(fs.existsSync(path.join(DIST, 'database/embedded.mjs'))).toBe(true);
  const shipped = (fs.readdirSync(path.join(ROOT, 'src/law/parameters'), { recursive: true }) as string[]).filter((f) => f.endsWith('.json')).sort();
  expect(shipped.length).toBeGreaterThan(10);
  expect((fs.readdirSync(path.join(DIST, 'law/parameters'), { recursive: true }) as string[]).filter((f) => f.endsWith('.json')).sort()).toEqual(shipped);
  expect((fs.readdirSync(DIST, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'))).toEqual([]);
  expect(pkg.scripts['start:prod']).toMatch(/^NODE_ENV=production node .*dist\/main\.js$/);
});

test('the compiled schema is schema.graphql', () => {
  const script = "require('reflect-metadata'); require('./dist/graphql/schema.js').printSchemaFile().then((t) => process.stdout.write(t))";
  const printed = execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20 });
  expect(printed).toBe(fs.readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));
});

test('node dist/main.js with NODE_ENV=production, on the embedded database: ready, the shipped law, GraphQL, the GraphiQL files, a PDF, no stack traces; SIGTERM exits 0', async () => {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', PORT: String(port), SELO_DATA_DIR: path.join(dataParent, 'pg'), JWT_SECRET: TEST_SECRET, LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'HOST', 'JEST_WORKER_ID']) delete env[name];
  const api = spawnApi(env, { detached: true, argv: ['--max-semi-space-size=32', 'dist/main.js'] });
  children.push(api);
  expect(await waitForReady(api, port, 120_000)).toBe(true);
  expect(api.out).toContain('embedded PostgreSQL started');

  const token = await signToken(TEST_SECRET, { sub: 'dist-test', role: Role.AUDITOR });
  const post = async (query: string) => (await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query }),
  })).json() as Promise<{ data?: Record<string, any>; errors?: Array<{ extensions: Record<string, unknown> }> }>;
  // The per-m³ amounts of Decreto 10.527/2020 arts. 5º §1º and 6º §1º, read from dist/law/parameters.
  const { data } = await post('{ coefficientRules(on: "2026-03-01") { category pisPerM3 cofinsPerM3 } }');
  expect(Object.fromEntries(data!.coefficientRules.map((r: { category: string; pisPerM3: string; cofinsPerM3: string }) => [r.category, [r.pisPerM3, r.cofinsPerM3]]))).toMatchObject({
    GENERAL: ['26.41', '121.59'], CASTOR_PALM_PRIORITY_REGION: ['22.48', '103.51'],
  });
  // The demo data the embedded default loads, through the compiled services.
  const producers = (await post('{ producers(first: 1) { totalCount edges { node { id } } } }')).data!.producers;
  expect(producers.totalCount).toBeGreaterThan(0);
  // The assets read at run time from the production dependencies: GraphiQL's page and files, the PDF's fonts.
  const page = await (await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: 'text/html' } })).text();
  const assets = [...page.matchAll(/(?:src|href)="(\/graphiql-assets\/[^"]+)"/g)].map((m) => m[1]);
  expect(assets.length).toBeGreaterThan(1);
  for (const asset of assets) expect([asset, (await fetch(`http://127.0.0.1:${port}${asset}`)).status]).toEqual([asset, 200]);
  const pdf = await fetch(`http://127.0.0.1:${port}/export/seal-compliance?producer=${producers.edges[0].node.id}&year=2026&format=pdf`, { headers: { authorization: `Bearer ${token}` } });
  expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
  expect(Buffer.from(await pdf.arrayBuffer()).toString('latin1')).toMatch(/\/FontName \/[A-Z]{6}\+DejaVuSans/);
  const bad = await post('{ taxPeriod(producerId: "1", year: 2026, month: 13) { totalDue } }');
  expect(bad.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  expect(bad.errors![0].extensions.stacktrace).toBeUndefined();

  api.child.kill('SIGTERM');
  expect(await exitOf(api)).toBe('exit 0');
});

test('the command-line tools run from the build, with no compiler: a token signed by dist/scripts/token.js verifies', async () => {
  const out = execFileSync(process.execPath, ['dist/scripts/token.js', '--role', 'ADMIN'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, JWT_SECRET: TEST_SECRET } });
  const jwt = out.trim().split(/\s+/).pop()!;
  const { payload } = await jwtVerify(jwt, new TextEncoder().encode(TEST_SECRET));
  expect(payload.role).toBe('ADMIN');
});

test('npm run token where the register hook is not installed (the image): scripts/run.cjs runs the build', async () => {
  // The image's layout: scripts/run.cjs beside dist/, and no @swc-node/register to be found from there.
  const image = path.join(dataParent, 'image');
  fs.mkdirSync(path.join(image, 'scripts'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'scripts/run.cjs'), path.join(image, 'scripts/run.cjs'));
  fs.symlinkSync(DIST, path.join(image, 'dist'));
  expect(pkg.scripts.token).toBe('node scripts/run.cjs token');
  const out = execFileSync(process.execPath, ['scripts/run.cjs', 'token', '--role', 'AUDITOR'], { cwd: image, encoding: 'utf8', env: { ...process.env, JWT_SECRET: TEST_SECRET } });
  const { payload } = await jwtVerify(out.trim().split(/\s+/).pop()!, new TextEncoder().encode(TEST_SECRET));
  expect(payload.role).toBe('AUDITOR');
});

test('the Dockerfile: a build stage, then a runtime stage with production dependencies only, non-root, NODE_ENV=production, node dist/main.js', () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  const build = dockerfile.slice(0, dockerfile.findIndex((l, i) => i > 0 && l.startsWith('FROM ')));
  const runtime = runtimeStage();
  expect(build[0]).toMatch(/^FROM node:20-\S+ AS build$/);
  expect(build).toEqual(expect.arrayContaining(['RUN npm ci --no-audit --no-fund', 'RUN npm run build']));
  expect(runtime).toEqual(expect.arrayContaining([
    expect.stringMatching(/^RUN npm ci --omit=dev\b/), 'COPY --from=build /app/dist ./dist', 'USER node', expect.stringMatching(/^ENV .*\bNODE_ENV=production\b/),
    'CMD ["node", "--max-semi-space-size=32", "dist/main.js"]',
  ]));
  // Nothing to compile in the runtime stage: no sources, no compiler, no install of development dependencies.
  expect(runtime.filter((l) => /COPY (src|tsconfig)|npm run build|npm (ci|install)(?!.*--omit=dev)|register/.test(l))).toEqual([]);
});

test('what the runtime stage installs holds every package dist/ loads, and of the devDependencies only those a production package itself depends on', () => {
  const installed = runtimeInstall();
  const devPresent = Object.keys(pkg.devDependencies).filter((d) => installed.has(d));
  // Each one there is a dependency of a production package (the lock file marks it neither dev nor devOptional).
  expect(devPresent.filter((d) => installed.get(d)!.devOptional)).toEqual([]);
  for (const tool of ['@swc/core', '@swc-node/register', '@swc/jest', 'typescript', 'jest', 'eslint', 'playwright-core', 'unpdf', 'fast-check', 'autocannon']) {
    expect([tool, installed.has(tool)]).toEqual([tool, false]);
  }
  expect([...packagesLoaded()].filter(([name]) => !installed.has(name))).toEqual([]);
  for (const name of Object.keys(pkg.dependencies)) expect([name, installed.has(name)]).toEqual([name, true]);
});
