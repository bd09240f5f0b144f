import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type express from 'express';
import { message, Message, translate } from '../i18n';
import { decodedBody } from './content-encoding';

/**
 * How an uploaded file is received before anything else is done with it: every byte is read and
 * kept (in memory, then in a temporary file) before the database is touched, so a client that
 * sends slowly holds no pooled connection and no transaction, only its own spool.
 */
export interface UploadLimits {
  /** Largest body accepted, in bytes (413 beyond it), as sent and once inflated (a Content-Encoding's). */
  maxBytes: number;
  /** Bytes kept in memory; a larger body goes on into a temporary file. */
  memoryBytes: number;
  /**
   * Slowest acceptable upload: fewer bytes than this rate × `windowMs` arriving in the last
   * `windowMs` (checked once the first window has passed) ends the upload with 408.
   */
  minBytesPerSecond: number;
  windowMs: number;
}

/**
 * 64 MB is some 600,000 purchase lines, more than the 30 s an upload may take to arrive (the
 * server's request timeout); 8 KB/s over 5 s is a crawl on any link (a line a second, the
 * pattern of a client holding a slot on purpose, is some 100 bytes a second).
 */
export const UPLOAD_LIMITS: UploadLimits = { maxBytes: 64 * 1024 * 1024, memoryBytes: 1024 * 1024, minBytesPerSecond: 8 * 1024, windowMs: 5_000 };

/** How long a refused upload's body is still read after the answer (a lingering close). */
export const LINGER_MS = 2_000;

/**
 * Before answering a refused upload: the rest of its body is read and dropped for at most
 * LINGER_MS, then the connection ends. Closing it with the answer, as `Connection: close` does,
 * resets it while the client is still sending, and the client can lose the answer it had not read.
 */
export function lingerOn(req: express.Request): void {
  if (req.readableEnded) return;
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  const stop = () => clearTimeout(timer);
  req.once('end', stop);
  req.once('close', stop);
}

/** An upload refused while it was being received: its HTTP status and public code. */
export class UploadError extends Error {
  constructor(readonly status: 400 | 408 | 413 | 415, readonly code: 'BAD_REQUEST' | 'REQUEST_TIMEOUT' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE', readonly text: Message) {
    super(translate(text));
  }
}

/** A received body: read it (as often as needed) with `stream()`, then `dispose()` of it. */
export interface SpooledBody {
  readonly bytes: number;
  /** The temporary file holding the body, when it was too large for memory. */
  readonly file: string | null;
  stream(): Readable;
  dispose(): Promise<void>;
}

class MemoryBody implements SpooledBody {
  readonly file = null;
  constructor(private readonly chunks: Buffer[], readonly bytes: number) {}
  stream(): Readable {
    return Readable.from(this.chunks, { objectMode: false });
  }
  async dispose(): Promise<void> {
    this.chunks.length = 0;
  }
}

class FileBody implements SpooledBody {
  constructor(readonly file: string, readonly bytes: number) {}
  stream(): Readable {
    return fs.createReadStream(this.file);
  }
  async dispose(): Promise<void> {
    await fs.promises.rm(path.dirname(this.file), { recursive: true, force: true });
  }
}

/**
 * A whole body under `limits`, spooled to memory then a temp file; UploadError 413/408/400/415
 * leaves nothing on disk. A body sent gzip, deflate or br is kept inflated (what /graphql's parser
 * does), bounded by `maxBytes` as it inflates: a small bomb stops there.
 */
export function receiveBody(req: express.Request, limits: UploadLimits = UPLOAD_LIMITS): Promise<SpooledBody> {
  return new Promise<SpooledBody>((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      req.resume();
      reject(tooLarge(limits));
      return;
    }
    const body = decodedBody(req);
    if (!body) {
      req.resume();
      reject(new UploadError(415, 'UNSUPPORTED_MEDIA_TYPE', message('http.bodyEncoding')));
      return;
    }
    const decoding = body !== req;
    // A failed decoder's late errors, once it has been let go of.
    if (decoding) body.on('error', () => undefined);
    const chunks: Buffer[] = [];
    // Kept (inflated) and received (as sent: the rate is the link's).
    let bytes = 0;
    let received = 0;
    let file: { path: string; out: fs.WriteStream } | null = null;
    let settled = false;
    const started = Date.now();
    // Bytes received by the end of each window, to judge the rate over the last one.
    let windowStart = { at: started, bytes: 0 };

    const cleanup = () => {
      clearInterval(timer);
      body.off('data', onData);
      body.off('end', onEnd);
      req.off('data', onReceived);
      req.off('aborted', onAborted);
      req.off('close', onClose);
      req.off('error', onError);
      if (decoding) body.off('error', onUndecodable);
    };
    const fail = (error: UploadError) => {
      if (settled) return;
      settled = true;
      cleanup();
      req.unpipe();
      req.resume();
      if (decoding) body.destroy();
      const spool = file;
      if (spool) spool.out.destroy();
      if (spool) void fs.promises.rm(path.dirname(spool.path), { recursive: true, force: true });
      chunks.length = 0;
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      if (settled) return;
      bytes += chunk.length;
      if (bytes > limits.maxBytes) return fail(tooLarge(limits));
      if (file) {
        if (!file.out.write(chunk)) {
          body.pause();
          file.out.once('drain', () => body.resume());
        }
        return;
      }
      chunks.push(chunk);
      if (bytes > limits.memoryBytes) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-upload-'));
        const out = fs.createWriteStream(path.join(dir, 'body'), { mode: 0o600 });
        out.on('error', () => fail(new UploadError(400, 'BAD_REQUEST', message('upload.notKept'))));
        file = { path: path.join(dir, 'body'), out };
        for (const c of chunks.splice(0)) out.write(c);
      }
    };
    const onEnd = () => {
      if (settled) return;
      settled = true;
      cleanup();
      if (!file) return resolve(new MemoryBody(chunks, bytes));
      const { path: spool, out } = file;
      out.end(() => resolve(new FileBody(spool, bytes)));
    };
    const onAborted = () => fail(new UploadError(400, 'BAD_REQUEST', message('upload.ended')));
    const onClose = () => {
      if (!req.readableEnded) onAborted();
    };
    const onError = () => onAborted();
    const onReceived = (chunk: Buffer) => {
      received += chunk.length;
    };
    const onUndecodable = () => fail(new UploadError(400, 'BAD_REQUEST', message('upload.notDecoded', { encoding: String(req.headers['content-encoding']).trim().toLowerCase() })));
    const timer = setInterval(() => {
      const now = Date.now();
      if (now - windowStart.at < limits.windowMs) return;
      const rate = ((received - windowStart.bytes) * 1000) / (now - windowStart.at);
      if (rate < limits.minBytesPerSecond) {
        return fail(new UploadError(408, 'REQUEST_TIMEOUT', message('upload.tooSlow', { kbPerSecond: Math.round(limits.minBytesPerSecond / 1024), seconds: limits.windowMs / 1000 })));
      }
      windowStart = { at: now, bytes: received };
    }, Math.min(1_000, limits.windowMs));
    timer.unref();

    body.on('data', onData);
    body.on('end', onEnd);
    if (decoding) body.on('error', onUndecodable);
    req.on('data', onReceived);
    req.on('aborted', onAborted);
    req.on('close', onClose);
    req.on('error', onError);
  });
}

function tooLarge(limits: UploadLimits): UploadError {
  return new UploadError(413, 'PAYLOAD_TOO_LARGE', message('upload.tooLarge', { mb: Math.round(limits.maxBytes / (1024 * 1024)) }));
}
