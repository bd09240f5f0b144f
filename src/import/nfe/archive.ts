import { Unzip, UnzipFile, UnzipInflate } from 'fflate';
import { message } from '../../i18n';
import { BadInputError } from '../../services/errors';

/** One XML file of an upload: its name (in the ZIP, or the upload's) and its bytes. */
export interface XmlFile { name: string; bytes: Buffer }

/**
 * The caps of an NF-e upload. An authorized NF-e's XML is some kilobytes (a few hundred items at
 * most); a ZIP is read entry by entry and each one's inflated bytes are counted as they come, so a
 * ZIP bomb (a small file inflating to gigabytes, or declaring false sizes) stops at the cap.
 * `items` counts the items (det) read in all the upload's files: every one becomes a record, written
 * in one transaction through the mutations' checks. 128,700 (130 notes of 990) took 157 s and
 * 1.7 GB; 10,000 take a few seconds (docs/PERFORMANCE.md). The reading stops at the cap.
 */
export const NFE_LIMITS = { xmlBytes: 2 * 1024 * 1024, files: 5_000, totalBytes: 256 * 1024 * 1024, items: 10_000 };
export type NfeLimits = typeof NFE_LIMITS;

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * Each XML file of an upload handed to `read` as soon as it is inflated, so that it can be read and
 * let go of: an upload's files are never all held at once (up to 256 MiB inflated). Returns how many.
 */
export function eachXmlFile(name: string, bytes: Buffer, read: (file: XmlFile) => void, limits: NfeLimits = NFE_LIMITS): number {
  if (!bytes.subarray(0, 4).equals(ZIP_MAGIC)) {
    if (bytes.length > limits.xmlBytes) throw tooLarge(name, limits.xmlBytes);
    read({ name, bytes });
    return 1;
  }
  let count = 0;
  let total = 0;
  let failure: unknown = null;
  const unzip = new Unzip((file: UnzipFile) => {
    if (failure || !/\.xml$/i.test(file.name)) return;
    if (count >= limits.files) { failure = new BadInputError('file', message('nfe.zipTooMany', { max: limits.files })); return; }
    // The declared size is only a hint (it can lie); the bytes are counted as they are inflated.
    if ((file.originalSize ?? 0) > limits.xmlBytes) { failure = tooLarge(file.name, limits.xmlBytes); return; }
    count++;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) { failure = new BadInputError('file', message('nfe.zipInvalid', { detail: `${file.name}: ${error.message}` })); return; }
      size += chunk.length;
      total += chunk.length;
      if (size > limits.xmlBytes) { failure = tooLarge(file.name, limits.xmlBytes); file.terminate(); return; }
      if (total > limits.totalBytes) { failure = new BadInputError('file', message('nfe.zipTooLarge', { max: limits.totalBytes })); file.terminate(); return; }
      chunks.push(chunk);
      if (!final) return;
      try {
        read({ name: file.name, bytes: Buffer.concat(chunks) });
      } catch (e) {
        failure = e;
      }
      chunks.length = 0;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    // Pushed in slices so that a cap reached stops the inflation early.
    for (let at = 0; at < bytes.length && !failure; at += 64 * 1024) unzip.push(bytes.subarray(at, at + 64 * 1024), at + 64 * 1024 >= bytes.length);
  } catch (e) {
    failure ??= new BadInputError('file', message('nfe.zipInvalid', { detail: e instanceof Error ? e.message : String(e) }));
  }
  if (failure) throw failure;
  if (count === 0) throw new BadInputError('file', message('nfe.zipEmpty'));
  return count;
}

function tooLarge(name: string, max: number): BadInputError {
  return new BadInputError('file', message('nfe.xmlTooLarge', { name, max }));
}
