import { Readable } from 'node:stream';
import Busboy, { BusboyHeaders, BusboyInstance } from '@fastify/busboy';
import { message } from '../i18n';
import { BadInputError } from '../services/errors';

/** The file of a form upload: its bytes as they are parsed out of the body, its name and declared type. */
export interface FormFile {
  stream: Readable;
  filename: string;
  mimeType: string;
}

/**
 * The field `file` of a `multipart/form-data` body (what a browser's `<input type="file" name="file">`
 * sends), parsed with @fastify/busboy as the body is read. Other fields are ignored; a body with no
 * `file` field is BAD_USER_INPUT.
 */
export function formFile(body: Readable, headers: Record<string, string | string[] | undefined>): Promise<FormFile> {
  return new Promise((resolve, reject) => {
    let busboy: BusboyInstance;
    try {
      busboy = new Busboy({ headers: headers as BusboyHeaders, limits: { files: 4, fields: 32, fieldSize: 64 * 1024 } });
    } catch (e) {
      reject(new BadInputError('file', message('import.formInvalid', { detail: e instanceof Error ? e.message : String(e) })));
      return;
    }
    let found = false;
    busboy.on('file', (field, stream, filename, _encoding, mimeType) => {
      if (field !== 'file' || found) {
        stream.resume();
        return;
      }
      found = true;
      resolve({ stream, filename, mimeType });
    });
    busboy.on('error', (e: Error) => (found ? undefined : reject(new BadInputError('file', message('import.formInvalid', { detail: e.message })))));
    busboy.on('finish', () => {
      if (!found) reject(new BadInputError('file', message('import.formNoFile')));
    });
    body.on('error', (e) => busboy.destroy(e));
    body.pipe(busboy);
  });
}
