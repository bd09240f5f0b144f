import { NoRuleInForceError } from '../../src/law/errors';
import { createLawBook } from '../../src/law/law-book';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { Region } from '../../src/law/types';

const law = createLawBook(SHIPPED_LAW);
const K = '2026-12-03';

describe('Selo parameters (Decreto 10.527/2020, arts. 3º §3º and 4º VI; Portaria Interministerial MME/MDA nº 2/2023)', () => {
  test('art. 4º VI: no cooperative member minimum is shipped (no source publishes one)', () => {
    expect(law.cooperativeMinFamilyFarmerShare('2020-10-23', K)).toBeUndefined();
    expect(law.cooperativeMinFamilyFarmerShare('2025-06-01', K)).toBeUndefined();
    expect(law.versions('cooperative-min-family-farmer-share')).toEqual([]);
  });

  test.each([
    [Region.NORTH, false, '0.15'],
    [Region.CENTER_WEST, false, '0.15'],
    [Region.NORTHEAST, false, '0.3'],
    [Region.SOUTHEAST, false, '0.3'],
    [Region.SOUTH, false, '0.4'],
    [Region.SOUTHEAST, true, '0.3'], // a plant in the Semiárido of Minas Gerais
  ])('art. 3º §3º I (Portaria MAPA 144/2019, secondary): minimum share for a plant in %s (semiarid %s) = %s', (region, semiarid, share) => {
    const v = law.minimumSpendingShare({ region, semiarid }, '2025-06-01', K);
    expect(v.value.toString()).toBe(share);
    expect(v.legalBasis).toContain('secondary source');
  });

  test('Portaria Interministerial MME/MDA nº 2/2023: 10% in 2024, 15% in 2025, 20% from 2026 on', () => {
    expect(law.priorityRegionMinShare('2024-01-01', K).value.toString()).toBe('0.1');
    expect(law.priorityRegionMinShare('2024-12-31', K).value.toString()).toBe('0.1');
    expect(law.priorityRegionMinShare('2025-01-01', K).value.toString()).toBe('0.15');
    expect(law.priorityRegionMinShare('2025-12-31', K).value.toString()).toBe('0.15');
    expect(law.priorityRegionMinShare('2026-01-01', K).value.toString()).toBe('0.2');
    expect(law.priorityRegionMinShare('2030-06-30', K).value.toString()).toBe('0.2');
    expect(() => law.priorityRegionMinShare('2023-12-31', K)).toThrow(NoRuleInForceError);
  });

  test('weighting factors of art. 3º §2º I a, b, c: 1 each, marked for confirmation', () => {
    for (const kind of ['FAMILY_FARMING_ACQUISITION', 'OTHER_PRODUCT', 'FOMENTO'] as const) {
      const v = law.weightingFactor(kind, '2025-06-01', K);
      expect(v.value.toString()).toBe('1');
      expect(v.note).toMatch(/Marked for confirmation/);
    }
  });

  test('the Selo goes on after PIS/Cofins end (docs/LAW.md): its parameters are in force in 2027', () => {
    expect(law.priorityRegionMinShare('2027-06-01', K).value.toString()).toBe('0.2');
  });

  test('a confirmed value published later wins from its publication, the shipped one stays for what was known before', () => {
    const book = createLawBook([
      ...SHIPPED_LAW,
      { parameter: 'cooperative-min-family-farmer-share', scope: null, value: { share: '0.7' }, validFrom: '2026-01-01', validUntil: null, publishedOn: '2026-02-01', legalBasis: 'Portaria MDA hipotética, art. 2º' },
    ]);
    expect(book.cooperativeMinFamilyFarmerShare('2026-06-01', '2026-03-01')?.value.toString()).toBe('0.7');
    expect(book.cooperativeMinFamilyFarmerShare('2026-06-01', '2026-01-15')).toBeUndefined();
    expect(book.cooperativeMinFamilyFarmerShare('2025-06-01', '2026-03-01')).toBeUndefined();
  });
});
