import { addDays, IsoDate } from './dates';
import { Finding, finding } from './findings';
import { SealEventKind } from './types';
import { message, Message } from './message';

export interface SealEventFacts {
  kind: SealEventKind;
  effectiveOn: IsoDate;
  /** New end of validity, for RENEWED. */
  validUntil: IsoDate | null;
  reason: string | null;
}

export interface GrantFacts {
  id: string;
  grantedOn: IsoDate;
  validUntil: IsoDate;
  /** In the order they were recorded (same-day events keep that order). */
  events: SealEventFacts[];
}

export interface Standing {
  on: IsoDate;
  regular: boolean;
  grantId: string | null;
  reason: Finding;
}

type GrantState = 'REGULAR' | 'CANCELLED' | 'SUSPENDED' | 'EXPIRED' | 'NOT_YET_GRANTED';

/** Events effective on or before `on`, by effective date (recording order within a day). */
function eventsUpTo(grant: GrantFacts, on: IsoDate): SealEventFacts[] {
  return grant.events
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => e.effectiveOn <= on)
    .sort((a, b) => (a.e.effectiveOn === b.e.effectiveOn ? a.i - b.i : a.e.effectiveOn < b.e.effectiveOn ? -1 : 1))
    .map(({ e }) => e);
}

/**
 * validUntil in force on `on`: the latest RENEWED event effective by then moves it (art. 4º I, V).
 * Interpretation: a renewal after a lapse does not cover the gap.
 */
export function validUntilOn(grant: GrantFacts, on: IsoDate): IsoDate {
  let until = grant.validUntil;
  for (const e of eventsUpTo(grant, on)) if (e.kind === SealEventKind.RENEWED && e.validUntil) until = e.validUntil;
  return until;
}

function stateOn(grant: GrantFacts, on: IsoDate): { state: GrantState; event?: SealEventFacts; until: IsoDate } {
  const until = validUntilOn(grant, on);
  if (on < grant.grantedOn) return { state: 'NOT_YET_GRANTED', until };
  const events = eventsUpTo(grant, on);
  // Interpretation (docs/LAW.md, "Selo standing"): a cancellation ends the grant for good, so it
  // is the reason from its day on, after the validity too; a suspension only withholds a validity
  // still running (art. 4º V), so once that ends the grant is expired, suspended or not.
  const cancelled = events.find((e) => e.kind === SealEventKind.CANCELLED);
  if (cancelled) return { state: 'CANCELLED', event: cancelled, until };
  if (on > until) return { state: 'EXPIRED', until };
  const lastSuspension = [...events].reverse().find((e) => e.kind === SealEventKind.SUSPENDED || e.kind === SealEventKind.REINSTATED);
  if (lastSuspension?.kind === SealEventKind.SUSPENDED) return { state: 'SUSPENDED', event: lastSuspension, until };
  return { state: 'REGULAR', until };
}

/**
 * The days on which a standing can change (the candidates of its timeline): each grant's first
 * day, the day after each end of validity it has had, and each event's day.
 */
export function standingChangeDays(grants: readonly GrantFacts[]): IsoDate[] {
  return grants.flatMap((g) => [
    g.grantedOn, addDays(g.validUntil, 1),
    ...g.events.flatMap((e) => (e.validUntil ? [e.effectiveOn, addDays(e.validUntil, 1)] : [e.effectiveOn])),
  ]);
}

const PRIORITY: GrantState[] = ['REGULAR', 'CANCELLED', 'SUSPENDED', 'EXPIRED', 'NOT_YET_GRANTED'];

/**
 * Standing on a date (Decreto 10.527/2020 art. 6º §2º; art. 4º I, III, V): regular when a grant
 * covers it, not suspended and not cancelled; else `reason` names the grant that explains why.
 */
export function sealStanding(grants: readonly GrantFacts[], on: IsoDate): Standing {
  const states = grants.map((g) => ({ grant: g, ...stateOn(g, on) }));
  for (const state of PRIORITY) {
    // The latest grant explains best, except a future one: then the first to come.
    const order = state === 'NOT_YET_GRANTED' ? -1 : 1;
    const matching = states.filter((s) => s.state === state).sort((a, b) => (a.grant.grantedOn < b.grant.grantedOn ? order : -order));
    const s = matching[0];
    if (!s) continue;
    const id = s.grant.id;
    switch (state) {
      case 'REGULAR':
        return { on, regular: true, grantId: id, reason: finding('SEAL_REGULAR', message('finding.SEAL_REGULAR.grant', { grantId: id, on, until: s.until })) };
      case 'CANCELLED':
        return { on, regular: false, grantId: id, reason: finding('SEAL_CANCELLED', grantEvent('SEAL_CANCELLED', id, s.event!)) };
      case 'SUSPENDED':
        return { on, regular: false, grantId: id, reason: finding('SEAL_SUSPENDED', grantEvent('SEAL_SUSPENDED', id, s.event!)) };
      case 'EXPIRED':
        return { on, regular: false, grantId: id, reason: finding('SEAL_EXPIRED', message('finding.SEAL_EXPIRED.grant', { grantId: id, until: s.until })) };
      case 'NOT_YET_GRANTED':
        return { on, regular: false, grantId: null, reason: finding('NO_SEAL_GRANT', message('finding.NO_SEAL_GRANT.notYet', { on, grantedOn: s.grant.grantedOn })) };
    }
  }
  return { on, regular: false, grantId: null, reason: finding('NO_SEAL_GRANT') };
}

/** A cancellation or suspension of a grant, with the reason recorded for it when there is one. */
function grantEvent(code: 'SEAL_CANCELLED' | 'SEAL_SUSPENDED', grantId: string, event: SealEventFacts): Message {
  const params = { grantId, effectiveOn: event.effectiveOn };
  return event.reason ? message(`finding.${code}.grantWithReason`, { ...params, reason: event.reason }) : message(`finding.${code}.grant`, params);
}
