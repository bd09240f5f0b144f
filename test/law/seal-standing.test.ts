import { findingMessage } from '../../src/i18n/finding-message';
import { sealStanding, GrantFacts } from '../../src/law/seal-standing';
import { SealEventKind } from '../../src/law/types';

/**
 * Decreto 10.527/2020, art. 6º §2º ("em situação regular"), art. 4º I, III, V; docs/LAW.md One
 * grant from 2024-01-10 to 2025-01-09, renewed on 2025-01-05 to 2027-01-09, suspended on
 * 2025-06-01, reinstated on 2025-07-01, cancelled on 2026-03-01.
 */
const grant: GrantFacts = {
  id: '7',
  grantedOn: '2024-01-10',
  validUntil: '2025-01-09',
  events: [
    { kind: SealEventKind.RENEWED, effectiveOn: '2025-01-05', validUntil: '2027-01-09', reason: null },
    { kind: SealEventKind.SUSPENDED, effectiveOn: '2025-06-01', validUntil: null, reason: 'audit' },
    { kind: SealEventKind.REINSTATED, effectiveOn: '2025-07-01', validUntil: null, reason: null },
    { kind: SealEventKind.CANCELLED, effectiveOn: '2026-03-01', validUntil: null, reason: 'fraud' },
  ],
};

const at = (on: string, grants: GrantFacts[] = [grant]) => {
  const s = sealStanding(grants, on);
  return [s.regular, s.reason.code, s.grantId];
};

test.each([
  ['2024-01-09', 'the day before the grant', false, 'NO_SEAL_GRANT', null],
  ['2024-01-10', 'the day of the grant', true, 'SEAL_REGULAR', '7'],
  ['2025-01-09', 'the last day of the first validity', true, 'SEAL_REGULAR', '7'],
  ['2025-01-10', 'the day after the first validity, renewed', true, 'SEAL_REGULAR', '7'],
  ['2025-05-31', 'the day before the suspension', true, 'SEAL_REGULAR', '7'],
  ['2025-06-01', 'the day of the suspension', false, 'SEAL_SUSPENDED', '7'],
  ['2025-06-30', 'the day before the reinstatement', false, 'SEAL_SUSPENDED', '7'],
  ['2025-07-01', 'the day of the reinstatement', true, 'SEAL_REGULAR', '7'],
  ['2026-02-28', 'the day before the cancellation', true, 'SEAL_REGULAR', '7'],
  ['2026-03-01', 'the day of the cancellation', false, 'SEAL_CANCELLED', '7'],
  ['2026-03-02', 'the day after the cancellation', false, 'SEAL_CANCELLED', '7'],
])('Selo standing on %s (%s)', (on, _what, regular, code, grantId) => {
  expect(at(on)).toEqual([regular, code, grantId]);
});

test('without the renewal the grant lapses the day after validUntil (art. 4º V)', () => {
  const plain: GrantFacts = { id: '1', grantedOn: '2024-01-10', validUntil: '2025-01-09', events: [] };
  expect(at('2025-01-09', [plain])).toEqual([true, 'SEAL_REGULAR', '1']);
  expect(at('2025-01-10', [plain])).toEqual([false, 'SEAL_EXPIRED', '1']);
});

test('a renewal made after the lapse covers only from its effective date', () => {
  const late: GrantFacts = { id: '2', grantedOn: '2024-01-10', validUntil: '2025-01-09', events: [{ kind: SealEventKind.RENEWED, effectiveOn: '2025-02-01', validUntil: '2027-01-31', reason: null }] };
  expect(at('2025-01-20', [late])).toEqual([false, 'SEAL_EXPIRED', '2']);
  expect(at('2025-02-01', [late])).toEqual([true, 'SEAL_REGULAR', '2']);
  expect(at('2027-01-31', [late])).toEqual([true, 'SEAL_REGULAR', '2']);
  expect(at('2027-02-01', [late])).toEqual([false, 'SEAL_EXPIRED', '2']);
});

test('a new grant after a cancelled one restores regular standing', () => {
  const next: GrantFacts = { id: '9', grantedOn: '2026-09-01', validUntil: '2028-08-31', events: [] };
  expect(at('2026-08-31', [grant, next])).toEqual([false, 'SEAL_CANCELLED', '7']);
  expect(at('2026-09-01', [grant, next])).toEqual([true, 'SEAL_REGULAR', '9']);
});

test('no grant at all', () => {
  expect(at('2025-01-01', [])).toEqual([false, 'NO_SEAL_GRANT', null]);
});

test('the reason says why, with the event reason', () => {
  expect(findingMessage(sealStanding([grant], '2025-06-15').reason)).toContain('suspended since 2025-06-01 (audit)');
  expect(sealStanding([grant], '2025-06-15').reason.legalBasis).toContain('art. 6º §2º');
});

/**
 * Art. 4º V (validity) with art. 4º I (suspension, cancellation); docs/LAW.md "Selo standing": a
 * grant from 2025-01-01 to 2025-06-30, suspended from 2025-03-01 and never reinstated. The
 * suspension withholds only the validity still running: from 2025-07-01 no grant covers the date,
 * so the grant is expired, not suspended.
 */
test('a suspended grant whose validity has ended is expired, not suspended (art. 4º V)', () => {
  const suspended: GrantFacts = {
    id: '3', grantedOn: '2025-01-01', validUntil: '2025-06-30',
    events: [{ kind: SealEventKind.SUSPENDED, effectiveOn: '2025-03-01', validUntil: null, reason: null }],
  };
  expect(at('2025-02-28', [suspended])).toEqual([true, 'SEAL_REGULAR', '3']);
  expect(at('2025-03-01', [suspended])).toEqual([false, 'SEAL_SUSPENDED', '3']);
  expect(at('2025-06-30', [suspended])).toEqual([false, 'SEAL_SUSPENDED', '3']);
  expect(at('2025-07-01', [suspended])).toEqual([false, 'SEAL_EXPIRED', '3']);
  expect(at('2025-12-31', [suspended])).toEqual([false, 'SEAL_EXPIRED', '3']);
});

/**
 * Art. 4º I (cancellation): a cancellation ends the grant for good. Cancelled on 2025-04-01, within
 * its validity (to 2025-06-30): cancelled on every later day, after the validity too. Cancelled on
 * 2025-08-01, after the validity ended: expired until then, cancelled from that day.
 */
test('a cancellation stays the reason after the validity ends; before it, an ended validity is expiry', () => {
  const within: GrantFacts = {
    id: '4', grantedOn: '2025-01-01', validUntil: '2025-06-30',
    events: [{ kind: SealEventKind.CANCELLED, effectiveOn: '2025-04-01', validUntil: null, reason: null }],
  };
  expect(at('2025-03-31', [within])).toEqual([true, 'SEAL_REGULAR', '4']);
  expect(at('2025-04-01', [within])).toEqual([false, 'SEAL_CANCELLED', '4']);
  expect(at('2025-07-01', [within])).toEqual([false, 'SEAL_CANCELLED', '4']);
  expect(at('2025-12-31', [within])).toEqual([false, 'SEAL_CANCELLED', '4']);
  const after: GrantFacts = {
    id: '5', grantedOn: '2025-01-01', validUntil: '2025-06-30',
    events: [
      { kind: SealEventKind.SUSPENDED, effectiveOn: '2025-03-01', validUntil: null, reason: null },
      { kind: SealEventKind.CANCELLED, effectiveOn: '2025-08-01', validUntil: null, reason: null },
    ],
  };
  expect(at('2025-07-31', [after])).toEqual([false, 'SEAL_EXPIRED', '5']);
  expect(at('2025-08-01', [after])).toEqual([false, 'SEAL_CANCELLED', '5']);
});
