import { isIsoDate } from '../../src/law/dates';
import { createLawBook, versionProblems } from '../../src/law/law-book';
import { PARAMETER_FILES, SHIPPED_LAW } from '../../src/law/shipped-law';

/** STYLE (OpenFisca): every shipped value is cited; a test fails when one is not. */
describe('the shipped law is cited data', () => {
  test.each(SHIPPED_LAW.map((v) => [v.key, v] as const))('%s has a legal basis, a publication date (or a not-in-sources mark) and a well-formed value', (_key, v) => {
    expect(v.legalBasis.trim()).not.toBe('');
    expect(v.legalBasis).toMatch(/(Decreto|Lei|EC|Portaria)/);
    expect(isIsoDate(v.publishedOn)).toBe(true);
    expect(typeof v.publishedOnInSources).toBe('boolean');
    if (!v.publishedOnInSources) expect(v.note).toMatch(/[Pp]ublication date not in our sources|DOU date not in our sources/);
    expect(['confirmed', 'secondary', 'open']).toContain(v.status);
    if (v.status !== 'confirmed') expect(v.note).toMatch(/Marked for confirmation/);
    expect(versionProblems(v)).toEqual([]);
  });

  test('keys are unique and stable (they load each version once)', () => {
    const keys = SHIPPED_LAW.map((v) => v.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [path, file] of Object.entries(PARAMETER_FILES)) {
      for (const v of file.versions) expect(v.key.startsWith(path.split('/')[0] + '/')).toBe(true);
    }
  });

  test('every data file names its act and provision', () => {
    for (const file of Object.values(PARAMETER_FILES)) {
      expect(file.act.trim()).not.toBe('');
      expect(file.provision.trim()).not.toBe('');
      expect(file.versions.length).toBeGreaterThan(0);
    }
  });

  test('the shipped law builds a law book', () => {
    expect(() => createLawBook(SHIPPED_LAW)).not.toThrow();
  });

  test('a version without legal basis, with an unknown parameter, scope or value is refused', () => {
    const good = SHIPPED_LAW[0];
    expect(versionProblems({ ...good, legalBasis: ' ' }).map((p) => p[0])).toEqual(['legalBasis']);
    expect(versionProblems({ ...good, parameter: 'nope' }).map((p) => p[0])).toEqual(['parameter']);
    expect(versionProblems({ ...good, scope: 'EVERYWHERE' }).map((p) => p[0])).toEqual(['scope']);
    expect(versionProblems({ ...good, value: { ...good.value, coefficient: '1.2' } }).map((p) => p[0])).toEqual(['value.coefficient']);
    expect(versionProblems({ ...good, value: { ...good.value, pisPerM3: '-1' } }).map((p) => p[0])).toEqual(['value.pisPerM3']);
    expect(versionProblems({ ...good, validUntil: '2019-01-01' }).map((p) => p[0])).toEqual(['validUntil']);
    expect(() => createLawBook([{ ...good, legalBasis: '' }])).toThrow(/legalBasis/);
  });
});
