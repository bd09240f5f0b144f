// `pretest`: makes sure the browser the GraphiQL and CORS tests drive is there (src/chromium.ts).
import { spawnSync } from 'node:child_process';
import { prepareChromium, thisMachine } from '../src/chromium';

function runs(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

async function main(): Promise<number> {
  const machine = thisMachine(process.env, {
    sudo: process.getuid?.() !== 0 && runs('sudo', ['-n', 'true']),
    aptGet: runs('apt-get', ['--version']),
  });
  return prepareChromium(
    process.env,
    machine,
    ([command, ...args]) => spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] }).status === 0,
    (line) => process.stderr.write(`${line}\n`),
  );
}

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
