import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { Role } from '../law/types';
import { Actor } from './actor';

/** Where a request's reads ran. */
export type ReadTarget = 'primary' | 'replica';
/** Why a request that would read from the standby read from the primary instead. */
export type FallbackReason = 'unavailable' | 'lag' | 'own_write' | 'not_standby';

export interface ReplicaObserver {
  read(target: ReadTarget): void;
  fallback(reason: FallbackReason): void;
}

export interface ReadReplicaOptions {
  /** Reads go to the primary while the standby is further behind than this (READ_REPLICA_MAX_LAG_MS). */
  maxLagMs?: number;
  /** Longest a reader who has just written waits for the standby to replay its write (READ_REPLICA_WAIT_MS). */
  ownWriteWaitMs?: number;
  /** The standby's state is measured again after this long; 0 measures it for every request. */
  checkIntervalMs?: number;
  /** A standby that does not answer its check within this is taken as down. */
  checkTimeoutMs?: number;
  /** Told when the standby becomes usable or unusable (the log). */
  onChange?: (usable: boolean, why: string) => void;
}

/** A WAL position as a number ('16/B374D848' → 0x16B374D848). */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** The subjects whose writes are awaited at most: beyond, the oldest are forgotten (the lag bound still holds). */
const MAX_WRITERS = 10_000;
/** Primary positions kept for measuring the lag: beyond, new ones wait until the oldest are replayed. */
const MAX_SAMPLES = 1_000;
/** A write whose position could not be read: its writer reads from the primary until the lag bound has passed. */
const UNKNOWN = 2n ** 64n;

const readDataSources = new WeakMap<DataSource, DataSource>();
const replicas = new WeakMap<DataSource, ReadReplica>();

/** The DataSource a write must use: the primary behind a standby's DataSource, else the one given. Writes never go to a standby. */
export function writerOf(ds: DataSource): DataSource {
  return readDataSources.get(ds) ?? ds;
}

/** After a committed write through `ds`: its replica (if any) remembers the position the writer must see. */
export async function afterWrite(ds: DataSource, actor: Actor): Promise<void> {
  await replicas.get(writerOf(ds))?.wrote(actor);
}

/**
 * Routes AUDITOR reads to a hot standby or the primary, per request. Lag is the age of the oldest
 * primary WAL position seen but not replayed (honest while idle or disconnected); a client's last
 * write position, by token subject, keeps its reads on the primary until replayed (docs/SCALING.md).
 */
export class ReadReplica {
  readonly maxLagMs: number;
  readonly ownWriteWaitMs: number;
  private readonly checkIntervalMs: number;
  private readonly checkTimeoutMs: number;
  private readonly observers: ReplicaObserver[] = [];
  private readonly writers = new Map<string, { lsn: bigint; at: number }>();
  private samples: Array<{ lsn: bigint; at: number }> = [];
  private state: { usable: boolean; reason?: FallbackReason; lagMs: number | null; replayed: bigint; at: number } | undefined;
  private checking: Promise<void> | undefined;
  private connecting: Promise<DataSource> | undefined;

  constructor(readonly primary: DataSource, readonly dataSource: DataSource, private readonly options: ReadReplicaOptions = {}) {
    this.maxLagMs = options.maxLagMs ?? 5_000;
    this.ownWriteWaitMs = options.ownWriteWaitMs ?? 500;
    this.checkIntervalMs = options.checkIntervalMs ?? 1_000;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 1_000;
    readDataSources.set(dataSource, primary);
    replicas.set(primary, this);
  }

  observe(observer: ReplicaObserver): void {
    this.observers.push(observer);
  }

  /** The last measured lag in seconds; null while the standby is down or not measured yet. */
  lagSeconds(): number | null {
    return this.state?.lagMs == null ? null : this.state.lagMs / 1000;
  }

  /** Whether the standby was usable at its last check. */
  usable(): boolean {
    return this.state?.usable ?? false;
  }

  /**
   * Whether this actor's reads are the standby's to serve: an AUDITOR's always; an ADMIN's
   * reading the whole program when the caller says so. A PRODUCER's never (its reads are few and
   * its own writes are the ones it reads).
   */
  serves(actor: Actor, wholeProgram = false): boolean {
    return actor.role === Role.AUDITOR || (wholeProgram && actor.role === Role.ADMIN);
  }

  /** Where this actor's reads go now; `wholeProgram`: an ADMIN reading the program's view too. */
  async targetFor(actor: Actor, wholeProgram = false): Promise<ReadTarget> {
    const target = this.serves(actor, wholeProgram) ? await this.choose(actor) : 'primary';
    for (const o of this.observers) o.read(target);
    return target;
  }

  private async choose(actor: Actor): Promise<ReadTarget> {
    await this.refresh();
    const state = this.state!;
    if (!state.usable) return this.fellBack(state.reason!);
    const written = this.writers.get(actor.sub);
    if (written && written.lsn === UNKNOWN && Date.now() - written.at <= this.maxLagMs) return this.fellBack('own_write');
    if (written && written.lsn !== UNKNOWN && written.lsn > state.replayed) {
      if (!(await this.replays(written.lsn))) return this.fellBack('own_write');
    }
    this.writers.delete(actor.sub);
    return 'replica';
  }

  private fellBack(reason: FallbackReason): ReadTarget {
    for (const o of this.observers) o.fallback(reason);
    return 'primary';
  }

  /** Whether the standby replays `lsn` within the wait bound (asked every 10 ms). */
  private async replays(lsn: bigint): Promise<boolean> {
    const deadline = Date.now() + this.ownWriteWaitMs;
    for (;;) {
      try {
        const [row] = (await this.dataSource.query('SELECT pg_last_wal_replay_lsn()::text AS replayed')) as Array<{ replayed: string | null }>;
        if (row.replayed !== null && lsnValue(row.replayed) >= lsn) return true;
      } catch {
        return false;
      }
      if (Date.now() >= deadline) return false;
      await sleep(10);
    }
  }

  /** After a committed write: the primary's position now, which the writer's next reads must see. */
  async wrote(actor: Actor): Promise<void> {
    let sample: { lsn: bigint; at: number };
    try {
      // The insert position, not pg_current_wal_lsn(): with synchronous_commit off the commit record
      // may not be written yet, and the written position would then lie before it.
      const [row] = (await this.primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')) as Array<{ lsn: string }>;
      sample = { lsn: lsnValue(row.lsn), at: Date.now() };
      this.addSample(sample);
    } catch {
      // The write is committed and its answer must not fail: its writer reads from the primary for a while instead.
      sample = { lsn: UNKNOWN, at: Date.now() };
    }
    this.writers.delete(actor.sub);
    this.writers.set(actor.sub, sample);
    if (this.writers.size > MAX_WRITERS) this.writers.delete(this.writers.keys().next().value!);
  }

  private addSample(sample: { lsn: bigint; at: number }): void {
    const last = this.samples[this.samples.length - 1];
    if (last && last.lsn >= sample.lsn) return;
    if (this.samples.length < MAX_SAMPLES) this.samples.push(sample);
  }

  /** Measure the standby again when the last measure is older than the check interval (one check at a time). */
  private async refresh(): Promise<void> {
    if (this.state && Date.now() - this.state.at < this.checkIntervalMs) return;
    this.checking ??= this.check().finally(() => { this.checking = undefined; });
    await this.checking;
  }

  private async check(): Promise<void> {
    let next: NonNullable<ReadReplica['state']>;
    try {
      next = await this.withTimeout(this.measure());
    } catch (e) {
      next = { usable: false, reason: 'unavailable', lagMs: null, replayed: 0n, at: Date.now() };
      this.changed(next, e instanceof Error ? e.message : String(e));
      return;
    }
    this.changed(next, next.reason ?? 'lag within bound');
  }

  private changed(next: NonNullable<ReadReplica['state']>, why: string): void {
    const before = this.state?.usable;
    this.state = next;
    if (before !== next.usable) this.options.onChange?.(next.usable, why);
  }

  private async measure(): Promise<NonNullable<ReadReplica['state']>> {
    // The primary's position first: a standby that has replayed it is at most this check behind.
    const [p] = (await this.primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')) as Array<{ lsn: string }>;
    const now = Date.now();
    this.addSample({ lsn: lsnValue(p.lsn), at: now });
    if (!this.dataSource.isInitialized) await (this.connecting ??= this.dataSource.initialize().finally(() => { this.connecting = undefined; }));
    const [s] = (await this.dataSource.query('SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed')) as Array<{ standby: boolean; replayed: string | null }>;
    const at = Date.now();
    if (!s.standby || s.replayed === null) return { usable: false, reason: 'not_standby', lagMs: null, replayed: 0n, at };
    const replayed = lsnValue(s.replayed);
    while (this.samples.length > 0 && this.samples[0].lsn <= replayed) this.samples.shift();
    const lagMs = this.samples.length === 0 ? 0 : at - this.samples[0].at;
    return lagMs > this.maxLagMs ? { usable: false, reason: 'lag', lagMs, replayed, at } : { usable: true, lagMs, replayed, at };
  }

  private withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_r, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${this.checkTimeoutMs} ms`)), this.checkTimeoutMs); });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }
}
