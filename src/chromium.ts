import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';

/** For the browser tests only: the server writes PDFs in-process. */

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export interface Machine {
  executable(file: string): boolean;
  pathDirs: readonly string[];
  playwrightChromium: string;
  /** Checked only when no browser is found. */
  internet(): Promise<boolean>;
  root: boolean;
  sudo: boolean;
  aptGet: boolean;
}

/** CHROMIUM_PATH when set, and only it. */
export function findChromium(env: NodeJS.ProcessEnv, machine: Pick<Machine, 'executable' | 'pathDirs' | 'playwrightChromium'>): string | null {
  if (env.CHROMIUM_PATH) return machine.executable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  const candidates = [DEFAULT_CHROMIUM, ...machine.pathDirs.flatMap((dir) => NAMES.map((n) => path.join(dir, n))), machine.playwrightChromium];
  return candidates.find((file) => machine.executable(file)) ?? null;
}

/** Its `install chromium` needs no root. */
function playwrightCli(): string {
  return path.join(path.dirname(require.resolve('playwright-core/package.json')), 'cli.js');
}

export function thisMachine(env: NodeJS.ProcessEnv = process.env, probe: { root?: boolean; sudo?: boolean; aptGet?: boolean } = {}): Machine {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  const host = env.PLAYWRIGHT_DOWNLOAD_HOST || 'https://cdn.playwright.dev';
  return {
    executable: isExecutable,
    pathDirs: (env.PATH ?? '').split(path.delimiter).filter(Boolean),
    playwrightChromium: chromium.executablePath(),
    // Any answer, even an error status, means the host is reachable; no answer in 3 s means it is not.
    internet: () => fetch(host, { method: 'HEAD', signal: AbortSignal.timeout(3000) }).then(() => true, () => false),
    root: probe.root ?? process.getuid?.() === 0,
    sudo: probe.sudo ?? false,
    aptGet: probe.aptGet ?? false,
  };
}

/** Else where it would be, so the launch says it is missing. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return findChromium(env, thisMachine(env)) ?? (env.CHROMIUM_PATH || DEFAULT_CHROMIUM);
}

/** Headless, and nothing that reaches out on its own (updates, sync, telemetry). */
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

/** playwright-core is loaded only here. */
export function launchChromium(executablePath: string = chromiumPath()): Promise<Browser> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  return chromium.launch({ executablePath, args: ARGS });
}

export type Command = readonly string[];

export interface Attempt {
  readonly by: 'playwright' | 'apt';
  readonly commands: readonly Command[];
  readonly path: string;
}

/** A missing CHROMIUM_PATH is never "fixed" elsewhere. */
export type ChromiumSetup =
  | { readonly action: 'ready'; readonly path: string }
  | { readonly action: 'install'; readonly attempts: readonly Attempt[] }
  | { readonly action: 'stop'; readonly line: string };

export async function chromiumSetup(env: NodeJS.ProcessEnv, machine: Machine): Promise<ChromiumSetup> {
  const found = findChromium(env, machine);
  if (found) return { action: 'ready', path: found };
  if (env.CHROMIUM_PATH) {
    return { action: 'stop', line: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file: point it to a Chromium binary, or unset it to use one found on this machine or installed for the tests.` };
  }
  const attempts: Attempt[] = [];
  if (await machine.internet()) {
    attempts.push({ by: 'playwright', commands: [[process.execPath, playwrightCli(), 'install', 'chromium']], path: machine.playwrightChromium });
  }
  if (machine.aptGet && (machine.root || machine.sudo)) {
    const as = machine.root ? [] : ['sudo'];
    attempts.push({
      by: 'apt',
      commands: [[...as, 'apt-get', 'update'], [...as, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'chromium']],
      path: DEFAULT_CHROMIUM,
    });
  }
  return attempts.length ? { action: 'install', attempts } : { action: 'stop', line: MISSING };
}

export const MISSING = 'The browser tests need Chromium, and none was found or could be installed here: run `npx playwright-core install chromium` where the internet is reachable, or install Debian\'s chromium package (sudo apt-get install chromium), or set CHROMIUM_PATH to a Chromium binary.';

/** A failing install (a refused download) falls through to the next. */
export async function prepareChromium(env: NodeJS.ProcessEnv, machine: Machine, run: (command: Command) => boolean, say: (line: string) => void): Promise<number> {
  const setup = await chromiumSetup(env, machine);
  if (setup.action === 'ready') return 0;
  if (setup.action === 'stop') {
    say(setup.line);
    return 1;
  }
  for (const attempt of setup.attempts) {
    say(attempt.by === 'playwright'
      ? 'Chromium not found: installing it for the browser tests with Playwright\'s installer (no root needed).'
      : `Chromium not found: installing Debian's chromium package for the browser tests${machine.root ? '' : ' (sudo)'}.`);
    for (const command of attempt.commands) if (!run(command)) break;
    if (machine.executable(attempt.path)) return 0;
  }
  say(MISSING);
  return 1;
}
