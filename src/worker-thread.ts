import path from 'node:path';
import { Piscina } from 'piscina';

/**
 * One worker thread, started when first given work, running `worker.ts` (or `.js` once built) of
 * `dir`: the API's event loop goes on answering while it works, and the memory of a long task is
 * the worker's. It ends after a minute idle and never holds the process open; under ts sources it
 * registers the compiler the server runs with.
 */
export class WorkerThread<Task, Result> {
  private pool?: Piscina<Task, Result>;

  constructor(private readonly dir: string) {}

  get queueSize(): number {
    return this.pool?.queueSize ?? 0;
  }

  run(task: Task): Promise<Result> {
    const ext = path.extname(__filename);
    this.pool ??= new Piscina<Task, Result>({
      filename: path.join(this.dir, `worker${ext}`),
      minThreads: 0, maxThreads: 1, idleTimeout: 60_000,
      execArgv: ext === '.ts' ? ['-r', require.resolve('@swc-node/register')] : [],
    });
    return this.pool.run(task);
  }

  /** Ends the worker once the tasks it was given are done (the server's shutdown); a later task starts another. */
  async close(): Promise<void> {
    const p = this.pool;
    this.pool = undefined;
    await p?.close();
  }
}
