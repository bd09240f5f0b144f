import fc from 'fast-check';
import { addDays, firstDayOfMonth, IsoDate, lastDayOfMonth } from '../../src/law/dates';
import { createLawBook, LawBook, LawVersionRecord } from '../../src/law/law-book';
import { GrantFacts, SealEventFacts, sealStanding } from '../../src/law/seal-standing';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { taxSegments } from '../../src/law/tax-period';
import { versionKey } from '../../src/law/tax-period/types';
import { SealEventKind } from '../../src/law/types';
import { checkProperty } from '../support/property';

/**
 * The tax month's segments (docs/LAW.md) are runs of the parameter timeline (src/law/timeline.ts),
 * looked at only on the days a version or the Selo standing may change. Here they are checked
 * against the month cut day by day — each day's coefficient rules (LawBook.changeDates), standing
 * and ad valorem rates compared with the day before's — on generated grants and law versions.
 */

/** The month cut day by day: a segment starts wherever the rules, the standing or the ad valorem rates differ from the day before. */
function dayByDay(law: LawBook, grants: readonly GrantFacts[], year: number, month: number, asKnownOn: IsoDate) {
  const first = firstDayOfMonth(year, month);
  const last = lastDayOfMonth(year, month);
  const cuts = new Set(law.changeDates(first, last, asKnownOn));
  const days: IsoDate[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) days.push(d);
  const regular = days.map((d) => sealStanding(grants, d).regular);
  const pisCofins = days.map((d) => !law.pisCofinsExtinction(d, asKnownOn));
  const adValorem = days.map((d, i) => (pisCofins[i] ? versionKey(law.adValoremRates(d, asKnownOn)) : ''));
  for (let i = 1; i < days.length; i++) if (regular[i] !== regular[i - 1] || adValorem[i] !== adValorem[i - 1]) cuts.add(days[i]);
  const starts = [first, ...[...cuts].filter((d) => d > first).sort()];
  return starts.map((from, i) => {
    const index = days.indexOf(from);
    return { from, to: i + 1 < starts.length ? addDays(starts[i + 1], -1) : last, pisCofins: pisCofins[index], sealRegular: regular[index] };
  });
}

/** Months where the shipped law changes (2020-10-23, 2026-04-07, 2026-08-01, 2027-01-01) and one where it does not. */
const MONTHS: Array<[number, number]> = [[2020, 10], [2026, 4], [2026, 5], [2026, 7], [2026, 8], [2026, 12], [2027, 1]];

const day = (base: IsoDate, span: number) => fc.integer({ min: -span, max: span }).map((n) => addDays(base, n));

test('taxSegments agrees with the month cut day by day, on generated grants, events and ad valorem versions', () => {
  const arbitrary = fc.constantFrom(...MONTHS).chain(([year, month]) => {
    const mid = firstDayOfMonth(year, month).slice(0, 8) + '15';
    const event: fc.Arbitrary<SealEventFacts> = fc.record({
      kind: fc.constantFrom(...Object.values(SealEventKind)), effectiveOn: day(mid, 20),
      validUntil: fc.option(day(mid, 20), { nil: null }), reason: fc.constant(null),
    }).map((e) => ({ ...e, validUntil: e.kind === SealEventKind.RENEWED ? e.validUntil ?? addDays(mid, 40) : null }));
    const grant = fc.tuple(day(mid, 40), day(mid, 25), fc.array(event, { maxLength: 4 }))
      .map(([grantedOn, until, events]) => ({ grantedOn, validUntil: until < grantedOn ? grantedOn : until, events }));
    const rates = fc.record({
      validFrom: day(mid, 20), length: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }), publishedOn: day(mid, 30),
      pis: fc.constantFrom('0.0615', '0.05'),
    });
    return fc.record({
      year: fc.constant(year), month: fc.constant(month), asKnownOn: day(mid, 30),
      grants: fc.array(grant, { maxLength: 3 }).map((gs) => gs.map((g, i): GrantFacts => ({ id: String(i + 1), ...g }))),
      rates: fc.array(rates, { maxLength: 2 }),
    });
  });
  let cut = 0;
  checkProperty(fc.property(arbitrary, ({ year, month, asKnownOn, grants, rates }) => {
    const extra: LawVersionRecord[] = rates.map((r, i) => ({
      id: `rates-${i}`, parameter: 'ad-valorem-rates', scope: null, value: { pis: r.pis, cofins: '0.2832' },
      validFrom: r.validFrom, validUntil: r.length === null ? null : addDays(r.validFrom, r.length), publishedOn: r.publishedOn, legalBasis: 'generated',
    }));
    const law = createLawBook([...(SHIPPED_LAW as readonly LawVersionRecord[]), ...extra]);
    const segments = taxSegments(law, grants, year, month, asKnownOn);
    const expected = dayByDay(law, grants, year, month, asKnownOn);
    if (expected.length > 1) cut++;
    expect(segments.map(({ from, to, pisCofins, sealRegular }) => ({ from, to, pisCofins, sealRegular }))).toEqual(expected);
    for (const s of segments) expect(s.standing).toEqual(sealStanding(grants, s.from));
  }), { numRuns: 400 });
  // The generated months are cut often enough for the comparison to mean something.
  expect(cut).toBeGreaterThan(100);
});
