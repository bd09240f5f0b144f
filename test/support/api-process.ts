import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** The project root, where `npm start` runs. */
export const ROOT = path.resolve(__dirname, '../..');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP port free on 127.0.0.1 at the time of the call. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The API's process as `npm start` runs it (src/main.ts), its stdout and stderr collected in `out`. */
export interface ApiProcess {
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  readonly out: string;
  /** The exit code once the process has exited. */
  exited: Promise<number | null>;
}

/** Start the API as `npm start` does (or with `argv`, e.g. the build's `dist/main.js`), in `cwd` (the project root unless said). */
export function spawnApi(env: NodeJS.ProcessEnv, options: { detached?: boolean; cwd?: string; argv?: string[] } = {}): ApiProcess {
  const child = spawn(process.execPath, options.argv ?? ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: options.cwd ?? ROOT,
    env,
    ...(options.detached ? { detached: true } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => { out += String(c); });
  child.stderr!.on('data', (c) => { out += String(c); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, get out() { return out; }, exited };
}

/** "exit 0", or the exit code followed by what the process wrote: a failed shutdown then shows its cause. */
export async function exitOf(api: ApiProcess): Promise<string> {
  const code = await api.exited;
  return code === 0 ? 'exit 0' : `exit ${code}\n${api.out.slice(-4000)}`;
}

/** Wait until `text` appears in the process's output (checked every 100 ms, `tries` times); fails if the process exits first. */
export async function waitForStart(api: ApiProcess, text: string, tries: number): Promise<void> {
  for (let i = 0; !api.out.includes(text); i++) {
    if (api.child.exitCode !== null || i > tries) throw new Error(`the API did not start:\n${api.out}`);
    await sleep(100);
  }
}

/** Poll `GET /readyz` until it answers 200 (true), the process exits or `ms` pass (false). */
export async function waitForReady(api: ApiProcess, port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && api.child.exitCode === null) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return true;
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  return false;
}

/** Wait for the log line of a graceful shutdown (the README). */
export async function waitForShutdownLog(api: ApiProcess): Promise<void> {
  for (let i = 0; !api.out.includes('"msg":"shutting down'); i++) {
    if (i > 100) throw new Error(`no shutdown log line:\n${api.out}`);
    await sleep(50);
  }
}

/** The postgres processes serving the embedded cluster whose data folder holds `dataDir` (as `postgres -D …` runs). */
export function postgresPids(dataDir: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', `postgres -D ${dataDir}`], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** After a test of `npm start` on the embedded database: its API processes (each in a group of its own) and cluster killed. */
export function killLeftovers(apis: ApiProcess[], dataDir: string): void {
  for (const api of apis) {
    if (api.child.pid && api.child.exitCode === null) {
      try { process.kill(-api.child.pid, 'SIGKILL'); } catch { /* gone */ }
    }
  }
  for (const pid of postgresPids(dataDir)) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
}
