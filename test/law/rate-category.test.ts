import { familyFarmingOrigin } from '../../src/law/family-farming';
import { isPriorityRegion, municipalityFacts } from '../../src/law/municipality';
import { rateCategory, LotFacts } from '../../src/law/rate-category';
import { Feedstock, Region, SupplierKind } from '../../src/law/types';
import cases from './cases/rate-category.json';

interface Case {
  name: string;
  provision: string;
  lot: { feedstock: string; origin: { region: string; semiarid: boolean }; familyFarmingOrigin: boolean; sealRegular: boolean; imported: boolean; familyFarmingSupplier?: { kind: string; farmerEligible?: boolean } };
  category: string;
  reasons: string[];
}

function facts(c: Case): LotFacts {
  const supplier = c.lot.familyFarmingSupplier;
  return {
    feedstock: c.lot.feedstock as Feedstock,
    origin: { region: c.lot.origin.region as Region, semiarid: c.lot.origin.semiarid },
    familyFarmingOrigin: c.lot.familyFarmingOrigin,
    sealRegular: c.lot.sealRegular,
    imported: c.lot.imported,
    familyFarmingFindings: supplier
      ? familyFarmingOrigin({ kind: supplier.kind as SupplierKind, farmer: { eligible: supplier.farmerEligible ?? false, findings: [] } }).findings
      : undefined,
  };
}

describe('rate category of a lot (Decreto 10.527/2020, arts. 5º and 6º)', () => {
  test.each((cases.cases as Case[]).map((c) => [`${c.provision} — ${c.name}`, c] as const))('%s', (_name, c) => {
    const decision = rateCategory(facts(c));
    expect(decision.category).toBe(c.category);
    expect(decision.reasons.map((r) => r.code)).toEqual(c.reasons);
    expect(decision.legalBasis).toMatch(/Decreto 10\.527\/2020, art\. [56]º/);
  });

  test('the legal basis names the inciso of art. 6º that applies, and §2º where the Selo is a condition', () => {
    const base = { origin: { region: Region.NORTHEAST, semiarid: false }, imported: false } as const;
    expect(rateCategory({ ...base, feedstock: Feedstock.SOYBEAN, familyFarmingOrigin: true, sealRegular: true }).legalBasis).toBe('Decreto 10.527/2020, art. 6º, III, §1º, III and §2º');
    expect(rateCategory({ ...base, feedstock: Feedstock.CASTOR_BEAN, familyFarmingOrigin: false, sealRegular: true }).legalBasis).toBe('Decreto 10.527/2020, art. 6º, I and §1º, I');
    expect(rateCategory({ ...base, feedstock: Feedstock.SOYBEAN, familyFarmingOrigin: true, sealRegular: true, imported: true }).legalBasis).toContain('art. 6º §5º');
  });

  test('every case file entry names its provision', () => {
    for (const c of cases.cases as Case[]) expect(c.provision).toMatch(/(Decreto|Lei) /);
  });
});

test('a Semiárido municipality of Minas Gerais (Montes Claros, IBGE 3143302) is in the Southeast yet in the priority region (art. 6º I and III: "e no Semiárido")', () => {
  const facts = municipalityFacts('3143302')!;
  expect(facts).toEqual({ state: 'MG', region: Region.SOUTHEAST });
  expect(isPriorityRegion({ region: facts.region, semiarid: true })).toBe(true);
  expect(isPriorityRegion({ region: facts.region, semiarid: false })).toBe(false);
  const lot = { feedstock: Feedstock.SOYBEAN, origin: { region: facts.region, semiarid: true }, familyFarmingOrigin: true, sealRegular: true, imported: false };
  expect(rateCategory(lot).category).toBe('FAMILY_FARMING_PRIORITY_REGION');
});
