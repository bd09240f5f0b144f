import fs from 'node:fs';
import type { Browser } from 'playwright-core';

/**
 * The one place that says which Chromium the project uses: the PDF export (src/export/pdf.ts),
 * the tests that drive a browser, and `npm test`'s set-up step (scripts/chromium.ts) all find it
 * here. It is Debian's `chromium` package, driven by playwright-core; never a browser download.
 */

/** Where Debian's `chromium` package installs the browser; CHROMIUM_PATH names another. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** The browser to use: CHROMIUM_PATH when set, else Debian's. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
}

/** Whether `file` is there and may be run. */
export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Headless, and nothing that reaches out on its own (updates, sync, telemetry). */
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

/** Start the browser (playwright-core is loaded only here, at the first launch). */
export function launchChromium(executablePath: string = chromiumPath()): Promise<Browser> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  return chromium.launch({ executablePath, args: ARGS });
}

/** What the machine offers for installing the browser. */
export interface Machine {
  /** Whether a file is there and may be run. */
  executable(file: string): boolean;
  /** Whether this process runs as root. */
  root: boolean;
  /** Whether `sudo` runs without asking for a password (`sudo -n true`). */
  sudo: boolean;
  /** Whether Debian's package tool is there. */
  aptGet: boolean;
}

/** One command to run, as its program and arguments. */
export type Command = readonly string[];

/**
 * What to do so the browser is there: nothing; install Debian's `chromium` (when this user may,
 * as root or through a `sudo` that asks nothing); or stop with one line saying what to install.
 * A CHROMIUM_PATH that names a missing file is never "fixed" by an install elsewhere.
 */
export type ChromiumSetup =
  | { readonly action: 'ready'; readonly path: string }
  | { readonly action: 'install'; readonly path: string; readonly commands: readonly Command[] }
  | { readonly action: 'stop'; readonly path: string; readonly line: string };

export function chromiumSetup(env: NodeJS.ProcessEnv, machine: Machine): ChromiumSetup {
  const path = chromiumPath(env);
  if (machine.executable(path)) return { action: 'ready', path };
  if (env.CHROMIUM_PATH) {
    return { action: 'stop', path, line: `CHROMIUM_PATH=${path} is not an executable file: point it to a Chromium binary, or unset it to use Debian's chromium package (${DEFAULT_CHROMIUM}).` };
  }
  if (machine.aptGet && (machine.root || machine.sudo)) {
    const as = machine.root ? [] : ['sudo'];
    return {
      action: 'install',
      path,
      commands: [
        [...as, 'apt-get', 'update'],
        [...as, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'chromium'],
      ],
    };
  }
  return { action: 'stop', path, line: missingLine(path) };
}

/** The line that says what to install (or where to point CHROMIUM_PATH). */
export function missingLine(path: string): string {
  return `The tests need Chromium, not found at ${path}: install Debian's chromium package (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.`;
}
