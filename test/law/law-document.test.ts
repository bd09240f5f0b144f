import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { translate } from '../../src/i18n';
import { FINDINGS } from '../../src/law/findings';
import { SEAL_COMPLIANCE_FINDINGS } from '../../src/law/seal-spending';

/**
 * docs/LAW.md: "Where the law is ambiguous the choice is named Interpretation and must be written
 * down in docs/LAW.md of the project with the same words"; STYLE: and as an `Interpretation:`
 * comment at its line. docs/LAW.md: finding codes are stable and "a new situation gets a new code,
 * documented in docs/LAW.md".
 */

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
/** Whitespace (line breaks of the Markdown) does not matter; the words do. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const LAW = flat(read('docs/LAW.md'));

/** The interpretations docs/LAW.md must carry, word for word. */
const INTERPRETATIONS = [
  // §1.2, Decreto 10.527/2020 art. 6º §2º; Lei 11.116/2005 art. 5º §3º
  'purchases from *associations* count for the Selo (art. 2º V) but not for categories II/III.',
  // §1.3, Decreto 10.527/2020 art. 6º §4º
  'literal reading, all feedstocks together. Bought lots always weigh by their own cost (§3º).',
  'with no third-party acquisition in the period, own production is valued at the average price per kg of the third-party lots *used* in the period; with none used either (only own production), kg proportions are exact. Each fallback has its finding (`OWN_PRODUCTION_VALUED_BY_QUANTITY` for the last)',
  // §1.3, Decreto 10.527/2020 art. 6º §3º
  'no raw material used in the period (stock sold): the blend of the latest earlier period with raw material used applies, with a finding naming it; GENERAL only when there is none (`NO_FEEDSTOCK_IN_PERIOD`).',
];

test.each(INTERPRETATIONS)('docs/LAW.md carries each interpretation word for word: "%s"', (words) => {
  expect(LAW).toContain(flat(words));
});

test.each([
  ['src/law/family-farming.ts', /Interpretation: purchases from associations count for the Selo \(art\. 2º V\) but not for categories II\/III/],
  ['src/services/facts/supplier-eligibility.sql.ts', /Interpretation: purchases from associations count for the Selo/],
  ['src/law/tax-period/blend.ts', /Interpretation: literal reading, every non-own acquisition of the month \(purchasedOn\), all feedstocks together/],
  ['src/law/tax-period/blend.ts', /Interpretation: with no third-party acquisition in the month, the average price per kg of the third-party lots used in the month/],
  ['src/law/tax-period/blend.ts', /Interpretation: with only own production used, the weights are kilograms/],
  ['src/law/tax-period/period.ts', /Interpretation: no raw material used in the month \(stock sold\): the rate follows what the biodiesel was made from/],
])('%s has the `Interpretation:` comment at its line: %s', (path, comment) => {
  expect(flat(read(path).replace(/^\s*\/\/ ?/gm, ' ').replace(/^\s*\* ?/gm, ' '))).toMatch(comment);
});

const FINDING_CODES = [
  'NO_REGIME_ELECTION', 'NO_FEEDSTOCK_IN_PERIOD', 'OWN_PRODUCTION_VALUED_BY_QUANTITY', 'SEAL_NOT_REGULAR', 'SUPPLIER_NOT_ELIGIBLE',
  'ASSOCIATION_NOT_COOPERATIVE', 'REGISTRATION_NOT_VALID', 'MEMBER_SHARE_BELOW_MINIMUM', 'DAP_ISSUED_AFTER_CUTOFF', 'NO_CONTRACT',
  'NO_PRIOR_CONTRACT', 'CONTRACT_NOT_COVERING', 'PRICE_BELOW_MINIMUM', 'NO_TECHNICAL_ASSISTANCE', 'OUTSIDE_PRIORITY_REGION',
  'ELECTION_AFTER_DEADLINE',
];

test('every finding code of docs/LAW.md exists in the catalogue, with a message and a legal basis', () => {
  for (const code of FINDING_CODES) {
    expect(FINDINGS).toHaveProperty(code);
    const f = FINDINGS[code as keyof typeof FINDINGS];
    expect(translate(f.text).length).toBeGreaterThan(10);
    expect(f.legalBasis.length).toBeGreaterThan(5);
  }
});

test.each([...Object.keys(FINDINGS), ...Object.keys(SEAL_COMPLIANCE_FINDINGS)])('finding code %s is documented in docs/LAW.md', (code) => {
  expect(LAW).toContain(`\`${code}\``);
});
