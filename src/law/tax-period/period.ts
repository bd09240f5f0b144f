import { firstDayOfMonth } from '../dates';
import { sum, toCentavos, toShare, ZERO } from '../decimal';
import { Finding, finding } from '../findings';
import { LawBook, LawRead } from '../law-book';
import { electionStart, RegimeInForce } from '../regime';
import { BiodieselOrigin, BlendRule, FuelTax, FuelTaxStatus, Market, OwnProductionValuation, RateCategory, TaxRegime } from '../types';
import { costWeightedBlend, ownProductionValuation, Valuation } from './blend';
import { blendRuleBasis, explainSegment, periodName, regimeBasis } from './explanation';
import { fuelTaxes } from './fuel-taxes';
import { importContributions, importReads } from './imports';
import { publicationDateFindings } from './publication';
import { FeedstockGroup, FuelTaxSegmentFigures, PeriodRef, SegmentSpan, TaxPeriodInput, TaxPeriodResult, TaxSegmentFigures, versionKey } from './types';
import { message } from '../message';

// The month's PIS/Pasep and Cofins, pure: the service hands over the SQL aggregates. Lei
// 11.116/2005 arts. 3º–5º; Decreto 10.527/2020 arts. 5º–6º (Decreto 7.768/2012 before
// 2020-10-23); from 2027 LC 214/2025 arts. 172–175 (fuel-taxes.ts). Readings: docs/LAW.md.

// The special regime with no raw material used this month (stock sold) takes an earlier
// month's blend (art. 6º §3º; docs/LAW.md).
export function needsEarlierFeedstock(regime: RegimeInForce, segments: readonly SegmentSpan[], feedstock: readonly FeedstockGroup[]): boolean {
  return regime.regime === TaxRegime.SPECIAL_PER_M3 && segments.some((s) => s.pisCofins) && !usesRawMaterial(feedstock);
}

/** Raw material used in a month: some kind of it left once the month's returns are netted (docs/LAW.md, "Returns"). */
export function usesRawMaterial(feedstock: readonly FeedstockGroup[]): boolean {
  return feedstock.some((g) => g.quantityKg.gt(0));
}

// Special regime (Lei 11.116/2005 art. 4º): own volume × blended per-m³ amounts (art. 6º §§2º–4º),
// imports at GENERAL (§5º). Ad valorem (art. 3º): rates on domestic revenue, untouched by art. 5º.
// Each segment rounded half-even to the centavo, the period their sum (docs/LAW.md, "Rounding of the month's dues").
export function computeTaxPeriod(law: LawBook, input: TaxPeriodInput): TaxPeriodResult {
  const { year, month, asKnownOn, regime, segments } = input;
  const first = firstDayOfMonth(year, month);
  const lawVersions = new Set<string>();
  const pisCofinsMonth = segments.some((s) => s.pisCofins);
  const warnings: Finding[] = pisCofinsMonth ? [...regime.findings] : [];
  const special = regime.regime === TaxRegime.SPECIAL_PER_M3 && pisCofinsMonth;
  const firstPisCofinsDay = segments.find((s) => s.pisCofins)?.from ?? first;
  const cite = (rule: BlendRule) => blendRuleBasis(law, rule, firstPisCofinsDay, asKnownOn);

  // Raw material for biodiesel used in the month (the service passes only purpose BIODIESEL_FEEDSTOCK).
  const own = ownProductionValuation(input.feedstock, input.thirdParty);
  // docs/LAW.md Interpretation: no raw material used in the month (stock sold): the rate follows
  // what the biodiesel was made from, so the blend of the latest earlier month with raw material
  // used applies (its lots valued as in that month), with this month's amounts and Selo standing;
  // GENERAL only when there is none.
  const earlier: PeriodRef | null = special && own.noFeedstock && input.earlier ? { year: input.earlier.year, month: input.earlier.month } : null;
  const valuation: Valuation = earlier ? ownProductionValuation(input.earlier!.feedstock, input.earlier!.thirdParty) : own;
  if (special) {
    const period = earlier ? periodName(earlier) : null;
    if (period) {
      warnings.push(finding('BLEND_OF_EARLIER_PERIOD', message('finding.BLEND_OF_EARLIER_PERIOD.period', { period }), cite(BlendRule.COST_WEIGHTED)));
    } else if (valuation.noFeedstock) {
      const general = law.coefficientRules(firstPisCofinsDay, asKnownOn)[RateCategory.GENERAL];
      warnings.push(finding('NO_FEEDSTOCK_IN_PERIOD', undefined, `${general.legalBasis}; ${cite(BlendRule.COST_WEIGHTED)}`));
    }
    if (valuation.valuedBy === OwnProductionValuation.QUANTITY) {
      warnings.push(finding('OWN_PRODUCTION_VALUED_BY_QUANTITY', period ? message('finding.OWN_PRODUCTION_VALUED_BY_QUANTITY.earlier', { period }) : undefined, cite(BlendRule.OWN_PRODUCTION_VALUATION)));
    }
    if (valuation.valuedBy === OwnProductionValuation.THIRD_PARTY_LOTS_USED) {
      warnings.push(finding('OWN_PRODUCTION_VALUED_BY_LOTS_USED', period ? message('finding.OWN_PRODUCTION_VALUED_BY_LOTS_USED.earlier', { period }) : undefined, cite(BlendRule.OWN_PRODUCTION_VALUATION)));
    }
  }
  const blendFacts = { valuedBy: valuation.valuedBy, noFeedstock: valuation.noFeedstock, earlier };

  const segmentFigures = segments.map((seg, index): TaxSegmentFigures => {
    const sales = input.sales.filter((s) => s.segment === index);
    const domestic = sales.filter((s) => s.market === Market.DOMESTIC);
    const ownVolume = sum(domestic.filter((s) => s.origin === BiodieselOrigin.OWN_PRODUCTION).map((s) => s.volumeM3));
    const importedVolume = sum(domestic.filter((s) => s.origin === BiodieselOrigin.IMPORTED).map((s) => s.volumeM3));
    const exportedVolume = sum(sales.filter((s) => s.market === Market.EXPORT).map((s) => s.volumeM3));
    const domesticRevenue = sum(domestic.map((s) => s.revenue));
    const base = {
      from: seg.from, to: seg.to, pisCofinsInForce: seg.pisCofins, sealRegular: seg.sealRegular, sealStanding: seg.standing.reason,
      ownProductionVolumeM3: ownVolume, importedVolumeM3: importedVolume, exportedVolumeM3: exportedVolume, domesticRevenue,
    };
    const explained = (mix: TaxSegmentFigures['mix']) =>
      explainSegment(law, regime.regime, { from: seg.from, mix, importedVolumeM3: importedVolume, pisCofinsInForce: seg.pisCofins }, asKnownOn, blendFacts);

    if (!seg.pisCofins) {
      // EC 132/2023, ADCT art. 126, II: nothing due; the volumes bear the single-phase taxes on fuels.
      const extinct = law.pisCofinsExtinction(seg.from, asKnownOn);
      if (extinct) lawVersions.add(versionKey(extinct));
      return { ...base, mix: [], blendedPisPerM3: null, blendedCofinsPerM3: null, pisDue: ZERO, cofinsDue: ZERO, ...explained([]) };
    }

    if (!special) {
      // Lei 11.116/2005, art. 3º: on the revenue of the domestic market, own and imported alike.
      const rates = law.adValoremRates(seg.from, asKnownOn);
      lawVersions.add(versionKey(rates));
      return {
        ...base, mix: [], blendedPisPerM3: null, blendedCofinsPerM3: null,
        pisDue: toCentavos(domesticRevenue.times(rates.value.pis)),
        cofinsDue: toCentavos(domesticRevenue.times(rates.value.cofins)),
        ...explained([]),
      };
    }

    const rules = law.coefficientRules(seg.from, asKnownOn);
    const general = rules[RateCategory.GENERAL];
    lawVersions.add(versionKey(general));
    const blend = costWeightedBlend(rules, valuation, seg.sealRegular);
    for (const v of blend.lawVersions) lawVersions.add(v);
    // This month's returns beyond its use (docs/LAW.md, "Returns"), named also when an earlier
    // month's blend applies (each once: the month's warnings are deduplicated).
    for (const r of (earlier ? costWeightedBlend(rules, own, seg.sealRegular) : blend).returnedBeyondUse) {
      warnings.push(finding('RETURN_EXCEEDS_USE', message('finding.RETURN_EXCEEDS_USE.category', {
        category: r.category, cost: r.cost.neg().toFixed(2), kg: r.quantityKg.neg().toFixed(3),
      }), cite(BlendRule.COST_WEIGHTED)));
    }
    if (blend.familyFarmingWithoutSeal) {
      warnings.push(finding('SEAL_NOT_REGULAR', message('finding.SEAL_NOT_REGULAR.segment', { from: seg.from, to: seg.to, reason: seg.standing.reason.text ?? message(`finding.${seg.standing.reason.code}`) }),
        blendRuleBasis(law, BlendRule.SEAL_CONDITION, seg.from, asKnownOn)));
    }
    // art. 6º §5º: imported biodiesel at the GENERAL amounts. The blend divides last, so a
    // half-centavo tie of the exact due stays a tie (docs/LAW.md, the rounding row).
    const pis = ownVolume.times(blend.pisNumerator).div(blend.divisor).plus(importedVolume.times(general.value.pisPerM3));
    const cofins = ownVolume.times(blend.cofinsNumerator).div(blend.divisor).plus(importedVolume.times(general.value.cofinsPerM3));
    return {
      ...base, mix: blend.mix,
      blendedPisPerM3: toShare(blend.pisNumerator.div(blend.divisor)), blendedCofinsPerM3: toShare(blend.cofinsNumerator.div(blend.divisor)),
      pisDue: toCentavos(pis), cofinsDue: toCentavos(cofins),
      ...explained(blend.mix),
    };
  });

  // The priority region (art. 6º I and III) of days whose Semiárido delimitation is not in our sources.
  if (special && !valuation.noFeedstock) {
    const last = segments[segments.length - 1]?.to ?? first;
    const open = law.semiaridDelimitationOpen(first, asKnownOn) ?? law.semiaridDelimitationOpen(last, asKnownOn);
    if (open) {
      const from = open.validFrom > first ? open.validFrom : first;
      const to = open.validUntil && open.validUntil < last ? open.validUntil : last;
      warnings.push(finding('SEMIARID_DELIMITATION_OPEN', message('finding.SEMIARID_DELIMITATION_OPEN.days', { from, to, legalBasis: open.legalBasis }), open.legalBasis));
    }
  }
  const importedVolumeM3 = sum(segmentFigures.map((s) => s.importedVolumeM3));
  if (special && segmentFigures.some((s) => s.pisCofinsInForce && s.importedVolumeM3.gt(0))) {
    warnings.push(finding('IMPORTED_BIODIESEL', undefined, cite(BlendRule.IMPORTED_AT_GENERAL)));
  }
  const imports = importContributions(law, input.imports ?? [], asKnownOn, lawVersions);
  // Interpretation (docs/LAW.md, PUBLICATION_DATE_OPEN): the days whose answer rests on a version whose publication
  // date is not in our sources, from what each segment and each import reads of the law.
  warnings.push(...publicationDateFindings(law, [...segments.flatMap((seg) => segmentReads(seg, special)), ...(input.imports ?? []).flatMap(importReads)], asKnownOn));
  // docs/LAW.md, "Returns": a return of a sale that bore PIS/Cofins stays in the volumes of the month
  // of the return, but never in the CBS base (that sale bore no CBS); the finding names it.
  const pisCofinsReturns = input.sales.filter((s) => s.returnOf && s.market === Market.DOMESTIC);
  const cbsSegments = segmentFigures.map((s, i) => ({
    from: s.from, to: s.to, pisCofinsInForce: s.pisCofinsInForce,
    ownProductionVolumeM3: s.ownProductionVolumeM3.minus(sum(pisCofinsReturns.filter((r) => r.segment === i && r.origin === BiodieselOrigin.OWN_PRODUCTION).map((r) => r.volumeM3))),
  }));
  const taxes = fuelTaxes(law, cbsSegments, input.imports ?? [], asKnownOn, lawVersions);
  for (const period of [...new Set(pisCofinsReturns.map((r) => periodName(r.returnOf!)))].sort()) {
    const volume = sum(pisCofinsReturns.filter((r) => periodName(r.returnOf!) === period).map((r) => r.volumeM3)).negated();
    if (!volume.isZero()) warnings.push(finding('RETURN_OF_PIS_COFINS_SALE', message('finding.RETURN_OF_PIS_COFINS_SALE.month', { volume: volume.toFixed(), period })));
  }
  const days = (list: readonly FuelTaxSegmentFigures[]) => list.map((s) => message('word.days', { from: s.from, to: s.to }));
  for (const t of taxes) {
    if (t.status !== FuelTaxStatus.RATE_NOT_PUBLISHED) continue;
    const open = t.segments.filter((s) => s.status === FuelTaxStatus.RATE_NOT_PUBLISHED);
    // Days no law levying the CBS is known on (PIS/Cofins extinct before it, fuelTaxes): say so, not RATE_NOT_PUBLISHED.
    const unregulated = open.filter((s) => t.tax === FuelTax.CBS && !law.fuelTaxes(s.from, asKnownOn).some((f) => f.tax === FuelTax.CBS));
    const unpublished = open.filter((s) => !unregulated.includes(s));
    if (unregulated.length) warnings.push(finding('CBS_NOT_REGULATED', message('finding.CBS_NOT_REGULATED.days', { days: days(unregulated), asKnownOn })));
    if (unpublished.length) {
      warnings.push(finding('RATE_NOT_PUBLISHED', message('finding.RATE_NOT_PUBLISHED.days', { tax: t.tax, days: days(unpublished), asKnownOn }), unpublished[0].legalBasis));
    }
  }
  // The month's dues are the sums of its segments' rounded dues: the parts shown add up to the
  // total (the statement, the EFD's M200/M600). Interpretation (docs/LAW.md, "Rounding of the
  // month's dues"): Lei 11.116/2005 arts. 3º–4º speak of the month; the sum differs from the
  // month's exact figure by at most half a centavo per segment.
  const pisDue = sum(segmentFigures.map((s) => s.pisDue));
  const cofinsDue = sum(segmentFigures.map((s) => s.cofinsDue));
  const extinct = pisCofinsMonth ? undefined : law.pisCofinsExtinction(first, asKnownOn);
  return {
    lawVersions: [...lawVersions].sort(),
    figures: {
      year, month, asKnownOn, regime: regime.regime,
      feedstockCost: toCentavos(own.feedstockCost),
      ownProductionPricePerKg: own.ownKg.gt(0) && own.pricePerKg !== null ? toShare(own.pricePerKg) : null,
      ownProductionValuation: own.valuedBy,
      blendPeriod: earlier,
      segments: segmentFigures,
      domesticVolumeM3: sum(segmentFigures.map((s) => s.ownProductionVolumeM3)),
      importedVolumeM3,
      exportedVolumeM3: sum(segmentFigures.map((s) => s.exportedVolumeM3)),
      pisDue, cofinsDue, totalDue: pisDue.plus(cofinsDue),
      warnings: dedupe(warnings),
      regimeBasis: extinct
        ? `No regime of Lei 11.116/2005 applies: PIS/Pasep and Cofins are extinct from ${extinct.validFrom} (${extinct.legalBasis}); the single-phase taxes on fuels are computed instead`
        : regimeBasis(law, regime, year, month, asKnownOn),
      regimeElection: regime.election ? {
        regime: regime.election.regime, electedOn: regime.election.electedOn, effectiveYear: regime.election.effectiveYear, effectiveFrom: electionStart(regime.election),
      } : null,
      imports,
      fuelTaxes: taxes,
    },
  };
}

/**
 * What a segment's figures read of the law: from 2027 the extinction and the single-phase taxes;
 * the special regime its amounts, every category's rule and the rules of the blend; ad valorem
 * the rates (a month under one regime does not rest on the other's figures).
 */
function segmentReads(seg: SegmentSpan, special: boolean): LawRead[] {
  const days = { from: seg.from, to: seg.to };
  if (!seg.pisCofins) return [{ parameter: 'pis-cofins-extinction', ...days }, { parameter: 'fuel-tax-levy', ...days }, { parameter: 'fuel-tax-rate', ...days }];
  if (!special) return [{ parameter: 'ad-valorem-rates', ...days }];
  return [{ parameter: 'special-regime-base', ...days }, { parameter: 'coefficient-rule', ...days }, { parameter: 'blend-rule', ...days }];
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}|${JSON.stringify(f.text ?? null)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
