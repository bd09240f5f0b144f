import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGS, isMessageKey, LOCALES, message, recognise, translate } from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { FINDINGS } from '../../src/law/findings';
import { SEAL_COMPLIANCE_FINDINGS } from '../../src/law/seal-spending';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('the message catalogues', () => {
  test('every message has its text in every language, with the same placeholders', () => {
    const keys = Object.keys(en);
    expect(keys.length).toBeGreaterThan(150);
    for (const locale of LOCALES) {
      expect(Object.keys(CATALOGS[locale]).sort()).toEqual([...keys].sort());
      for (const key of keys) {
        const text = CATALOGS[locale][key as keyof typeof en];
        expect({ key, locale, empty: text.trim() === '' }).toEqual({ key, locale, empty: false });
        expect({ key, locale, placeholders: placeholders(text) }).toEqual({ key, locale, placeholders: placeholders(en[key as keyof typeof en]) });
      }
    }
  });

  test('the Portuguese texts are translations, not copies of the English', () => {
    // text.asIs is the text of an error raised in English that matches no message: shown as it is.
    const copies = Object.keys(en).filter((key) => key !== 'text.asIs' && CATALOGS['pt-BR'][key as keyof typeof en] === en[key as keyof typeof en]);
    expect(copies).toEqual([]);
  });

  test('every finding code has its description in English and Portuguese', () => {
    const codes = [...Object.keys(FINDINGS), ...Object.keys(SEAL_COMPLIANCE_FINDINGS)];
    expect(codes).toContain('NO_PRIOR_CONTRACT');
    expect(codes).toContain('ZERO_BASE');
    for (const code of codes) {
      const key = `finding.${code}` as keyof typeof en;
      expect(en[key]).toBeDefined();
      expect(translate(message(key), 'pt-BR')).not.toBe(translate(message(key), 'en'));
    }
    expect(translate(message('finding.NO_REGIME_ELECTION'), 'pt-BR')).toBe('Nenhuma opção registrada rege o ano (nenhuma feita, ou nenhuma ainda em vigor): apurado ad valorem.');
  });

  test('every message key the law says (src/law, which does not import the catalogues) has its text in every language', () => {
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    const source = files(join(__dirname, '../../src/law')).map((f) => readFileSync(f, 'utf8')).join('\n');
    const literal = [...source.matchAll(/'((?:finding|law|word|input)\.[A-Za-z_.]+)'/g)].map((m) => m[1]);
    // The keys built from a code: each code's description, and the grant events' (seal-standing.ts).
    const codes = [...Object.keys(FINDINGS), ...Object.keys(SEAL_COMPLIANCE_FINDINGS)];
    const built = [...codes.map((c) => `finding.${c}`), ...['SEAL_CANCELLED', 'SEAL_SUSPENDED'].flatMap((c) => [`finding.${c}.grant`, `finding.${c}.grantWithReason`])];
    expect(literal.length).toBeGreaterThan(40);
    expect(source).toContain('`finding.${code}.grantWithReason`');
    const missing = [...new Set([...literal, ...built])].filter((key) => !isMessageKey(key));
    expect(missing).toEqual([]);
    for (const locale of LOCALES) for (const key of built) expect(translate(message(key as keyof typeof en), locale)).not.toBe(key);
  });

  test('nested messages and lists are rendered in the same language', () => {
    const text = message('finding.CONTRACT_NOT_COVERING.missing', { missing: [message('word.date'), message('word.counterparty')] });
    expect(translate(text)).toBe("The contract does not cover the purchase's date, counterparty.");
    expect(translate(text, 'pt-BR')).toBe('O contrato não cobre a data, a contraparte da compra.');
  });

  test("graphql-js's messages are recognised from their English templates, the more specific first", () => {
    expect(recognise('Variable "$input" got invalid value 1.5 at "input[0].cost"; Int cannot represent non-integer value: 1.5')).toEqual(
      message('graphql.variableInvalidAt', { variable: '$input', value: '1.5', path: 'input[0].cost', detail: message('graphql.intNotInteger', { value: '1.5' }) }),
    );
    expect(translate(recognise('Cannot query field "nme" on type "Producer".')!, 'pt-BR')).toBe('Não é possível consultar o campo "nme" no tipo "Producer".');
    expect(recognise('Something else entirely.')).toBeNull();
    expect(recognise('Reopening a closed tax period needs a reason')).toBeNull();
    expect(recognise('Reopening a closed tax period needs a reason', true)).toEqual(message('period.reopenNeedsReason', {}));
  });
});
