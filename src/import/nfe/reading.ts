import path from 'node:path';
import { Piscina } from 'piscina';
import { BadInputError } from '../../services/errors';
import type { ReadTask, ReadUpload } from './worker';

let pool: Piscina<ReadTask, ReadUpload> | undefined;

/**
 * One worker thread inflates and parses the uploads' XML, one upload at a time, as the export files
 * are drawn (src/export/drawing.ts): a ZIP of 128 notes of 2 MiB held the event loop 45 s, every
 * other request waiting. The imports are already bounded in number (src/http/import-slots.ts), so
 * the queue is too. The worker ends after a minute idle and never holds the process open.
 */
function workers(): Piscina<ReadTask, ReadUpload> {
  const ext = path.extname(__filename);
  pool ??= new Piscina<ReadTask, ReadUpload>({
    filename: path.join(__dirname, `worker${ext}`),
    minThreads: 0, maxThreads: 1, idleTimeout: 60_000,
    execArgv: ext === '.ts' ? ['-r', require.resolve('@swc-node/register')] : [],
  });
  return pool;
}

/** The notes of an upload (one XML or a ZIP of many), read off the event loop; the upload refused whole throws. */
export async function readNfeUpload(name: string, bytes: Buffer): Promise<ReadUpload> {
  const read = await workers().run({ name, bytes });
  if (read.refused) throw new BadInputError(read.refused.field, read.refused.text);
  return read;
}

/** Ends the worker once the uploads it was given are read (the server's shutdown); a later upload starts another. */
export async function closeNfeReading(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}
