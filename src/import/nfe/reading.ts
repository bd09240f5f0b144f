import { BadInputError } from '../../services/errors';
import type { ReadTask, ReadUpload } from './worker';
import { WorkerThread } from '../../worker-thread';

/**
 * One worker thread inflates and parses the uploads' XML, one upload at a time, as the export files
 * are drawn (src/export/drawing.ts): a ZIP of 128 notes of 2 MiB held the event loop 45 s, every
 * other request waiting. The imports are already bounded in number (src/http/import-slots.ts), so
 * the queue is too.
 */
const reading = new WorkerThread<ReadTask, ReadUpload>(__dirname);

/** The notes of an upload (one XML or a ZIP of many), read off the event loop; the upload refused whole throws. */
export async function readNfeUpload(name: string, bytes: Buffer): Promise<ReadUpload> {
  const read = await reading.run({ name, bytes });
  if (read.refused) throw new BadInputError(read.refused.field, read.refused.text);
  return read;
}

/** Ends the worker once the uploads it was given are read (the server's shutdown); a later upload starts another. */
export function closeNfeReading(): Promise<void> {
  return reading.close();
}
