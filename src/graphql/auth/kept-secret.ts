import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded start's signing secret when JWT_SECRET is unset: made once, kept private (0600)
 * beside the data so printed tokens survive restarts; written atomically so two starts agree.
 */
export function keptSecret(file: string): string {
  const existing = read(file);
  if (existing) return existing;
  const staging = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(staging, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  try {
    fs.linkSync(staging, file);
  } catch (e) {
    // Another start linked its secret first (or a broken file is there): the one in place is used.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    if (!read(file)) fs.renameSync(staging, file);
  } finally {
    fs.rmSync(staging, { force: true });
  }
  return read(file)!;
}

/** The secret in `file`, or null when there is none (or not a whole one). */
function read(file: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  if (!/^[0-9a-f]{64}$/.test(text)) return null;
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return text;
}
