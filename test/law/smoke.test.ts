import { inForce } from '../../src/law/dated';

test('a later publication wins where validity overlaps (docs/LAW.md)', () => {
  const versions = [
    { value: 'a', validFrom: '2020-10-23', validUntil: null, publishedOn: '2020-10-23', legalBasis: 'x' },
    { value: 'b', validFrom: '2026-04-07', validUntil: '2026-05-31', publishedOn: '2026-04-07', legalBasis: 'y' },
  ];
  expect(inForce(versions, '2026-04-10', '2026-04-06')?.value).toBe('a');
  expect(inForce(versions, '2026-04-10', '2026-04-07')?.value).toBe('b');
  expect(inForce(versions, '2026-06-01', '2026-12-01')?.value).toBe('a');
});
