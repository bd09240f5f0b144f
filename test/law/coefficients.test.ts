import { translate } from '../../src/i18n';
import { Decimal } from '../../src/law/decimal';
import { NoRuleInForceError } from '../../src/law/errors';
import { createLawBook } from '../../src/law/law-book';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { BlendRule, RateCategory } from '../../src/law/types';

const law = createLawBook(SHIPPED_LAW);
const TODAY = '2026-12-03';

/** The four rules as [coefficient, PIS, Cofins] strings. */
function figures(on: string, asKnownOn = TODAY) {
  const rules = law.coefficientRules(on, asKnownOn);
  return Object.fromEntries(Object.values(RateCategory).map((c) => [c, [rules[c].value.coefficient, rules[c].value.pisPerM3, rules[c].value.cofinsPerM3].map((d) => d.toFixed(d.decimalPlaces() ? undefined : 0))]));
}
const money = (s: string) => new Decimal(s);

describe('Decreto 10.527/2020, arts. 5º and 6º: the published figures from 2020-10-23', () => {
  test('art. 5º caput and §1º: general 0,7802, R$ 26,41 and R$ 121,59 per m³', () => {
    const g = law.coefficientRules('2020-10-23', TODAY).GENERAL;
    expect(g.value.coefficient.equals(money('0.7802'))).toBe(true);
    expect(g.value.pisPerM3.equals(money('26.41'))).toBe(true);
    expect(g.value.cofinsPerM3.equals(money('121.59'))).toBe(true);
    expect(g.legalBasis).toBe('Decreto 10.527/2020, art. 5º, caput and §1º');
  });

  test('art. 6º I and §1º I: castor/palm 0,8129, R$ 22,48 and R$ 103,51', () => {
    const r = law.coefficientRules('2025-05-05', TODAY).CASTOR_PALM_PRIORITY_REGION;
    expect([r.value.coefficient, r.value.pisPerM3, r.value.cofinsPerM3].map(String)).toEqual(['0.8129', '22.48', '103.51']);
  });

  test('art. 6º §1º I: the published Cofins R$ 103,51 is the law, not 553,19 × (1 − 0,8129) = 103,5018', () => {
    const derived = money('553.19').times(money('1').minus(money('0.8129')));
    expect(derived.toString()).toBe('103.501849'); // 553,19 × 0,1871 = 99,5742 + 3,927649, exact
    expect(derived.toDecimalPlaces(4).toString()).toBe('103.5018');
    const published = law.coefficientRules('2025-05-05', TODAY).CASTOR_PALM_PRIORITY_REGION.value.cofinsPerM3;
    expect(published.toString()).toBe('103.51');
    expect(published.equals(derived)).toBe(false);
    expect(published.equals(derived.toDecimalPlaces(2))).toBe(false); // rounding the product gives 103.50
    // and the PIS: 120,14 × 0,1871 = 22,478194, published 22,48
    expect(money('120.14').times('0.1871').toString()).toBe('22.478194');
  });

  test('art. 6º II and §1º II: family farming 0,9135, R$ 10,39 and R$ 47,85', () => {
    const r = law.coefficientRules('2025-05-05', TODAY).FAMILY_FARMING;
    expect([r.value.coefficient, r.value.pisPerM3, r.value.cofinsPerM3].map(String)).toEqual(['0.9135', '10.39', '47.85']);
  });

  test('art. 6º III and §1º III: family farming in the priority region 1, R$ 0,00', () => {
    const r = law.coefficientRules('2025-05-05', TODAY).FAMILY_FARMING_PRIORITY_REGION;
    expect([r.value.coefficient, r.value.pisPerM3, r.value.cofinsPerM3].map(String)).toEqual(['1', '0', '0']);
  });

  test('exactly the four categories, each with its own legal basis and the decree\'s publication date', () => {
    const rules = law.coefficientRules('2024-01-01', TODAY);
    expect(Object.keys(rules).sort()).toEqual(Object.values(RateCategory).sort());
    for (const r of Object.values(rules)) {
      expect(r.publishedOn).toBe('2020-10-23');
      expect(r.validFrom).toBe('2020-10-23');
    }
  });

  test('on 2020-10-23 (DOU, in force on publication, art. 10) the rules are those of Decreto 10.527/2020', () => {
    for (const rule of Object.values(law.coefficientRules('2020-10-23', TODAY))) expect(rule.legalBasis).toMatch(/^Decreto 10\.527\/2020/);
  });

  test('as known before the decree was published, nothing is known', () => {
    expect(() => law.coefficientRules('2021-01-01', '2020-10-22')).toThrow(NoRuleInForceError);
  });
});

describe('Decreto 7.768/2012 (DOU 28/06/2012), revoked by Decreto 10.527/2020 art. 9º III: the months before 2020-10-23', () => {
  test('2020-10-22: the same figures (secondary source), every legal basis naming the revoked decree', () => {
    // related-law.md: Decreto 7.768/2012 — 0,7802, 0,8129, 0,9135 and the current R$ amounts (secondary).
    expect(figures('2020-10-22')).toEqual({
      GENERAL: ['0.7802', '26.41', '121.59'],
      CASTOR_PALM_PRIORITY_REGION: ['0.8129', '22.48', '103.51'],
      FAMILY_FARMING: ['0.9135', '10.39', '47.85'],
      FAMILY_FARMING_PRIORITY_REGION: ['1', '0', '0'],
    });
    for (const rule of Object.values(law.coefficientRules('2020-10-22', TODAY))) {
      expect(rule.legalBasis).toContain('Decreto 7.768/2012');
      expect(rule.legalBasis).toContain('revoked by Decreto 10.527/2020, art. 9º III');
      expect([rule.validFrom, rule.validUntil, rule.publishedOn]).toEqual(['2012-06-28', '2020-10-22', '2012-06-28']);
      expect(rule.note).toMatch(/Marked for confirmation/);
    }
    expect(law.coefficientRules('2012-06-28', TODAY).GENERAL.legalBasis).toContain('Decreto 7.768/2012');
  });
  test('before 2012-06-28 nothing is shipped: NO_RULE_IN_FORCE; as known before its publication, nothing either', () => {
    expect(() => law.coefficientRules('2012-06-27', TODAY)).toThrow(NoRuleInForceError);
    expect(() => law.coefficientRules('2015-01-01', '2012-06-27')).toThrow(NoRuleInForceError);
  });
  test('the rules of the blend are cited from the act in force: the statute under Decreto 7.768/2012, then Decreto 10.527/2020 art. 6º', () => {
    expect(law.blendRule(BlendRule.COST_WEIGHTED, '2020-10-22', TODAY)?.legalBasis).toMatch(/^Lei 11\.116\/2005, art\. 5º §4º .*Decreto 7\.768\/2012/);
    expect(law.blendRule(BlendRule.COST_WEIGHTED, '2020-10-23', TODAY)?.legalBasis).toMatch(/^Decreto 10\.527\/2020, art\. 6º §3º/);
    expect(law.blendRule(BlendRule.IMPORTED_AT_GENERAL, '2020-10-22', TODAY)?.legalBasis).toContain('Decreto 7.768/2012');
    expect(law.blendRule(BlendRule.IMPORTED_AT_GENERAL, '2020-10-23', TODAY)?.legalBasis).toMatch(/^Decreto 10\.527\/2020, art\. 6º §5º/);
  });
  test('October 2020 changes rules on the 23rd (a segment boundary)', () => {
    expect(law.changeDates('2020-10-01', '2020-10-31', TODAY)).toEqual(['2020-10-23']);
  });
});

describe('Decreto 10.527/2020, art. 5º §§2º–4º: the 2026 zero window, both versions (docs/LAW.md)', () => {
  const zero = [['1', '0', '0']];
  test('the day before the window (2026-04-06): the usual figures', () => {
    expect(figures('2026-04-06').GENERAL).toEqual(['0.7802', '26.41', '121.59']);
  });
  test('the first day (2026-04-07): coefficient 1 and R$ 0,00 for every category (§4º extends it to art. 6º)', () => {
    for (const f of Object.values(figures('2026-04-07'))) expect([f]).toEqual(zero);
  });
  test('as known on 2026-04-06, the day before Decreto 12.923/2026 was published, April 7 is not zero', () => {
    expect(figures('2026-04-07', '2026-04-06').GENERAL).toEqual(['0.7802', '26.41', '121.59']);
  });
  test('first version: last day 2026-05-31; June 2026 as known on 2026-05-20 → general 26,41 / 121,59', () => {
    expect(figures('2026-05-31', '2026-05-20').CASTOR_PALM_PRIORITY_REGION).toEqual(['1', '0', '0']);
    expect(figures('2026-06-01', '2026-05-20').GENERAL).toEqual(['0.7802', '26.41', '121.59']);
    expect(figures('2026-06-15', '2026-05-20').FAMILY_FARMING).toEqual(['0.9135', '10.39', '47.85']);
  });
  test('the extension (seeded as published 2026-05-31): June 2026 as known today → zero', () => {
    expect(figures('2026-06-15').GENERAL).toEqual(['1', '0', '0']);
    expect(figures('2026-06-15', '2026-05-31').GENERAL).toEqual(['1', '0', '0']);
    expect(figures('2026-06-15', '2026-05-30').GENERAL).toEqual(['0.7802', '26.41', '121.59']);
  });
  test('the last day of the extended window (2026-07-31) is zero; 2026-08-01 is back to the figures of arts. 5º and 6º', () => {
    for (const f of Object.values(figures('2026-07-31'))) expect([f]).toEqual(zero);
    expect(figures('2026-08-01').GENERAL).toEqual(['0.7802', '26.41', '121.59']);
    expect(figures('2026-08-01').CASTOR_PALM_PRIORITY_REGION).toEqual(['0.8129', '22.48', '103.51']);
  });
  test('the zero-window versions cite art. 5º §§2º–4º and say where the publication date is not in our sources', () => {
    const first = law.coefficientRules('2026-05-01', '2026-05-20').GENERAL;
    expect(first.legalBasis).toContain('Decreto 12.923/2026');
    expect(first.publishedOn).toBe('2026-04-07');
    const ext = law.coefficientRules('2026-05-01', TODAY).GENERAL;
    expect(ext.validUntil).toBe('2026-07-31');
    expect(ext.publishedOn).toBe('2026-05-31');
    expect(ext.note).toMatch(/not in our sources/);
  });
});

describe('EC 132/2023, ADCT art. 126, II: end of PIS/Pasep and Cofins from 2027-01-01', () => {
  test('2026-12-31 still has the four rules; 2027-01-01 fails with NO_RULE_IN_FORCE naming EC 132/2023', () => {
    expect(figures('2026-12-31').GENERAL).toEqual(['0.7802', '26.41', '121.59']);
    let error: unknown;
    try {
      law.coefficientRules('2027-01-01', '2027-01-02');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NoRuleInForceError);
    expect((error as NoRuleInForceError).code).toBe('NO_RULE_IN_FORCE');
    expect((error as Error).message).toContain('EC 132/2023');
    expect(translate((error as NoRuleInForceError).text)).toMatch(/^PIS\/Pasep and Cofins are extinct from 2027-01-01 and replaced by the CBS \(EC 132\/2023.*\): no PIS\/Cofins rule is in force on 2027-01-01$/);
    expect((error as NoRuleInForceError).legalBasis).toContain('ADCT art. 126, II');
  });
  test('the ad valorem rates and the per-m³ bases end too', () => {
    expect(() => law.adValoremRates('2027-03-01', TODAY)).toThrow(/EC 132\/2023/);
    expect(() => law.specialRegimeBase('2027-03-01', TODAY)).toThrow(/EC 132\/2023/);
    expect(() => law.assertPisCofinsInForce('2026-12-31', TODAY)).not.toThrow();
  });
});

describe('Lei 11.116/2005, arts. 3º and 4º', () => {
  test('art. 3º: 6,15% PIS/Pasep and 28,32% Cofins, as fractions', () => {
    const r = law.adValoremRates('2026-06-15', TODAY).value;
    expect(r.pis.toString()).toBe('0.0615');
    expect(r.cofins.toString()).toBe('0.2832');
    // 6,15% of R$ 1.000.000,00 = R$ 61.500,00; 28,32% = R$ 283.200,00
    expect(r.pis.times(1000000).toString()).toBe('61500');
    expect(r.cofins.times(1000000).toString()).toBe('283200');
  });
  test('art. 4º: R$ 120,14 and R$ 553,19 per m³ (the amounts art. 5º reduces)', () => {
    const b = law.specialRegimeBase('2024-02-01', TODAY).value;
    expect(b.pisPerM3.toString()).toBe('120.14');
    expect(b.cofinsPerM3.toString()).toBe('553.19');
    // general: 120,14 × (1 − 0,7802) = 26,406772, published 26,41 (the published amount governs)
    expect(b.pisPerM3.times(new Decimal(1).minus('0.7802')).toString()).toBe('26.406772');
  });
});

describe('changeDates: the days the coefficient rules change (segments of a tax period)', () => {
  test('April 2026 as known today: the window opens on the 7th', () => {
    expect(law.changeDates('2026-04-01', '2026-04-30', TODAY)).toEqual(['2026-04-07']);
  });
  test('June 2026: no change as known today; as known on 2026-05-20 the rules change on 06-01 (the window then ended on 05-31)', () => {
    expect(law.changeDates('2026-06-01', '2026-06-30', TODAY)).toEqual([]);
    expect(law.changeDates('2026-06-01', '2026-06-30', '2026-05-20')).toEqual(['2026-06-01']);
    expect(law.changeDates('2026-05-01', '2026-06-30', '2026-05-20')).toEqual(['2026-06-01']);
  });
  test('August 2026: the window has ended on 07-31', () => {
    expect(law.changeDates('2026-07-01', '2026-08-31', TODAY)).toEqual(['2026-08-01']);
  });
  test('the first day of the range is listed only if the rules change on it', () => {
    expect(law.changeDates('2026-04-07', '2026-04-30', TODAY)).toEqual(['2026-04-07']);
    expect(law.changeDates('2026-04-08', '2026-04-30', TODAY)).toEqual([]);
  });
  test('the end of PIS/Cofins is a change', () => {
    expect(law.changeDates('2026-12-01', '2027-01-31', TODAY)).toEqual(['2027-01-01']);
  });
  test('a version published later for one category adds its start and the day after its end', () => {
    const book = createLawBook([
      ...SHIPPED_LAW,
      { parameter: 'coefficient-rule', scope: 'GENERAL', value: { coefficient: '0.8', pisPerM3: '24.03', cofinsPerM3: '110.64' }, validFrom: '2025-03-10', validUntil: '2025-03-20', publishedOn: '2025-03-01', legalBasis: 'Decreto hipotético, art. 1º' },
    ]);
    expect(book.changeDates('2025-03-01', '2025-03-31', TODAY)).toEqual(['2025-03-10', '2025-03-21']);
    expect(book.changeDates('2025-03-01', '2025-03-31', '2025-02-28')).toEqual([]);
    expect(book.coefficientRules('2025-03-15', TODAY).GENERAL.value.pisPerM3.toString()).toBe('24.03');
    expect(book.coefficientRules('2025-03-15', TODAY).FAMILY_FARMING.value.pisPerM3.toString()).toBe('10.39');
  });
  test('a version of one day: the rules change on it and again the day after', () => {
    const book = createLawBook([
      ...SHIPPED_LAW,
      { parameter: 'coefficient-rule', scope: 'GENERAL', value: { coefficient: '0.8', pisPerM3: '24.03', cofinsPerM3: '110.64' }, validFrom: '2025-03-10', validUntil: '2025-03-10', publishedOn: '2025-03-01', legalBasis: 'Decreto hipotético, art. 1º' },
    ]);
    expect(book.changeDates('2025-03-01', '2025-03-31', TODAY)).toEqual(['2025-03-10', '2025-03-11']);
  });
});
