import { priorityRegionOn, SemiaridInterval, semiaridOn } from '../../src/law/municipality';

/**
 * The Semiárido on a date (Decreto 10.527/2020, art. 6º I and III; art. 3º §2 I b–c): intervals
 * with both ends inclusive, an undated one (validFrom null) reaching back before any record.
 */
const JANAUBA = '3135100'; // MG, Sudeste
const history: SemiaridInterval[] = [
  { validFrom: '2017-12-05', validUntil: '2021-12-29', act: 'Res. 115/2017' },
  { validFrom: '2021-12-30', validUntil: '2024-01-02', act: 'Res. 150/2021' },
];

test('in the Semiárido from the first day of an interval to its last, not the day before or after', () => {
  expect(['2017-12-04', '2017-12-05', '2021-12-29', '2021-12-30', '2024-01-02', '2024-01-03'].map((d) => semiaridOn(history, d)))
    .toEqual([false, true, true, true, true, false]);
  expect(semiaridOn([{ validFrom: null, validUntil: null, act: 'undated' }], '1990-01-01')).toBe(true);
  expect(semiaridOn([{ validFrom: '2024-01-03', validUntil: null, act: 'Res. 176/2024' }], '2099-12-31')).toBe(true);
  expect(semiaridOn([], '2025-01-01')).toBe(false);
});

test('the priority region on a date: North and Northeast by the IBGE code whatever the date, a Sudeste municipality by its Semiárido membership then', () => {
  expect([priorityRegionOn(JANAUBA, history, '2023-06-30'), priorityRegionOn(JANAUBA, history, '2025-06-30')]).toEqual([true, false]);
  expect(priorityRegionOn('2611606', [], '2025-06-30')).toBe(true); // Recife, Nordeste
  expect(priorityRegionOn('1501402', [], '2025-06-30')).toBe(true); // Belém, Norte
  expect(priorityRegionOn('4314902', [], '2025-06-30')).toBe(false); // Porto Alegre, Sul
});
