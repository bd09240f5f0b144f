import { execFile } from 'node:child_process';
import path from 'node:path';
import { chromiumSetup, DEFAULT_CHROMIUM, Machine } from '../../src/chromium';

/**
 * `npm test`'s set-up step (scripts/chromium.ts, the `pretest` script): the browser the tests and
 * the PDF export drive is found in one place (src/chromium.ts); missing, it is installed from
 * Debian's packages when the user may, else the step stops with one line saying what to install.
 * The decisions are checked on described machines: nothing here installs or removes a browser.
 */

const ROOT = path.resolve(__dirname, '../..');

/** Run the set-up step as `npm test` does, with `env` added. */
function pretest(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['-r', '@swc-node/register', 'scripts/chromium.ts'], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

const machine = (over: Partial<Machine>): Machine => ({ executable: () => false, root: false, sudo: false, aptGet: true, ...over });

describe('the pretest step, run', () => {
  test('CHROMIUM_PATH naming a missing file: stops with one line saying so, and installs nothing', async () => {
    const res = await pretest({ CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(`CHROMIUM_PATH=/nonexistent/chromium is not an executable file: point it to a Chromium binary, or unset it to use Debian's chromium package (${DEFAULT_CHROMIUM}).\n`);
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

describe('what the step decides', () => {
  test('the browser is there: nothing to do', () => {
    expect(chromiumSetup({}, machine({ executable: (f) => f === DEFAULT_CHROMIUM }))).toEqual({ action: 'ready', path: DEFAULT_CHROMIUM });
    expect(chromiumSetup({ CHROMIUM_PATH: '/opt/chromium/chrome' }, machine({ executable: (f) => f === '/opt/chromium/chrome' }))).toEqual({ action: 'ready', path: '/opt/chromium/chrome' });
  });

  test('missing, as root: apt-get update, then install Debian\'s chromium without questions', () => {
    expect(chromiumSetup({}, machine({ root: true }))).toEqual({
      action: 'install',
      path: DEFAULT_CHROMIUM,
      commands: [['apt-get', 'update'], ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'chromium']],
    });
  });

  test('missing, not root but with a sudo that asks no password: the same through sudo', () => {
    expect(chromiumSetup({}, machine({ sudo: true }))).toMatchObject({
      action: 'install',
      commands: [['sudo', 'apt-get', 'update'], ['sudo', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'chromium']],
    });
  });

  test('missing, and the user may not install (or there is no apt-get): one line saying what to install', () => {
    const line = `The tests need Chromium, not found at ${DEFAULT_CHROMIUM}: install Debian's chromium package (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.`;
    expect(chromiumSetup({}, machine({}))).toEqual({ action: 'stop', path: DEFAULT_CHROMIUM, line });
    expect(chromiumSetup({}, machine({ root: true, aptGet: false }))).toEqual({ action: 'stop', path: DEFAULT_CHROMIUM, line });
  });

  test('a CHROMIUM_PATH that is missing is not replaced by an install elsewhere, even as root', () => {
    expect(chromiumSetup({ CHROMIUM_PATH: '/opt/none' }, machine({ root: true }))).toMatchObject({ action: 'stop', line: expect.stringMatching(/^CHROMIUM_PATH=\/opt\/none is not an executable file/) });
  });
});
