// `npm run seed|token|import|export -- …`: runs scripts/<name>.ts through the register hook where the
// development tools are installed (`npm ci`), else its build in dist/scripts/ (`npm run build`):
// the image installs production dependencies only, and `docker compose exec api npm run token`
// works there as it does on a developer's machine.
const fs = require('node:fs');
const path = require('node:path');

const name = process.argv.splice(2, 1)[0];
const built = path.join(__dirname, '..', 'dist', 'scripts', `${name}.js`);
let hook = null;
try {
  hook = require.resolve('@swc-node/register');
} catch {
  // production dependencies only: the build is what there is.
}
if (hook) {
  require(hook);
  require(path.join(__dirname, `${name}.ts`));
} else if (fs.existsSync(built)) {
  require(built);
} else {
  process.stderr.write(`${built} is missing: run \`npm run build\` (or \`npm ci\` for the development tools).\n`);
  process.exitCode = 1;
}
