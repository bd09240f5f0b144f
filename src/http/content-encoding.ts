import type http from 'node:http';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { RequestHandler } from 'express';

/**
 * The Content-Encodings a request body may be sent in (docs/API.md, "Errors"): those /graphql's
 * JSON parser inflates, with the streams it uses (`deflate` is zlib's format, as there).
 */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

function encodingOf(req: http.IncomingMessage): string {
  return (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
}

/** The body of a request as sent, decoded; null when its Content-Encoding is none of the accepted. */
export function decodedBody(req: http.IncomingMessage): Readable | null {
  const encoding = encodingOf(req);
  if (encoding === 'identity') return req;
  const decoder = DECODERS[encoding];
  if (!decoder) return null;
  const stream = decoder();
  req.pipe(stream);
  return stream;
}

/**
 * A body in another Content-Encoding is refused before any route reads it, on every path: 415
 * UNSUPPORTED_MEDIA_TYPE through the error answers, as the JSON parser of /graphql refuses one. The
 * uploads read bodies of their own (upload.ts), which took such a body for the file itself; and
 * the parser accepts zstd where Node has it, which the API does not document.
 */
export const supportedContentEncoding: RequestHandler = (req, _res, next) => {
  const encoding = encodingOf(req);
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
  if (!hasBody || encoding === 'identity' || Object.hasOwn(DECODERS, encoding)) return next();
  // Read and dropped: the answer closes the connection (errorAnswers).
  req.resume();
  next(Object.assign(new Error(`unsupported content encoding "${encoding.slice(0, 40)}"`), { status: 415, type: 'encoding.unsupported' }));
};

/**
 * The JSON parser's `verify` (RFC 8259 §8.1: JSON between systems is UTF-8; docs/API.md, "Errors"):
 * a body in any other charset is 415 UNSUPPORTED_MEDIA_TYPE through the error answers. The parser
 * itself refuses only a charset not named `utf-…` (latin1), and decoded UTF-16 and UTF-32. The
 * charset comes lowercased and unquoted, `utf-8` when the Content-Type names none.
 */
export function utf8Only(_req: http.IncomingMessage, _res: http.ServerResponse, _body: Buffer, charset: string): void {
  if (charset === 'utf-8') return;
  throw Object.assign(new Error(`unsupported charset "${charset.slice(0, 40)}"`), { status: 415, type: 'charset.unsupported' });
}
