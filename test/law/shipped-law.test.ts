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

  // docs/LAW.md, PUBLICATION_DATE_OPEN: the mark the law book reads, decided on every version
  // whose note says its publication date is not in our sources (never from a key).
  test.each(SHIPPED_LAW.map((v) => [v.key, v] as const))('%s: a publication date not in our sources is marked and decided open or anchored', (_key, v) => {
    const notInSources = /[Pp]ublication date not in our sources|DOU date not in our sources/.test(v.note ?? '');
    expect(!v.publishedOnInSources).toBe(notInSources);
    if (notInSources) expect(typeof v.publicationDateOpen).toBe('boolean');
    else expect(v.publicationDateOpen).toBeUndefined();
    // Open: a stand-in for a date our sources do not anchor, so the version itself is not confirmed.
    if (v.publicationDateOpen) expect(v.status).not.toBe('confirmed');
  });

  test('the extension of the 2026 window to 31/07/2026 is marked open, Decreto 12.923/2026 (the act\'s date) is not', () => {
    const window = SHIPPED_LAW.filter((v) => v.parameter === 'coefficient-rule' && v.validFrom === '2026-04-07');
    expect(window.filter((v) => v.publicationDateOpen).map((v) => [v.validUntil, v.publishedOn])).toEqual(Array(4).fill(['2026-07-31', '2026-05-31']));
    expect(window.filter((v) => !v.publicationDateOpen).map((v) => v.validUntil)).toEqual(Array(4).fill('2026-05-31'));
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
