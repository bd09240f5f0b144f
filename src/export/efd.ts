import { Sale } from '../domain';
import { brazilianDate } from '../formats/brazilian';
import { Decimal, sum, ZERO } from '../law/decimal';
import { COD_CONT_PER_UNIT, EfdRateLine, EfdSegment, item, QUANTITY_PLACES, RATE_PLACES, rateLines } from '../law/efd-contribuicoes';
import { BiodieselOrigin, Market } from '../law/types';
import { sped } from './efd-text';
import type { TaxPeriodView } from '../services/tax-period.service';

/** A SPED number: decimal comma, no thousands separator, the field's decimals. */
function n(value: Decimal, places: number): string {
  return value.toFixed(places, Decimal.ROUND_HALF_EVEN).replace('.', ',');
}

const record = (fields: Array<string | number>) => `|${fields.map((f) => sped(String(f))).join('|')}|`;

/** CST of PIS/Pasep and Cofins (tables 4.3.3–4.3.4): 03 per unit of product; 08 no incidence (exports). */
const CST_PER_UNIT = '03';
const CST_NO_INCIDENCE = '08';

/** M210 / M610 (16 fields): COD_CONT 03, no value base, the quantity base and per-unit rate, the contribution. */
function rateRecord(register: 'M210' | 'M610', l: EfdRateLine): string {
  const v = n(l.contribution, 2);
  return record([register, COD_CONT_PER_UNIT, n(l.revenue, 2), '0', '0', '0', '0', '', n(l.quantityM3, QUANTITY_PLACES), n(l.rate, RATE_PLACES), v, '0', '0', '0', '0', v]);
}

/** M200 / M600 (13 fields): the month's non-cumulative contribution, with no credit, retention or other deduction. */
function totalRecord(register: 'M200' | 'M600', total: Decimal): string {
  const v = n(total, 2);
  return record([register, v, '0', '0', v, '0', '0', v, '0', '0', '0', '0', v]);
}

/** The segment of a sale's date. */
function segmentOf<T extends { from: string; to: string }>(segments: readonly T[], date: string): T | undefined {
  return segments.find((s) => s.from <= date && date <= s.to);
}

export interface EfdInput {
  view: TaxPeriodView;
  /** The month's sales, in date order. */
  sales: Sale[];
  /** The GENERAL per-m³ amounts in force on each segment's first day (for imported biodiesel, art. 6º §5º). */
  general: Array<{ pisPerM3: Decimal; cofinsPerM3: Decimal }>;
}

export interface EfdDraft {
  text: string;
  pis: { lines: EfdRateLine[]; total: Decimal; due: Decimal; difference: Decimal };
  cofins: { lines: EfdRateLine[]; total: Decimal; due: Decimal; difference: Decimal };
}

/**
 * A DRAFT of a closed special-regime month's records (Lei 11.116/2005, art. 4º): M200/M210,
 * M600/M610 and the sales' C170 quantities as SPED text. Lines starting with `#` are notes for the
 * tax team (a draft for the PVA, each figure's source, Σ quantity × rate against the dues).
 */
export function efdDraft({ view, sales, general }: EfdInput): EfdDraft {
  const period = `${String(view.month).padStart(2, '0')}/${view.year}`;
  const domestic = sales.filter((s) => s.market === Market.DOMESTIC);
  const segments: EfdSegment[] = view.segments.map((s, i) => {
    const inSeg = domestic.filter((x) => s.from <= x.soldOn && x.soldOn <= s.to);
    const revenue = (origin: BiodieselOrigin) => sum(inSeg.filter((x) => x.origin === origin).map((x) => x.revenue));
    const costs = sum(s.mix.map((m) => m.cost));
    return {
      from: s.from, to: s.to,
      ownVolumeM3: s.ownProductionVolumeM3, ownRevenue: revenue(BiodieselOrigin.OWN_PRODUCTION),
      importedVolumeM3: s.importedVolumeM3, importedRevenue: revenue(BiodieselOrigin.IMPORTED),
      // The weights of the blend (art. 6º §3º): the valued costs shown; the shares where no cost weighs (no raw material used).
      mix: s.mix.map((m) => ({ category: m.category, weight: costs.isZero() ? m.share : m.cost, pisPerM3: m.pisPerM3, cofinsPerM3: m.cofinsPerM3 })),
      general: general[i],
    };
  });
  const build = (which: 'pis' | 'cofins') => {
    const lines = rateLines(segments, which);
    const total = sum(lines.map((l) => l.contribution));
    const due = which === 'pis' ? view.pisDue : view.cofinsDue;
    return { lines, total, due, difference: total.minus(due) };
  };
  const pis = build('pis');
  const cofins = build('cofins');

  const out: string[] = [
    `# RASCUNHO — EFD-Contribuições, ${period}: registros M200/M210, M600/M610 e campos de quantidade do C170 (regime especial por m³, Lei 11.116/2005, art. 4º).`,
    '# Valide no programa validador e assinador (PVA) da Receita Federal antes de transmitir. As linhas iniciadas por # são notas, não registros SPED: retire-as.',
    '# DRAFT — to be validated in the RFB\'s validator program (PVA) before filing; lines beginning with # are notes, not SPED records.',
    `# Produtor: ${sped(view.producer.legalName)}, CNPJ ${view.producer.cnpj}. Mês fechado em ${view.closedAt?.toISOString() ?? '—'}, impressão digital ${view.fingerprint}; legislação conhecida em ${brazilianDate(view.asKnownOn)}.`,
    '# Uma M210/M610 por alíquota por m³: o volume de produção própria de cada segmento repartido pelas participações das categorias (Decreto 10.527/2020, art. 6º §3º); o importado à alíquota geral (art. 6º §5º).',
    '# Quantidade com 3 decimais, alíquota por m³ com 4, contribuição = quantidade × alíquota, arredondada ao centavo (half-even).',
  ];
  const block = (name: string, register: 'M210' | 'M610', total: 'M200' | 'M600', r: typeof pis) => {
    out.push(totalRecord(total, r.total));
    for (const l of r.lines) {
      out.push(`# ${register} ${n(l.rate, RATE_PLACES)} R$/m³: ${l.categories.join(', ')}; ${l.segments.map((s) => `${brazilianDate(s.from)}–${brazilianDate(s.to)}`).join(', ')}`);
      out.push(rateRecord(register, l));
    }
    out.push(`# ${name}: Σ quantidade × alíquota = ${n(r.total, 2)}; devido no mês (apuração fechada) = ${n(r.due, 2)}; diferença = ${n(r.difference, 2)}${r.difference.isZero() ? '' : ' (arredondamento das quantidades e das alíquotas; não é ocultada: ajuste-a, se for o caso, em M220/M620)'}.`);
  };
  block('PIS/Pasep', 'M210', 'M200', pis);
  block('Cofins', 'M610', 'M600', cofins);

  // C170 (37 fields): the item's quantity fields of PIS/Pasep (QUANT_BC_PIS, ALIQ_PIS_QUANT, VL_PIS) and
  // Cofins; the fields of the document and of ICMS/IPI are the ERP's, left empty.
  out.push('# C170 de cada venda do mês: QUANT_BC e ALIQ_QUANT de PIS/Pasep e Cofins (demais campos do documento, ICMS e IPI ficam com o ERP).');
  let itemsPis = ZERO;
  let itemsCofins = ZERO;
  for (const s of sales) {
    const seg = segmentOf(view.segments, s.soldOn);
    const index = seg ? view.segments.indexOf(seg) : -1;
    out.push(`# venda ${s.id} de ${brazilianDate(s.soldOn)}${s.invoiceKey ? `, NF-e ${s.invoiceKey}` : ''}`);
    const head = ['C170', '1', '', 'Biodiesel B100', n(s.volumeM3, 5), 'M3', n(s.revenue, 2), '0', '0', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''];
    if (s.market === Market.EXPORT || !seg) {
      out.push(record([...head, CST_NO_INCIDENCE, '', '', '', '', '0', CST_NO_INCIDENCE, '', '', '', '', '0', '']));
      continue;
    }
    const imported = s.origin === BiodieselOrigin.IMPORTED;
    const p = item(s.volumeM3, imported ? general[index].pisPerM3 : seg.blendedPisPerM3 ?? ZERO);
    const c = item(s.volumeM3, imported ? general[index].cofinsPerM3 : seg.blendedCofinsPerM3 ?? ZERO);
    itemsPis = itemsPis.plus(p.contribution);
    itemsCofins = itemsCofins.plus(c.contribution);
    out.push(record([...head, CST_PER_UNIT, '', '', n(p.quantityM3, QUANTITY_PLACES), n(p.rate, RATE_PLACES), n(p.contribution, 2),
      CST_PER_UNIT, '', '', n(c.quantityM3, QUANTITY_PLACES), n(c.rate, RATE_PLACES), n(c.contribution, 2), '']));
  }
  out.push(`# C170: Σ VL_PIS = ${n(itemsPis, 2)} (diferença para o devido: ${n(itemsPis.minus(view.pisDue), 2)}); Σ VL_COFINS = ${n(itemsCofins, 2)} (diferença: ${n(itemsCofins.minus(view.cofinsDue), 2)}); `
    + 'a alíquota de cada item é a ponderada do seu segmento com 4 decimais (como informar a alíquota ponderada e a janela de alíquota zero está em aberto no Guia Prático).');
  return { text: `${out.join('\r\n')}\r\n`, pis, cofins };
}
