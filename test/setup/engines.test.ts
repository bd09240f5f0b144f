import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/**
 * The Node.js versions the project says it runs on (package.json `engines`, the README, the
 * Dockerfile's image) are ones every installed package accepts: a dependency that asks for a newer
 * Node is either reflected in `engines` or overridden with a version that does not.
 */

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const project = JSON.parse(read('package.json')) as { engines: { node: string } };
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };

/** Each package of the lock file with the Node versions it asks for (from node_modules when installed). */
function enginesOfDependencies(): Array<{ name: string; version: string; node: string }> {
  const found = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === '') continue;
    let engines = entry.engines;
    const installed = path.join(ROOT, where, 'package.json');
    if (fs.existsSync(installed)) engines = (JSON.parse(fs.readFileSync(installed, 'utf8')) as { engines?: typeof engines }).engines;
    // A few old packages wrote `engines` as an array of strings: npm ignores those.
    const node = engines && !Array.isArray(engines) ? engines.node : undefined;
    if (node) found.push({ name: where.replace(/^.*node_modules\//, ''), version: entry.version ?? '', node });
  }
  return found;
}

test('every dependency accepts every Node version package.json engines allows', () => {
  const range = project.engines.node;
  expect(semver.validRange(range)).not.toBeNull();
  const dependencies = enginesOfDependencies();
  expect(dependencies.length).toBeGreaterThan(100);
  const refusing = dependencies.filter((d) => !semver.subset(range, d.node));
  expect(refusing).toEqual([]);
});

test('the check would see a dependency that needs a newer Node', () => {
  expect(semver.subset(project.engines.node, '>=22.15.0')).toBe(false);
  expect(semver.subset(project.engines.node, '>=20.19')).toBe(true);
});

test('the README and the Docker image say the same versions', () => {
  expect(read('README.md')).toContain(`\`${project.engines.node}\``);
  const image = /^FROM node:(\d+)/m.exec(read('Dockerfile'))?.[1];
  expect(image).toBeDefined();
  expect(semver.intersects(`${image}.x`, project.engines.node)).toBe(true);
});
