/**
 * `npm test`'s set-up step (`pretest`): makes sure the browser the tests drive is there (the one
 * src/chromium.ts names). Missing, it installs Debian's `chromium` package when this user may (as
 * root, or through a `sudo` that asks no password); otherwise it stops with one line saying what to
 * install. Nothing is downloaded from outside the system's package registry.
 */
import { spawnSync } from 'node:child_process';
import { chromiumSetup, isExecutable, missingLine } from '../src/chromium';

function runs(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

function main(): number {
  const setup = chromiumSetup(process.env, {
    executable: isExecutable,
    root: process.getuid?.() === 0,
    sudo: runs('sudo', ['-n', 'true']),
    aptGet: runs('apt-get', ['--version']),
  });
  if (setup.action === 'ready') return 0;
  if (setup.action === 'stop') {
    process.stderr.write(`${setup.line}\n`);
    return 1;
  }
  process.stderr.write(`Chromium is not at ${setup.path}: installing Debian's chromium package for the browser tests.\n`);
  for (const [command, ...args] of setup.commands) {
    if (spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] }).status !== 0) break;
  }
  if (isExecutable(setup.path)) return 0;
  process.stderr.write(`${missingLine(setup.path)}\n`);
  return 1;
}

process.exitCode = main();
