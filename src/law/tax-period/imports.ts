import { IsoDate } from '../dates';
import { sum, toCentavos, ZERO } from '../decimal';
import { LawBook } from '../law-book';
import { BlendRule, RateCategory } from '../types';
import { blendRuleBasis } from './explanation';
import { ImportContributionsFigures, ImportFacts, ImportLineFigures, versionKey } from './types';

/**
 * Decreto 10.527/2020, art. 5º §1º — the PIS/Pasep-Importação and Cofins-Importação on imported
 * biodiesel: the general amounts per m³ in force on the date of customs clearance (R$ 26,41 and
 * R$ 121,59; R$ 0,00 in the 2026 window, §3º), never the differentiated amounts of art. 6º (§5º).
 * Before 2020-10-23 the same amounts of Decreto 7.768/2012; from 2027 the contributions are
 * extinct (EC 132/2023, ADCT art. 126, II) and the import bears the single-phase taxes on fuels.
 *
 * Interpretation: the amounts are applied per m³ whatever the importer's regime of Lei 11.116/2005
 * (art. 3º or 4º): the decree states the import amounts per m³, and whether an importer outside
 * the special regime pays them per m³ is not in our sources.
 * Interpretation: each import declaration is its own taxable event, due on its clearance: its
 * contributions are rounded half-even to the centavo (ABNT NBR 5891) on their own, and the month's
 * block is the sum of its declarations'.
 *
 * `lawVersions` receives the key of every law version used (part of a closed month's fingerprint).
 */
export function importContributions(law: LawBook, imports: readonly ImportFacts[], asKnownOn: IsoDate, lawVersions?: Set<string>): ImportContributionsFigures {
  const lines = [...imports].sort((a, b) => (a.clearedOn === b.clearedOn ? compareIds(a.id, b.id) : a.clearedOn < b.clearedOn ? -1 : 1)).map((i): ImportLineFigures => {
    const extinct = law.pisCofinsExtinction(i.clearedOn, asKnownOn);
    if (extinct) {
      lawVersions?.add(versionKey(extinct));
      return {
        ...i, pisPerM3: null, cofinsPerM3: null, pisDue: ZERO, cofinsDue: ZERO,
        legalBasis: `${extinct.legalBasis} (PIS/Pasep-Importação and Cofins-Importação extinct from ${extinct.validFrom}: the import bears the single-phase taxes on fuels)`,
      };
    }
    const general = law.coefficientRules(i.clearedOn, asKnownOn)[RateCategory.GENERAL];
    lawVersions?.add(versionKey(general));
    return {
      ...i, pisPerM3: general.value.pisPerM3, cofinsPerM3: general.value.cofinsPerM3,
      pisDue: toCentavos(i.volumeM3.times(general.value.pisPerM3)),
      cofinsDue: toCentavos(i.volumeM3.times(general.value.cofinsPerM3)),
      legalBasis: `PIS/Pasep-Importação and Cofins-Importação per m³: ${general.legalBasis}; ${blendRuleBasis(law, BlendRule.IMPORTED_AT_GENERAL, i.clearedOn, asKnownOn)}`,
    };
  });
  const pisDue = sum(lines.map((l) => l.pisDue));
  const cofinsDue = sum(lines.map((l) => l.cofinsDue));
  return { volumeM3: sum(lines.map((l) => l.volumeM3)), pisDue, cofinsDue, totalDue: pisDue.plus(cofinsDue), imports: lines };
}

function compareIds(a: string, b: string): number {
  return a.length === b.length ? (a < b ? -1 : a > b ? 1 : 0) : a.length - b.length;
}
