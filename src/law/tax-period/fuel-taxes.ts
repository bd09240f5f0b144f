import { addDays, IsoDate } from '../dates';
import { Decimal, sum, toCentavos } from '../decimal';
import { FuelTaxInForce, LawBook } from '../law-book';
import { FuelTax, FuelTaxStatus } from '../types';
import { FuelTaxFigures, FuelTaxSegmentFigures, ImportFacts, versionKey } from './types';

/**
 * Lei Complementar 214/2025, arts. 172–175 — the single-phase taxes on fuels that replace PIS/Pasep
 * and Cofins from 2027 (the CBS; EC 132/2023, ADCT art. 126), and the IBS after it: levied once
 * (art. 172), on the quantity (art. 173), at a specific rate per m³ set by the federal Executive
 * for the CBS and by the Comitê Gestor for the IBS (art. 174), published as dated law data by an
 * ADMIN. While no rate is published the month shows the volumes, the formula and the status
 * RATE_NOT_PUBLISHED — data, not an error.
 *
 * Interpretation: the base of a month is the volume of own-production biodiesel sold on the
 * domestic market plus the volume of biodiesel imported (cleared) in the month. The tax is levied
 * once on operations "ainda que iniciadas no exterior" (art. 172) and the importer is its
 * taxpayer, so imported biodiesel bears it at its import, and its later domestic sale (sales of
 * origin IMPORTED) is not taxed again; exports bear none.
 * Interpretation (rounding; the sources give no rule): each run of days with the same levy and rate
 * is rounded half-even to the centavo (ABNT NBR 5891), and the month's amount is the sum of its runs'.
 */
export function fuelTaxes(
  law: LawBook,
  segments: ReadonlyArray<{ from: IsoDate; to: IsoDate; ownProductionVolumeM3: Decimal }>,
  imports: readonly ImportFacts[],
  asKnownOn: IsoDate,
  lawVersions?: Set<string>,
): FuelTaxFigures[] {
  type Run = { key: string; from: IsoDate; to: IsoDate; own: Decimal; inForce: FuelTaxInForce };
  const runs = new Map<FuelTax, Run[]>();
  for (const seg of segments) {
    for (const t of law.fuelTaxes(seg.from, asKnownOn)) {
      const key = `${versionKey(t.levy)}|${t.rate ? versionKey(t.rate) : ''}`;
      const list = runs.get(t.tax) ?? [];
      const last = list[list.length - 1];
      if (last && last.key === key && addDays(last.to, 1) === seg.from) {
        last.to = seg.to;
        last.own = last.own.plus(seg.ownProductionVolumeM3);
      } else {
        list.push({ key, from: seg.from, to: seg.to, own: seg.ownProductionVolumeM3, inForce: t });
      }
      runs.set(t.tax, list);
    }
  }
  return Object.values(FuelTax).flatMap((tax): FuelTaxFigures[] => {
    const list = runs.get(tax);
    if (!list) return [];
    const parts = list.map((r): FuelTaxSegmentFigures => {
      const { levy, rate } = r.inForce;
      lawVersions?.add(versionKey(levy));
      if (rate) lawVersions?.add(versionKey(rate));
      const importedVolumeM3 = sum(imports.filter((i) => i.clearedOn >= r.from && i.clearedOn <= r.to).map((i) => i.volumeM3));
      const volumeM3 = r.own.plus(importedVolumeM3);
      return {
        from: r.from, to: r.to, status: rate ? FuelTaxStatus.COMPUTED : FuelTaxStatus.RATE_NOT_PUBLISHED,
        ownProductionVolumeM3: r.own, importedVolumeM3, volumeM3,
        ratePerM3: rate ? rate.value : null,
        due: rate ? toCentavos(volumeM3.times(rate.value)) : null,
        legalBasis: rate ? `${levy.legalBasis}; rate: ${rate.legalBasis}` : `${levy.legalBasis}; ${NOT_PUBLISHED_BASIS[tax]}`,
      };
    });
    const computed = parts.every((p) => p.due !== null);
    const rates = new Set(list.map((r) => (r.inForce.rate ? versionKey(r.inForce.rate) : '')));
    return [{
      tax,
      status: computed ? FuelTaxStatus.COMPUTED : FuelTaxStatus.RATE_NOT_PUBLISHED,
      formula: `${tax} = (own-production biodiesel sold on the domestic market + biodiesel imported) in m³ × the ${tax} rate per m³ in force (Lei Complementar 214/2025, art. 173 §2º)`,
      ownProductionVolumeM3: sum(parts.map((p) => p.ownProductionVolumeM3)),
      importedVolumeM3: sum(parts.map((p) => p.importedVolumeM3)),
      volumeM3: sum(parts.map((p) => p.volumeM3)),
      ratePerM3: rates.size === 1 ? parts[0].ratePerM3 : null,
      due: computed ? sum(parts.map((p) => p.due!)) : null,
      legalBasis: [...new Set(parts.map((p) => p.legalBasis))].join(' | '),
      segments: parts,
    }];
  });
}

/** Who publishes the rate, cited while none is (Lei Complementar 214/2025, art. 174 III). */
const NOT_PUBLISHED_BASIS: Record<FuelTax, string> = {
  [FuelTax.CBS]: 'no rate per m³ published yet (set by the federal Executive, Lei Complementar 214/2025, art. 174 III b): RATE_NOT_PUBLISHED',
  [FuelTax.IBS]: 'no rate per m³ published yet (set by the Comitê Gestor do IBS, Lei Complementar 214/2025, art. 174 III a): RATE_NOT_PUBLISHED',
};
