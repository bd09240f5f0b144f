import { message, Message, translate } from '../i18n';

/**
 * Concurrent imports, per caller and in all: the total keeps imports from taking GraphQL's
 * connections, the per-caller bound one token from taking every slot.
 */
export interface ImportConcurrency {
  perCaller: number;
  total: number;
}

/** Two per caller, six in all: 6 of the API's 20 pooled connections at most. */
export const IMPORT_CONCURRENCY: ImportConcurrency = { perCaller: 2, total: 6 };

/** No slot free: 429 when the caller has all of its own, 503 when the server has none left. */
export class NoImportSlot extends Error {
  constructor(readonly status: 429 | 503, readonly text: Message) {
    super(translate(text));
  }
}

/** Slots taken in this process, every ImportSlots together: imports not yet answered (what a shutdown cuts). */
let taken = 0;

/** Imports of this process still running (received, read or written, not yet answered). */
export function importsRunning(): number {
  return taken;
}

export class ImportSlots {
  private running = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(private readonly limits: ImportConcurrency = IMPORT_CONCURRENCY) {}

  /** Slots taken now: in all, and by each caller that holds one. */
  get inUse(): { total: number; callers: number } {
    return { total: this.running, callers: this.byCaller.size };
  }

  /** Take a slot for `caller` or throw NoImportSlot; the function returned gives it back (once). */
  take(caller: string): () => void {
    const mine = this.byCaller.get(caller) ?? 0;
    if (mine >= this.limits.perCaller) {
      throw new NoImportSlot(429, message('upload.perCaller', { running: mine, max: this.limits.perCaller }));
    }
    if (this.running >= this.limits.total) {
      throw new NoImportSlot(503, message('upload.inAll', { running: this.running }));
    }
    this.running++;
    taken++;
    this.byCaller.set(caller, mine + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running--;
      taken--;
      const left = (this.byCaller.get(caller) ?? 1) - 1;
      if (left > 0) this.byCaller.set(caller, left);
      else this.byCaller.delete(caller);
    };
  }
}
