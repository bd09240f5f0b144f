import { DataSource } from 'typeorm';
import { IsoDate, today as brazilToday } from '../law/dates';
import { NoRuleInForceError } from '../law/errors';
import { SYSTEM_ACTOR } from './actor';
import type { Services } from '.';
import { ProgramOverviewService } from './program-overview.service';
import { requestContext } from '../request-context';
import { totalMarks, yearsAsked, yearsWithRecords } from './program-parts';

/** One process of many refreshes at a time (pg_try_advisory_lock): the others find the parts stored. */
const LOCK = 'hashtextextended(\'selo:program-refresh\', 0)';

/** What a look at the marks did: computed the years, found nothing changed, left them to the process refreshing, or failed. */
export type RefreshOutcome = 'computed' | 'unchanged' | 'elsewhere' | 'failed';

export interface ProgramRefreshOptions {
  /** Between two looks at the marks; 0: never by itself (`tick` only). */
  everyMs: number;
  today?: () => IsoDate;
  onError?: (error: unknown) => void;
  /** Each look's outcome and how long it took (the metrics). */
  observe?: (outcome: RefreshOutcome, seconds: number) => void;
}

/**
 * The refresh of a process's services: it computes on the standby while the standby serves the
 * reads of the whole program (its years then land in the kept years the analysts' overview reads),
 * and stores on the primary, `writer`.
 */
export function programRefreshOf(services: Services, writer: DataSource, options: ProgramRefreshOptions): ProgramRefresh {
  return new ProgramRefresh(async () => (await services.forReads(SYSTEM_ACTOR, true)).programOverview, writer, options);
}

/**
 * The program's view kept ready in the background: when records change or the day turns in Brazil,
 * this year, the year before, the years asked in the last days and the last ten years holding
 * records, as known today (the overview's default), are computed again. Only the producers whose marks changed are, and the parts are stored,
 * so the ministry's overview of the day reads them instead of computing the program on request.
 */
export class ProgramRefresh {
  private timer?: NodeJS.Timeout;
  private running?: Promise<boolean>;
  /** Aborted by stop: the years computing stop at their next step (stopIfAnswered), the rest are not begun. */
  private readonly stopping = new AbortController();
  /** The day and the marks' total last refreshed under. */
  private done = '';

  /** `overview`: the service of the reads of the whole program (the standby's while it serves them). */
  constructor(private readonly overview: () => Promise<ProgramOverviewService>, private readonly writer: DataSource, private readonly options: ProgramRefreshOptions) {}

  start(): void {
    if (this.options.everyMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.everyMs);
    this.timer.unref();
    void this.tick();
  }

  /** Stops, and waits for a refresh under way to end: none holds a connection once the pool closes. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping.abort();
    await this.running;
  }

  /** Refreshes the years if anything changed since the last time; true when it computed. */
  tick(): Promise<boolean> {
    if (this.stopping.signal.aborted) return Promise.resolve(false);
    const started = performance.now();
    const seen = (outcome: RefreshOutcome) => {
      this.options.observe?.(outcome, (performance.now() - started) / 1000);
      return outcome === 'computed';
    };
    this.running ??= this.refresh().then(seen, (error: unknown) => {
      this.options.onError?.(error);
      return seen('failed');
    }).finally(() => { this.running = undefined; });
    return this.running;
  }

  private async refresh(): Promise<RefreshOutcome> {
    const day = (this.options.today ?? brazilToday)();
    const state = `${day}|${await totalMarks(this.writer)}`;
    if (state === this.done) return 'unchanged';
    const runner = this.writer.createQueryRunner();
    try {
      await runner.connect();
      const [{ locked }]: Array<{ locked: boolean }> = await runner.query(`SELECT pg_try_advisory_lock(${LOCK}) AS locked`);
      if (!locked) return 'elsewhere';
      try {
        const year = Number(day.slice(0, 4));
        // The last whole year first, the one whose Selo is evaluated and most asked (a process just
        // started answers an overview of it by waiting for this computation), then this year, then
        // the others asked, then the rest of the decade's years that hold records, the latest first:
        // any year's overview of the day then reads stored years. Only the producers whose marks
        // changed are computed again; after a shared record changes, every producer of each year.
        const years = [...new Set([year - 1, year, ...(await yearsAsked(this.writer, day)).reverse(), ...await yearsWithRecords(this.writer, year)])];
        // A year that fails (its law unpublished, say) leaves the others computed, and is tried again.
        const failed: unknown[] = [];
        await requestContext.run({ requestId: 'program-refresh', ended: this.stopping.signal }, async () => {
          for (const y of years) {
            this.stopping.signal.throwIfAborted();
            const service = await this.overview();
            await service.overview(SYSTEM_ACTOR, y, day).catch((error: unknown) => {
              // A year no wording of the decree governs (records kept from before it) has no view to keep.
              if (!(error instanceof NoRuleInForceError)) failed.push(error);
            });
            // Stored before the lock is let go: then the other processes read the year.
            await service.settled();
          }
        });
        if (failed.length > 0) throw failed[0];
        this.done = state;
        return 'computed';
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(${LOCK})`);
      }
    } finally {
      await runner.release();
    }
  }
}
