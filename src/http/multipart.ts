import { PassThrough, Readable } from 'node:stream';
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
    let file: PassThrough | null = null;
    // The file is handed over in a stream of ours: a body that ends before its closing boundary
    // fails it with BAD_USER_INPUT whenever that is found, read or not yet read (busboy emits
    // 'error' on its own stream, and on the form alone for some truncations).
    const refuse = (e: Error) => new BadInputError('file', message('import.formInvalid', { detail: e.message }));
    busboy.on('file', (field, stream, filename, _encoding, mimeType) => {
      if (field !== 'file' || file) {
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      const out = new PassThrough();
      out.on('error', () => undefined);
      stream.on('error', (e: Error) => out.destroy(refuse(e)));
      stream.pipe(out);
      file = out;
      resolve({ stream: out, filename, mimeType });
    });
    busboy.on('error', (e: Error) => (file ? file.destroy(refuse(e)) : reject(refuse(e))));
    busboy.on('finish', () => {
      if (!file) reject(new BadInputError('file', message('import.formNoFile')));
    });
    body.on('error', (e) => busboy.destroy(e));
    body.pipe(busboy);
  });
}
