import { execFile } from 'node:child_process';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromiumSetup, Command, DEFAULT_CHROMIUM, findChromium, Machine, MISSING, prepareChromium, thisMachine } from '../../src/chromium';
import { freePort } from '../support/api-process';

/**
 * `npm test`'s set-up step (scripts/chromium.ts, the `pretest` script) on a fresh machine: a
 * browser found is used; else Playwright's own installer where its download host answers (no
 * root); else Debian's package as root or through a password-less sudo; else one line saying what
 * to install. Each path runs here on a described machine whose commands are recorded, not run:
 * nothing here installs or removes a browser.
 */

const ROOT = path.resolve(__dirname, '../..');
const PLAYWRIGHT = '/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';

/** Run the set-up step as `npm test` does, with `env` added. */
function pretest(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['-r', '@swc-node/register', 'scripts/chromium.ts'], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/**
 * A machine with the files `present` runnable; `installs` maps a command (joined by spaces) to the
 * file it puts there when it succeeds (a command not listed fails, as a refused download does).
 */
function fakeMachine(over: Partial<Omit<Machine, 'internet'>> & { internet?: boolean; present?: string[]; installs?: Record<string, string> } = {}) {
  const files = new Set(over.present ?? []);
  const ran: string[] = [];
  const said: string[] = [];
  let probed = 0;
  const { internet, present: _present, installs: _installs, ...rest } = over;
  const machine: Machine = {
    executable: (f) => files.has(f), pathDirs: ['/usr/local/bin', '/usr/bin'], playwrightChromium: PLAYWRIGHT, root: false, sudo: false, aptGet: true, ...rest,
    internet: async () => { probed++; return internet ?? false; },
  };
  const run = (command: Command) => {
    const line = command.join(' ');
    ran.push(line);
    const file = over.installs?.[line];
    if (file) files.add(file);
    return file !== undefined || line.endsWith('apt-get update');
  };
  return { machine, ran, said, probes: () => probed, prepare: (env: NodeJS.ProcessEnv = {}) => prepareChromium(env, machine, run, (l) => said.push(l)) };
}

const INSTALLER = `${process.execPath} ${path.join(ROOT, 'node_modules/playwright-core/cli.js')} install chromium`;
const APT = ['apt-get update', 'env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium'];

describe('found: a browser already on the machine is used, and nothing is installed or probed', () => {
  test.each([
    ['Debian\'s package', DEFAULT_CHROMIUM],
    ['a Chromium on PATH', '/usr/local/bin/chromium-browser'],
    ['Google Chrome on PATH', '/usr/bin/google-chrome-stable'],
    ['the one Playwright installed earlier', PLAYWRIGHT],
  ])('%s', async (_, file) => {
    const m = fakeMachine({ present: [file], internet: true, root: true });
    expect(await m.prepare()).toBe(0);
    expect([m.ran, m.said, m.probes()]).toEqual([[], [], 0]);
    expect(findChromium({}, m.machine)).toBe(file);
  });

  test('CHROMIUM_PATH, when set, is the only one looked at', async () => {
    const m = fakeMachine({ present: ['/opt/chromium/chrome', DEFAULT_CHROMIUM] });
    expect(await chromiumSetup({ CHROMIUM_PATH: '/opt/chromium/chrome' }, m.machine)).toEqual({ action: 'ready', path: '/opt/chromium/chrome' });
    expect(findChromium({ CHROMIUM_PATH: '/opt/none' }, m.machine)).toBeNull();
  });
});

describe('the Playwright installer, where its download host answers', () => {
  test('not root, no sudo: Playwright\'s own installer, then its browser is the one', async () => {
    const m = fakeMachine({ internet: true, installs: { [INSTALLER]: PLAYWRIGHT } });
    expect(await m.prepare()).toBe(0);
    expect(m.ran).toEqual([INSTALLER]);
    expect(m.said).toEqual(['Chromium not found: installing it for the browser tests with Playwright\'s installer (no root needed).']);
    expect(findChromium({}, m.machine)).toBe(PLAYWRIGHT);
  });

  test('a download that fails falls through to Debian\'s package as root', async () => {
    const m = fakeMachine({ internet: true, root: true, installs: { [APT[1]]: DEFAULT_CHROMIUM } });
    expect(await m.prepare()).toBe(0);
    expect(m.ran).toEqual([INSTALLER, ...APT]);
  });
});

describe('apt: Debian\'s package when this user may install it', () => {
  test('no download host (as on a machine that reaches only package registries), as root: apt-get at once, the installer never started', async () => {
    const m = fakeMachine({ internet: false, root: true, installs: { [APT[1]]: DEFAULT_CHROMIUM } });
    expect(await m.prepare()).toBe(0);
    expect([m.ran, m.probes()]).toEqual([APT, 1]);
    expect(m.said).toEqual(['Chromium not found: installing Debian\'s chromium package for the browser tests.']);
  });

  test('not root but with a sudo that asks no password: the same through sudo', async () => {
    const m = fakeMachine({ sudo: true, installs: { [`sudo ${APT[1]}`]: DEFAULT_CHROMIUM } });
    expect(await m.prepare()).toBe(0);
    expect(m.ran).toEqual(APT.map((c) => `sudo ${c}`));
  });
});

describe('none: one line saying what to install', () => {
  test('no download host, not root, no sudo: nothing is run', async () => {
    const m = fakeMachine({});
    expect(await m.prepare()).toBe(1);
    expect([m.ran, m.said]).toEqual([[], [MISSING]]);
    expect(await chromiumSetup({}, fakeMachine({ root: true, aptGet: false }).machine)).toEqual({ action: 'stop', line: MISSING });
  });

  test('every install tried and failed: the same line after them', async () => {
    const m = fakeMachine({ internet: true, root: true });
    expect(await m.prepare()).toBe(1);
    expect(m.ran).toEqual([INSTALLER, ...APT]);
    expect(m.said[m.said.length - 1]).toBe(MISSING);
  });

  test('a CHROMIUM_PATH that is missing is not replaced by an install elsewhere, even as root with the internet', async () => {
    const m = fakeMachine({ internet: true, root: true, present: [DEFAULT_CHROMIUM] });
    expect(await m.prepare({ CHROMIUM_PATH: '/opt/none' })).toBe(1);
    expect(m.ran).toEqual([]);
    expect(m.said).toEqual([expect.stringMatching(/^CHROMIUM_PATH=\/opt\/none is not an executable file/)]);
  });
});

describe('this machine', () => {
  test('the download host counts as reachable when it answers anything, and not when nothing listens', async () => {
    const server = http.createServer((_, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const up = thisMachine({ PLAYWRIGHT_DOWNLOAD_HOST: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      expect(await up.internet()).toBe(true);
    } finally {
      server.close();
    }
    expect(await thisMachine({ PLAYWRIGHT_DOWNLOAD_HOST: `http://127.0.0.1:${await freePort()}` }).internet()).toBe(false);
  });

  test('PATH is read into folders; Playwright\'s browser is looked for in its own cache', () => {
    const m = thisMachine({ PATH: ['/a/bin', '', '/b/bin'].join(path.delimiter) });
    expect(m.pathDirs).toEqual(['/a/bin', '/b/bin']);
    expect(m.playwrightChromium).toMatch(/chromium-\d+\//);
  });
});

describe('the pretest step, run', () => {
  test('CHROMIUM_PATH naming a missing file: stops with one line saying so, and installs nothing', async () => {
    const res = await pretest({ CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('CHROMIUM_PATH=/nonexistent/chromium is not an executable file: point it to a Chromium binary, or unset it to use one found on this machine or installed for the tests.\n');
  });

  test('CHROMIUM_PATH naming a file that cannot be run: the same one line', async () => {
    const res = await pretest({ CHROMIUM_PATH: path.join(ROOT, 'package.json') });
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n')).toEqual([expect.stringContaining('is not an executable file'), '']);
  });

  test('CHROMIUM_PATH naming a program that is there: passes silently', async () => {
    expect(await pretest({ CHROMIUM_PATH: process.execPath })).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
