import { IsoDate } from '../dates';
import { sum, toCentavos, ZERO } from '../decimal';
import { LawBook, LawRead } from '../law-book';
import { BlendRule, RateCategory } from '../types';
import { blendRuleBasis } from './explanation';
import { publicationDateFindings } from './publication';
import { ImportContributionsFigures, ImportFacts, ImportLineFigures, versionKey } from './types';

/**
 * PIS/Pasep- and Cofins-Importação (Decreto 10.527/2020 art. 5º §§1º, 3º; never art. 6º, §5º):
 * the general amounts on the clearance date, whatever the importer's regime, each declaration
 * rounded on its own (interpretations in docs/LAW.md).
 */
export function importContributions(law: LawBook, imports: readonly ImportFacts[], asKnownOn: IsoDate, lawVersions?: Set<string>): ImportContributionsFigures {
  const lines = [...imports].sort((a, b) => (a.clearedOn === b.clearedOn ? compareIds(a.id, b.id) : a.clearedOn < b.clearedOn ? -1 : 1)).map((i): ImportLineFigures => {
    const extinct = law.pisCofinsExtinction(i.clearedOn, asKnownOn);
    if (extinct) {
      lawVersions?.add(versionKey(extinct));
      return {
        ...i, pisPerM3: null, cofinsPerM3: null, pisDue: ZERO, cofinsDue: ZERO, warnings: publicationDateFindings(law, importReads(i), asKnownOn),
        legalBasis: `${extinct.legalBasis} (PIS/Pasep-Importação and Cofins-Importação extinct from ${extinct.validFrom}: the import bears the single-phase taxes on fuels)`,
      };
    }
    const general = law.coefficientRules(i.clearedOn, asKnownOn)[RateCategory.GENERAL];
    lawVersions?.add(versionKey(general));
    return {
      ...i, pisPerM3: general.value.pisPerM3, cofinsPerM3: general.value.cofinsPerM3,
      pisDue: toCentavos(i.volumeM3.times(general.value.pisPerM3)),
      cofinsDue: toCentavos(i.volumeM3.times(general.value.cofinsPerM3)),
      warnings: publicationDateFindings(law, importReads(i), asKnownOn),
      legalBasis: `PIS/Pasep-Importação and Cofins-Importação per m³: ${general.legalBasis}; ${blendRuleBasis(law, BlendRule.IMPORTED_AT_GENERAL, i.clearedOn, asKnownOn)}`,
    };
  });
  const pisDue = sum(lines.map((l) => l.pisDue));
  const cofinsDue = sum(lines.map((l) => l.cofinsDue));
  return { volumeM3: sum(lines.map((l) => l.volumeM3)), pisDue, cofinsDue, totalDue: pisDue.plus(cofinsDue), imports: lines };
}

/** What a declaration's figures read of the law on its clearance date (PUBLICATION_DATE_OPEN). */
export function importReads(i: ImportFacts): LawRead[] {
  const day = { from: i.clearedOn, to: i.clearedOn };
  return [
    { parameter: 'pis-cofins-extinction', ...day },
    { parameter: 'coefficient-rule', scope: RateCategory.GENERAL, ...day },
    { parameter: 'blend-rule', scope: BlendRule.IMPORTED_AT_GENERAL, ...day },
  ];
}

function compareIds(a: string, b: string): number {
  return a.length === b.length ? (a < b ? -1 : a > b ? 1 : 0) : a.length - b.length;
}
