import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

/**
 * Bytes kept to be read again: in memory up to `memoryBytes`, then in a temporary file that
 * `dispose()` removes. An import reads its whole file into one before it takes a database
 * connection, so memory stays bounded whatever the file's size.
 */
export class Spool {
  private chunks: Buffer[] = [];
  private size = 0;
  private file: { dir: string; path: string; out: fs.WriteStream } | null = null;

  constructor(private readonly memoryBytes = 1 << 20) {}

  get bytes(): number {
    return this.size;
  }

  async write(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (this.file) {
      if (!this.file.out.write(chunk)) await once(this.file.out, 'drain');
      return;
    }
    this.chunks.push(chunk);
    if (this.size <= this.memoryBytes) return;
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'selo-import-'));
    const out = fs.createWriteStream(path.join(dir, 'spool'), { mode: 0o600 });
    this.file = { dir, path: path.join(dir, 'spool'), out };
    for (const c of this.chunks.splice(0)) if (!out.write(c)) await once(out, 'drain');
  }

  async end(): Promise<void> {
    if (!this.file) return;
    const { out } = this.file;
    if (out.writableFinished) return;
    out.end();
    await once(out, 'finish');
  }

  stream(): Readable {
    return this.file ? fs.createReadStream(this.file.path, { highWaterMark: 1 << 16 }) : Readable.from(this.chunks, { objectMode: false });
  }

  async dispose(): Promise<void> {
    this.chunks = [];
    const file = this.file;
    this.file = null;
    if (!file) return;
    file.out.destroy();
    await fs.promises.rm(file.dir, { recursive: true, force: true });
  }
}
