// `npm run build`: src/ and the image's command-line tools to dist/, compiled by swc as the
// tests do. Other files under src/ (.mjs, .json) are copied beside the code, so the paths it reads
// relative to itself hold in dist/ too.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const TOOLS = ['seed', 'token', 'import', 'export'];

const OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: true,
};

const files = fs.readdirSync(SRC, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
fs.rmSync(DIST, { recursive: true, force: true });
await Promise.all(files.map(async (file) => {
  const relative = path.relative(SRC, file);
  // The browser the tests drive: the server never loads it, and its library is a development tool.
  if (relative.endsWith('.d.ts') || relative === 'chromium.ts') return;
  const target = path.join(DIST, relative.endsWith('.ts') ? relative.replace(/\.ts$/, '.js') : relative);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (!relative.endsWith('.ts')) {
    fs.copyFileSync(file, target);
    return;
  }
  const { code, map } = await transformFile(file, { ...OPTIONS, filename: file, sourceFileName: path.relative(path.dirname(target), file) });
  fs.writeFileSync(target, `${code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
  if (map) fs.writeFileSync(`${target}.map`, map);
}));
await Promise.all(TOOLS.map(async (name) => {
  const file = path.join(ROOT, 'scripts', `${name}.ts`);
  const target = path.join(DIST, 'scripts', `${name}.js`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const { code } = await transformFile(file, { ...OPTIONS, sourceMaps: false, filename: file });
  fs.writeFileSync(target, code.replaceAll('require("../src/', 'require("../'));
}));
process.stdout.write(`Built ${path.relative(process.cwd(), DIST) || DIST}/ from ${files.length} files\n`);
