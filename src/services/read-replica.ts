import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { Role } from '../law/types';
import { Actor } from './actor';

export type ReadTarget = 'primary' | 'replica';
export type FallbackReason = 'unavailable' | 'lag' | 'own_write' | 'not_standby';

export interface ReplicaObserver {
  read(target: ReadTarget): void;
  fallback(reason: FallbackReason): void;
}

export interface ReadReplicaOptions {
  maxLagMs?: number;
  ownWriteWaitMs?: number;
  checkIntervalMs?: number;
  checkTimeoutMs?: number;
  onChange?: (usable: boolean, why: string) => void;
}

export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** Beyond, the oldest are forgotten; the lag bound still holds. */
const MAX_WRITERS = 10_000;
const MAX_SAMPLES = 1_000;
const UNKNOWN = 2n ** 64n;

const readDataSources = new WeakMap<DataSource, DataSource>();
const replicas = new WeakMap<DataSource, ReadReplica>();

/** Writes never go to a standby. */
export function writerOf(ds: DataSource): DataSource {
  return readDataSources.get(ds) ?? ds;
}

export async function afterWrite(ds: DataSource, actor: Actor): Promise<void> {
  await replicas.get(writerOf(ds))?.wrote(actor);
}

/**
 * Lag is the age of the oldest primary position seen but not replayed: honest while idle or
 * disconnected. A writer reads from the primary until its write is replayed (docs/SCALING.md).
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

  lagSeconds(): number | null {
    return this.state?.lagMs == null ? null : this.state.lagMs / 1000;
  }

  usable(): boolean {
    return this.state?.usable ?? false;
  }

  /** Never a PRODUCER's: its reads are few and its own writes are the ones it reads. */
  serves(actor: Actor, wholeProgram = false): boolean {
    return actor.role === Role.AUDITOR || (wholeProgram && actor.role === Role.ADMIN);
  }

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

  async wrote(actor: Actor): Promise<void> {
    let sample: { lsn: bigint; at: number };
    try {
      // With synchronous_commit off the written position may lie before the commit record.
      const [row] = (await this.primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')) as Array<{ lsn: string }>;
      sample = { lsn: lsnValue(row.lsn), at: Date.now() };
      this.addSample(sample);
    } catch {
      // The write is committed and its answer must not fail.
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
