import { message, Message } from '../../i18n';
import { BadInputError } from '../../services/errors';
import { eachXmlFile, NFE_LIMITS } from './archive';
import { itemsOfLastParse, NfeDocument, NfeFileError, parseNfe } from './document';
import { NfeProblem, NfeProblems } from './problems';

export interface ReadTask { name: string; bytes: Uint8Array }

/** An upload read: its notes and events, and the problems of the files that are none. */
export interface ReadUpload {
  files: number;
  /** The items (det) read in its files, at most NFE_LIMITS.items. */
  items: number;
  documents: Array<{ file: string; document: NfeDocument }>;
  problems: NfeProblem[];
  problemCount: number;
  /** The upload refused whole (a ZIP too large, unreadable…): an error does not cross threads with its class. */
  refused?: { field: string; text: Message };
}

/**
 * Inflates and parses the files of an upload, each as soon as it is inflated: only what a note
 * says is kept (its parsed tree and bytes are let go of before the next file is read).
 */
export function readUpload({ name, bytes }: ReadTask): ReadUpload {
  const documents: ReadUpload['documents'] = [];
  const problems = new NfeProblems();
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let items = 0;
  try {
    const files = eachXmlFile(name, buffer, (file) => {
      try {
        documents.push({ file: file.name, document: parseNfe(file.bytes) });
      } catch (e) {
        if (!(e instanceof NfeFileError)) throw e;
        problems.push({ file: file.name, key: e.key, item: e.item, reason: e.text });
      }
      // Refused whole as soon as the cap is passed: the files after it are not inflated.
      items += itemsOfLastParse();
      if (items > NFE_LIMITS.items) throw uploadTooManyItems();
    }, NFE_LIMITS);
    return { files, items, documents, problems: problems.kept, problemCount: problems.count };
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    return { files: 0, items: 0, documents: [], problems: [], problemCount: 0, refused: { field: e.field, text: e.text } };
  }
}

/** An upload of more items than NFE_LIMITS.items, the files read so far in it or not. */
export function uploadTooManyItems(): BadInputError {
  return new BadInputError('file', message('nfe.uploadTooManyItems', { max: NFE_LIMITS.items }));
}

/** The worker thread's work (reading.ts sends it). */
export default readUpload;
