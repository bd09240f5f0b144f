import { addDays, IsoDate } from '../dates';
import { Decimal, sum, toCentavos, ZERO } from '../decimal';
import { FuelTaxInForce, LawBook } from '../law-book';
import { FuelTax, FuelTaxStatus } from '../types';
import { FuelTaxFigures, FuelTaxSegmentFigures, ImportFacts, versionKey } from './types';

/**
 * The single-phase CBS and IBS on fuels from 2027 (LC 214/2025 arts. 172–175; EC 132/2023, ADCT
 * art. 126): volume × the rate an ADMIN publishes; RATE_NOT_PUBLISHED until then. Interpretations
 * (imports bear it at clearance, not again when sold; each run of days rounded): docs/LAW.md.
 */
export function fuelTaxes(
  law: LawBook,
  segments: ReadonlyArray<{ from: IsoDate; to: IsoDate; ownProductionVolumeM3: Decimal; pisCofinsInForce?: boolean }>,
  imports: readonly ImportFacts[],
  asKnownOn: IsoDate,
  lawVersions?: Set<string>,
): FuelTaxFigures[] {
  type Run = { key: string; from: IsoDate; to: IsoDate; own: Decimal; inForce: FuelTaxInForce };
  const runs = new Map<FuelTax, Run[]>();
  const unregulated = new Set<FuelTaxInForce>();
  for (const seg of segments) {
    const inForce = law.fuelTaxes(seg.from, asKnownOn);
    // EC 132/2023, ADCT art. 126, I–II: where PIS/Cofins are extinct the CBS replaces them, even as known
    // before a law (LC 214/2025) gave it a base and a rate: not determinable, never 0 (docs/LAW.md).
    const extinct = seg.pisCofinsInForce === false ? law.pisCofinsExtinction(seg.from, asKnownOn) : undefined;
    if (extinct && !inForce.some((t) => t.tax === FuelTax.CBS)) {
      const cbs: FuelTaxInForce = { tax: FuelTax.CBS, levy: extinct, rate: undefined };
      unregulated.add(cbs);
      inForce.unshift(cbs);
    }
    for (const t of inForce) {
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
      // Art. 173: tax = quantity × rate, so a base of 0 m³ owes 0,00 whatever the rate; a base the law
      // has not yet defined (unregulated) stays unknown.
      const nothing = !rate && volumeM3.isZero() && !unregulated.has(r.inForce);
      return {
        from: r.from, to: r.to, status: rate || nothing ? FuelTaxStatus.COMPUTED : FuelTaxStatus.RATE_NOT_PUBLISHED,
        ownProductionVolumeM3: r.own, importedVolumeM3, volumeM3,
        ratePerM3: rate ? rate.value : null,
        due: rate ? toCentavos(volumeM3.times(rate.value)) : nothing ? toCentavos(ZERO) : null,
        legalBasis: rate ? `${levy.legalBasis}; rate: ${rate.legalBasis}`
          : nothing ? `${levy.legalBasis}; ${ZERO_BASE_BASIS}`
            : unregulated.has(r.inForce) ? `${UNREGULATED_BASIS} as known on ${asKnownOn}` : `${levy.legalBasis}; ${NOT_PUBLISHED_BASIS[tax]}`,
      };
    });
    const computed = parts.every((p) => p.due !== null);
    const rates = new Set(list.map((r) => (r.inForce.rate ? versionKey(r.inForce.rate) : '')));
    return [{
      tax,
      status: computed ? FuelTaxStatus.COMPUTED : FuelTaxStatus.RATE_NOT_PUBLISHED,
      formula: list.every((r) => unregulated.has(r.inForce))
        ? `${tax} on biodiesel from ${list[0].inForce.levy.validFrom} (EC 132/2023, ADCT art. 126, I): its base and rate are set by complementary law, none published as known on ${asKnownOn}`
        : `${tax} = (own-production biodiesel sold on the domestic market + biodiesel imported) in m³ × the ${tax} rate per m³ in force (Lei Complementar 214/2025, art. 173 §2º)`,
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

const UNREGULATED_BASIS = 'EC 132/2023, ADCT art. 126, I–II (PIS/Pasep and Cofins extinct, the CBS due from 2027); no law setting the CBS on biodiesel, its base and rate, published: CBS_NOT_REGULATED';

const ZERO_BASE_BASIS = 'nothing sold on the domestic market nor imported: 0 m³ × any rate = 0,00, though no rate per m³ is published yet (Lei Complementar 214/2025, art. 173 §2º)';
