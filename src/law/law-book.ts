import { Decimal } from './decimal';
import { addDays, IsoDate } from './dates';
import { inForce, Version } from './dated';
import { NoRuleInForceError } from './errors';
import { BlendRule, FuelTax, RateCategory, Region, SealWeightingFactor, SeloWording } from './types';
import { message, plain } from './message';
import { LawVersionRecord, ParameterName, SEMIARID_SCOPE, versionProblems } from './law-parameters';

export { isParameterName, PARAMETERS, SEMIARID_SCOPE, versionProblems } from './law-parameters';
export type { LawVersionRecord, ParameterName } from './law-parameters';

/** Decreto 10.527/2020, arts. 5º, 6º. */
export interface CoefficientRuleValue {
  category: RateCategory;
  coefficient: Decimal;
  pisPerM3: Decimal;
  cofinsPerM3: Decimal;
}

/** Percentages as fractions: 6,15% is 0.0615. */
export interface AdValoremRates { pis: Decimal; cofins: Decimal }
export interface PerM3Amounts { pisPerM3: Decimal; cofinsPerM3: Decimal }

/** LC 214/2025, arts. 172–175. */
export interface FuelTaxInForce {
  tax: FuelTax;
  levy: Version<Record<string, string>>;
  /** Undefined while none is published. */
  rate: Version<Decimal> | undefined;
}

/** Decreto 10.527/2020, art. 3º §2 I a, b, c. */
export type SpendingKind = 'FAMILY_FARMING_ACQUISITION' | 'OTHER_PRODUCT' | 'FOMENTO';

/** Art. 3º §3º I. */
export interface PlantLocation { region: Region; semiarid: boolean }

/** Dated law, for a date as known on another (docs/LAW.md); throws NoRuleInForceError when none. */
export interface LawBook {
  coefficientRules(on: IsoDate, asKnownOn: IsoDate): Record<RateCategory, Version<CoefficientRuleValue>>;
  /** Lei 11.116/2005, art. 3º. */
  adValoremRates(on: IsoDate, asKnownOn: IsoDate): Version<AdValoremRates>;
  /** Lei 11.116/2005, art. 4º, before the coefficients. */
  specialRegimeBase(on: IsoDate, asKnownOn: IsoDate): Version<PerM3Amounts>;
  /** Throws NoRuleInForceError from 2027-01-01 (EC 132/2023, ADCT art. 126, II). */
  assertPisCofinsInForce(on: IsoDate, asKnownOn: IsoDate): void;
  /** EC 132/2023, ADCT art. 126, II. */
  pisCofinsExtinction(on: IsoDate, asKnownOn: IsoDate): Version<Record<string, string>> | undefined;
  /** Decreto 10.527/2020, art. 6º §§2º–5º, or the act before it. */
  blendRule(rule: BlendRule, on: IsoDate, asKnownOn: IsoDate): Version<Record<string, string>> | undefined;
  /** LC 214/2025, arts. 172–175, in FuelTax order. */
  fuelTaxes(on: IsoDate, asKnownOn: IsoDate): FuelTaxInForce[];
  /** Decreto 10.527/2020, art. 4º VI; none is shipped. */
  cooperativeMinFamilyFarmerShare(on: IsoDate, asKnownOn: IsoDate): Version<Decimal> | undefined;
  /** Decreto 10.527/2020, art. 3º §3º I–II. */
  minimumSpendingShare(plant: PlantLocation, on: IsoDate, asKnownOn: IsoDate): Version<Decimal>;
  /** Portaria Interministerial MME/MDA nº 2/2023. */
  priorityRegionMinShare(on: IsoDate, asKnownOn: IsoDate): Version<Decimal>;
  weightingFactor(kind: SpendingKind, on: IsoDate, asKnownOn: IsoDate): Version<Decimal>;
  /** Portaria MDA nº 28/2024; undefined under the flat model (docs/LAW.md). */
  sealWeightedModel(on: IsoDate, asKnownOn: IsoDate): Version<Record<string, string>> | undefined;
  /** Portaria MDA nº 28/2024, p. 40; value null while unpublished (alínea a). */
  sealWeightingFactor(factor: SealWeightingFactor, on: IsoDate, asKnownOn: IsoDate): Version<Decimal | null> | undefined;
  /** Portaria MDA nº 28/2024, p. 39. */
  minimumWeightedShare(on: IsoDate, asKnownOn: IsoDate): Version<Decimal | null> | undefined;
  /** Decreto 10.527/2020, art. 3º §2º I and §3º II. */
  sealWording(on: IsoDate, asKnownOn: IsoDate): { wording: SeloWording; version: Version<Record<string, string>> } | undefined;
  /** Before Res. Condel/Sudene 115/2017 the delimitation is not in our sources. */
  semiaridDelimitationOpen(on: IsoDate, asKnownOn: IsoDate): Version<Record<string, string>> | undefined;
  /** Portaria MDA nº 28/2024, art. 58. */
  sealBalanceCarries(on: IsoDate, asKnownOn: IsoDate): Version<Record<string, string>> | undefined;
  /**
   * docs/LAW.md, PUBLICATION_DATE_OPEN: the versions whose publication date is open
   * (`publicationDateOpen`) among those the answer reads, with the days they govern as known on
   * asKnownOn (applied), or would govern as known on their date used while not yet known by it
   * — only the days whose figures they change against the version read without them.
   */
  openPublications(reads: readonly LawRead[], asKnownOn: IsoDate): OpenPublication[];
  /** Days the rules differ from the day before: where tax segments start. */
  changeDates(from: IsoDate, to: IsoDate, asKnownOn: IsoDate): IsoDate[];
  versions(parameter: ParameterName): Version<Record<string, string>>[];
  /** Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 1º. */
  creditBasicRates(on: IsoDate, asKnownOn: IsoDate): Version<AdValoremRates> | undefined;
  /** Lei 12.865/2013, art. 31 § 2º. */
  presumedCreditShare(on: IsoDate, asKnownOn: IsoDate): Version<Decimal | null> | undefined;
  /** 1 credit, 0 none. */
  creditChoice(choice: CreditChoice, on: IsoDate, asKnownOn: IsoDate): Version<Decimal | null> | undefined;
  /** LC 214/2025, art. 168: the CBS presumed credit's percentage; open until published. */
  cbsPresumedCreditShare(on: IsoDate, asKnownOn: IsoDate): Version<Decimal | null> | undefined;
}

/** What an answer reads of the law: a parameter (one scope, or every scope when left out) over days. */
export interface LawRead {
  parameter: ParameterName;
  scope?: string | null;
  from: IsoDate;
  to: IsoDate;
}

/** A version whose publication date is open, and the days of the reads it decides. */
export interface OpenPublication {
  version: Version<Record<string, string>>;
  /** Published by its date used on or before asKnownOn, so applied; else left out by that date only. */
  applied: boolean;
  /** Sorted. */
  days: IsoDate[];
}

export type CreditChoice = 'IMPORTED_B100_FOR_RESALE' | 'B100_FOR_RESALE';

const CATEGORIES = Object.values(RateCategory);
const BLEND_RULES = Object.values(BlendRule);
const FUEL_TAXES = Object.values(FuelTax);

/** The same values (decimals compared as numbers): a version read instead changes no figure. */
function sameFigures(a: Version<Record<string, string>> | undefined, b: Version<Record<string, string>>): boolean {
  if (!a) return false;
  const keys = new Set([...Object.keys(a.value), ...Object.keys(b.value)]);
  return [...keys].every((k) => {
    const x = a.value[k];
    const y = b.value[k];
    if (x === undefined || y === undefined) return x === y;
    try {
      return new Decimal(x).eq(y);
    } catch {
      return x === y;
    }
  });
}

/** In force on D as known on K: the last published covering D (docs/LAW.md). */
export function createLawBook(records: readonly LawVersionRecord[]): LawBook {
  const groups = new Map<string, Version<Record<string, string>>[]>();
  const byParameter = new Map<string, Version<Record<string, string>>[]>();
  records.forEach((r, index) => {
    const problems = versionProblems(r);
    if (problems.length) throw new Error(`Malformed law version ${r.id ?? index} (${r.parameter}/${r.scope}): ${problems.map(([field, text]) => `${field}: ${plain(text)}`).join('; ')}`);
    const v: Version<Record<string, string>> = {
      id: r.id, value: r.value, validFrom: r.validFrom, validUntil: r.validUntil, publishedOn: r.publishedOn,
      legalBasis: r.legalBasis, note: r.note ?? null, seq: r.seq ?? index,
      ...(r.publicationDateOpen ? { publicationDateOpen: true } : {}),
    };
    const key = `${r.parameter}|${r.scope ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), v]);
    byParameter.set(r.parameter, [...(byParameter.get(r.parameter) ?? []), v]);
  });
  const of = (parameter: ParameterName, scope: string | null = null) => groups.get(`${parameter}|${scope ?? ''}`) ?? [];
  // The groups holding a version whose publication date is open: every other read costs nothing.
  const withOpenDate = [...groups.entries()].filter(([, list]) => list.some((v) => v.publicationDateOpen));

  function openPublications(reads: readonly LawRead[], asKnownOn: IsoDate): OpenPublication[] {
    const found = new Map<Version<Record<string, string>>, Set<IsoDate>>();
    for (const read of reads) {
      for (const [key, list] of withOpenDate) {
        const [parameter, scope] = key.split('|');
        if (parameter !== read.parameter || (read.scope !== undefined && scope !== (read.scope ?? ''))) continue;
        for (const v of list) {
          if (!v.publicationDateOpen) continue;
          const from = v.validFrom > read.from ? v.validFrom : read.from;
          const to = v.validUntil !== null && v.validUntil < read.to ? v.validUntil : read.to;
          // Applied: it governs as known on asKnownOn. Not yet known by its date used: it would
          // govern as known on that date. Either way only days whose figures it changes count:
          // where the version read without it has the same values, its date changes no figure.
          const knownOn = v.publishedOn <= asKnownOn ? asKnownOn : v.publishedOn;
          const others = list.filter((x) => x !== v);
          for (let d = from; d <= to; d = addDays(d, 1)) {
            if (inForce(list, d, knownOn) !== v || sameFigures(inForce(others, d, asKnownOn), v)) continue;
            if (!found.has(v)) found.set(v, new Set());
            found.get(v)!.add(d);
          }
        }
      }
    }
    return [...found].map(([version, days]) => ({ version, applied: version.publishedOn <= asKnownOn, days: [...days].sort() }));
  }

  function find(parameter: ParameterName, scope: string | null, on: IsoDate, asKnownOn: IsoDate, what: string) {
    const v = inForce(of(parameter, scope), on, asKnownOn);
    if (!v) throw new NoRuleInForceError(message('law.noVersionInForce', { what, on, asKnownOn }));
    return v;
  }
  const withValue = <T>(v: Version<Record<string, string>>, value: T): Version<T> => ({ ...v, value });
  // Each version's figure is parsed once: a program's year asks for the same few versions thousands of times.
  const figures = new WeakMap<Version<Record<string, string>>, Map<string, Version<Decimal | null>>>();
  function figureOf(v: Version<Record<string, string>>, key: string, nullable: true): Version<Decimal | null>;
  function figureOf(v: Version<Record<string, string>>, key: string, nullable: false): Version<Decimal>;
  function figureOf(v: Version<Record<string, string>>, key: string, nullable: boolean): Version<Decimal | null> {
    let byKey = figures.get(v);
    if (!byKey) figures.set(v, (byKey = new Map()));
    let figure = byKey.get(key);
    if (!figure) {
      // Not nullable: an absent figure throws, as the Decimal of nothing does.
      figure = withValue(v, v.value[key] === undefined && nullable ? null : new Decimal(v.value[key]));
      byKey.set(key, figure);
    }
    return figure;
  }
  const decimalOf = (v: Version<Record<string, string>>, key: string) => figureOf(v, key, false);

  function extinction(on: IsoDate, asKnownOn: IsoDate) {
    return inForce(of('pis-cofins-extinction'), on, asKnownOn);
  }
  function assertPisCofinsInForce(on: IsoDate, asKnownOn: IsoDate): void {
    const end = extinction(on, asKnownOn);
    if (end) {
      throw new NoRuleInForceError(
        message('law.pisCofinsExtinct', { from: end.validFrom, legalBasis: end.legalBasis, on }),
        end.legalBasis,
      );
    }
  }
  function coefficientRules(on: IsoDate, asKnownOn: IsoDate): Record<RateCategory, Version<CoefficientRuleValue>> {
    assertPisCofinsInForce(on, asKnownOn);
    const rules = {} as Record<RateCategory, Version<CoefficientRuleValue>>;
    for (const category of CATEGORIES) {
      const v = find('coefficient-rule', category, on, asKnownOn, `the coefficient rule for ${category} (Decreto 10.527/2020, arts. 5º and 6º)`);
      rules[category] = withValue(v, {
        category, coefficient: new Decimal(v.value.coefficient), pisPerM3: new Decimal(v.value.pisPerM3), cofinsPerM3: new Decimal(v.value.cofinsPerM3),
      });
    }
    return rules;
  }
  function signature(on: IsoDate, asKnownOn: IsoDate): unknown[] {
    return [
      extinction(on, asKnownOn), ...CATEGORIES.map((c) => inForce(of('coefficient-rule', c), on, asKnownOn)),
      ...BLEND_RULES.map((r) => inForce(of('blend-rule', r), on, asKnownOn)),
      ...FUEL_TAXES.flatMap((t) => [inForce(of('fuel-tax-levy', t), on, asKnownOn), inForce(of('fuel-tax-rate', t), on, asKnownOn)]),
    ];
  }
  const TIMELINE: ParameterName[] = ['coefficient-rule', 'pis-cofins-extinction', 'blend-rule', 'fuel-tax-levy', 'fuel-tax-rate'];

  return {
    coefficientRules,
    openPublications,
    assertPisCofinsInForce,
    pisCofinsExtinction: extinction,
    blendRule(rule, on, asKnownOn) {
      return inForce(of('blend-rule', rule), on, asKnownOn);
    },
    fuelTaxes(on, asKnownOn) {
      return FUEL_TAXES.flatMap((tax) => {
        const levy = inForce(of('fuel-tax-levy', tax), on, asKnownOn);
        if (!levy) return [];
        const rate = inForce(of('fuel-tax-rate', tax), on, asKnownOn);
        return [{ tax, levy, rate: rate ? decimalOf(rate, 'perM3') : undefined }];
      });
    },
    adValoremRates(on, asKnownOn) {
      assertPisCofinsInForce(on, asKnownOn);
      const v = find('ad-valorem-rates', null, on, asKnownOn, 'the ad valorem rates (Lei 11.116/2005, art. 3º)');
      return withValue(v, { pis: new Decimal(v.value.pis), cofins: new Decimal(v.value.cofins) });
    },
    specialRegimeBase(on, asKnownOn) {
      assertPisCofinsInForce(on, asKnownOn);
      const v = find('special-regime-base', null, on, asKnownOn, 'the special-regime amounts per m³ (Lei 11.116/2005, art. 4º)');
      return withValue(v, { pisPerM3: new Decimal(v.value.pisPerM3), cofinsPerM3: new Decimal(v.value.cofinsPerM3) });
    },
    cooperativeMinFamilyFarmerShare(on, asKnownOn) {
      const v = inForce(of('cooperative-min-family-farmer-share'), on, asKnownOn);
      return v && decimalOf(v, 'share');
    },
    minimumSpendingShare(plant, on, asKnownOn) {
      // Interpretation: a plant in the Semiárido takes the Semiárido share, whatever its macro-region.
      const scope = plant.semiarid ? SEMIARID_SCOPE : plant.region;
      return decimalOf(find('minimum-spending-share', scope, on, asKnownOn, `the minimum spending share for ${scope} (Decreto 10.527/2020, art. 3º §3º I)`), 'share');
    },
    priorityRegionMinShare(on, asKnownOn) {
      return decimalOf(find('priority-region-min-share', null, on, asKnownOn, 'the minimum priority-region share (Portaria Interministerial MME/MDA nº 2/2023)'), 'share');
    },
    weightingFactor(kind, on, asKnownOn) {
      return decimalOf(find('weighting-factor', kind, on, asKnownOn, `the weighting factor for ${kind}`), 'factor');
    },
    sealWeightedModel(on, asKnownOn) {
      return inForce(of('selo-weighted-model'), on, asKnownOn);
    },
    sealWeightingFactor(factor, on, asKnownOn) {
      const v = inForce(of('selo-weighting-factor', factor), on, asKnownOn);
      return v && figureOf(v, 'factor', true);
    },
    minimumWeightedShare(on, asKnownOn) {
      const v = inForce(of('minimum-weighted-share'), on, asKnownOn);
      return v && figureOf(v, 'share', true);
    },
    sealWording(on, asKnownOn) {
      let found: { wording: SeloWording; version: Version<Record<string, string>> } | undefined;
      for (const wording of Object.values(SeloWording)) {
        const v = inForce(of('selo-wording', wording), on, asKnownOn);
        const later = found && (v?.publishedOn ?? '') === found.version.publishedOn ? (v?.seq ?? 0) > (found.version.seq ?? 0) : (v?.publishedOn ?? '') > (found?.version.publishedOn ?? '');
        if (v && (!found || later)) found = { wording, version: v };
      }
      return found;
    },
    semiaridDelimitationOpen(on, asKnownOn) {
      return inForce(of('semiarid-delimitation-open', 'PORTARIA_MI_89_2005'), on, asKnownOn);
    },
    sealBalanceCarries(on, asKnownOn) {
      return inForce(of('selo-balance-carry'), on, asKnownOn);
    },
    changeDates(from, to, asKnownOn) {
      const candidates = new Set<IsoDate>();
      for (const v of TIMELINE.flatMap((p) => byParameter.get(p) ?? [])) {
        if (v.publishedOn > asKnownOn) continue;
        candidates.add(v.validFrom);
        if (v.validUntil) candidates.add(addDays(v.validUntil, 1));
      }
      return [...candidates]
        .filter((d) => d >= from && d <= to)
        .sort()
        .filter((d) => {
          const before = signature(addDays(d, -1), asKnownOn);
          const after = signature(d, asKnownOn);
          return before.some((v, i) => v !== after[i]);
        });
    },
    versions(parameter) {
      return [...(byParameter.get(parameter) ?? [])];
    },
    creditBasicRates(on, asKnownOn) {
      const v = inForce(of('credit-basic-rates'), on, asKnownOn);
      return v && withValue(v, { pis: new Decimal(v.value.pis), cofins: new Decimal(v.value.cofins) });
    },
    presumedCreditShare(on, asKnownOn) {
      const v = inForce(of('presumed-credit-biodiesel'), on, asKnownOn);
      return v && figureOf(v, 'share', true);
    },
    creditChoice(choice, on, asKnownOn) {
      const v = inForce(of('credit-choice', choice), on, asKnownOn);
      return v && figureOf(v, 'credit', true);
    },
    cbsPresumedCreditShare(on, asKnownOn) {
      const v = inForce(of('cbs-presumed-credit'), on, asKnownOn);
      return v && figureOf(v, 'share', true);
    },
  };
}
