import { sum, toCentavos, toShare } from '../decimal';
import { Finding, finding } from '../findings';
import { LawBook } from '../law-book';
import { BiodieselOrigin, Market, RateCategory, TaxRegime } from '../types';
import { costWeightedBlend, ownProductionValuation } from './blend';
import { explainSegment, regimeBasis } from './explanation';
import { TaxPeriodInput, TaxPeriodResult, TaxSegmentFigures, versionKey } from './types';
import { message } from '../../i18n';

/**
 * The monthly PIS/Pasep and Cofins of a biodiesel producer (DESIGN §1.1–§1.3), pure: the service
 * hands over the month's SQL aggregates, this module applies the law to them.
 *
 * - Lei 11.116/2005, art. 3º: ad valorem on the gross revenue of the domestic market (default);
 *   art. 4º: the special regime per m³, elected yearly; art. 5º §§4º–5º: the reduced amounts.
 * - Decreto 10.527/2020, art. 5º caput and §1º (general amounts), §§2º–4º (the 2026 zero window);
 *   art. 6º I–III and §1º (differentiated amounts), §2º (family farming needs the Selo in regular
 *   standing), §3º–§4º (the blend, blend.ts), §5º (imported biodiesel never takes the art. 6º amounts).
 */

/**
 * The month's PIS/Pasep and Cofins from its aggregates (DESIGN §1.1–§1.3).
 *
 * Special regime (Lei 11.116/2005, art. 4º; art. 5º §§4º–5º): per segment, own-production volume
 * sold domestically × the blended per-m³ amounts + imported volume × the GENERAL amounts
 * (Decreto 10.527/2020, art. 6º §5º). The blended amounts are the category amounts in force in the
 * segment weighted by the valued acquisition cost of the raw material used in the month (art. 6º
 * §3º); each lot's category is decided by `rateCategory` with the segment's Selo standing (art. 6º
 * §2º). Own production is valued at the month's average third-party price per kg (art. 6º §4º).
 *
 * Ad valorem (Lei 11.116/2005, art. 3º): 6,15% / 28,32% (the rates in force) of the domestic
 * revenue, own and imported alike; the reduction coefficients and the zero window reduce only
 * the per-m³ amounts (art. 5º) and do not touch it.
 *
 * Exports bear no PIS/Cofins (their volume is reported). Rounding (DESIGN §1.3, ABNT NBR 5891):
 * each segment's PIS and Cofins due half-even to the centavo; the period's dues are the sums of
 * the segments'; shares and blended amounts shown half-even to 6 decimals, used unrounded.
 */
export function computeTaxPeriod(law: LawBook, input: TaxPeriodInput): TaxPeriodResult {
  const { year, month, asKnownOn, regime, segments } = input;
  const lawVersions = new Set<string>();
  const warnings: Finding[] = [...regime.findings];
  const special = regime.regime === TaxRegime.SPECIAL_PER_M3;

  // Raw material for biodiesel used in the month (the service passes only purpose BIODIESEL_FEEDSTOCK).
  const valuation = ownProductionValuation(input.feedstock, input.thirdParty);
  const { byQuantity, ownKg, noFeedstock, pricePerKg } = valuation;
  if (special && noFeedstock) warnings.push(finding('NO_FEEDSTOCK_IN_PERIOD'));
  if (special && byQuantity) warnings.push(finding('OWN_PRODUCTION_VALUED_BY_QUANTITY'));

  const segmentFigures = segments.map((seg, index): TaxSegmentFigures => {
    const sales = input.sales.filter((s) => s.segment === index);
    const domestic = sales.filter((s) => s.market === Market.DOMESTIC);
    const ownVolume = sum(domestic.filter((s) => s.origin === BiodieselOrigin.OWN_PRODUCTION).map((s) => s.volumeM3));
    const importedVolume = sum(domestic.filter((s) => s.origin === BiodieselOrigin.IMPORTED).map((s) => s.volumeM3));
    const exportedVolume = sum(sales.filter((s) => s.market === Market.EXPORT).map((s) => s.volumeM3));
    const domesticRevenue = sum(domestic.map((s) => s.revenue));
    const base = {
      from: seg.from, to: seg.to, sealRegular: seg.sealRegular, sealStanding: seg.standing.reason,
      ownProductionVolumeM3: ownVolume, importedVolumeM3: importedVolume, exportedVolumeM3: exportedVolume, domesticRevenue,
    };

    if (!special) {
      // Lei 11.116/2005, art. 3º: on the revenue of the domestic market, own and imported alike.
      const rates = law.adValoremRates(seg.from, asKnownOn);
      lawVersions.add(versionKey(rates));
      return {
        ...base, mix: [], blendedPisPerM3: null, blendedCofinsPerM3: null,
        pisDue: toCentavos(domesticRevenue.times(rates.value.pis)),
        cofinsDue: toCentavos(domesticRevenue.times(rates.value.cofins)),
        ...explainSegment(law, regime.regime, { from: seg.from, mix: [], importedVolumeM3: importedVolume }, asKnownOn, { byQuantity, ownKg, noFeedstock }),
      };
    }

    const rules = law.coefficientRules(seg.from, asKnownOn);
    const general = rules[RateCategory.GENERAL];
    lawVersions.add(versionKey(general));
    const blend = costWeightedBlend(rules, valuation, seg.sealRegular);
    for (const v of blend.lawVersions) lawVersions.add(v);
    if (blend.familyFarmingWithoutSeal) {
      warnings.push(finding('SEAL_NOT_REGULAR', message('finding.SEAL_NOT_REGULAR.segment', { from: seg.from, to: seg.to, reason: seg.standing.reason.text ?? seg.standing.reason.message })));
    }
    // art. 6º §5º: imported biodiesel at the GENERAL amounts.
    const pis = ownVolume.times(blend.pisNumerator).div(blend.divisor).plus(importedVolume.times(general.value.pisPerM3));
    const cofins = ownVolume.times(blend.cofinsNumerator).div(blend.divisor).plus(importedVolume.times(general.value.cofinsPerM3));
    return {
      ...base, mix: blend.mix,
      blendedPisPerM3: toShare(blend.pisNumerator.div(blend.divisor)), blendedCofinsPerM3: toShare(blend.cofinsNumerator.div(blend.divisor)),
      pisDue: toCentavos(pis), cofinsDue: toCentavos(cofins),
      ...explainSegment(law, regime.regime, { from: seg.from, mix: blend.mix, importedVolumeM3: importedVolume }, asKnownOn, { byQuantity, ownKg, noFeedstock }),
    };
  });

  const importedVolumeM3 = sum(segmentFigures.map((s) => s.importedVolumeM3));
  if (special && importedVolumeM3.gt(0)) warnings.push(finding('IMPORTED_BIODIESEL'));
  const pisDue = sum(segmentFigures.map((s) => s.pisDue));
  const cofinsDue = sum(segmentFigures.map((s) => s.cofinsDue));
  return {
    lawVersions: [...lawVersions].sort(),
    figures: {
      year, month, asKnownOn, regime: regime.regime,
      feedstockCost: toCentavos(valuation.feedstockCost),
      ownProductionPricePerKg: ownKg.gt(0) && pricePerKg !== null ? toShare(pricePerKg) : null,
      segments: segmentFigures,
      domesticVolumeM3: sum(segmentFigures.map((s) => s.ownProductionVolumeM3)),
      importedVolumeM3,
      exportedVolumeM3: sum(segmentFigures.map((s) => s.exportedVolumeM3)),
      pisDue, cofinsDue, totalDue: pisDue.plus(cofinsDue),
      warnings: dedupe(warnings),
      regimeBasis: regimeBasis(law, regime, year, asKnownOn),
      regimeElection: regime.election ? { regime: regime.election.regime, electedOn: regime.election.electedOn, effectiveYear: regime.election.effectiveYear } : null,
    },
  };
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}|${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
