import { Sale } from '../domain';
import { firstDayOfMonth, IsoDate, lastDayOfMonth } from '../law/dates';
import { Decimal, sum, toCentavos, ZERO } from '../law/decimal';
import {
  COD_CONT, COD_CONT_AD_VALOREM, consolidatedLines, contributionLines, CST_AD_VALOREM, DCTF_REVENUE_CODE, EfdConsolidatedLine, EfdContributionLine,
  EfdSaleFacts, EfdSegment, EfdZeroRevenue, Incidence, PERCENT_PLACES, QUANTITY_PLACES, RATE_PLACES,
} from '../law/efd-contribuicoes';
import { municipalityFacts } from '../law/municipality';
import { BiodieselOrigin, Market } from '../law/types';
import type { TaxPeriodView } from '../services/tax-period.service';
import { sped, spedDate, spedName, spedNumber } from './efd-text';
import { apportionment, balanceRecords, creditRecords, deductions, EfdCredits } from './efd-credits';
import { acquisitionRecords, acquisitionRows } from './efd-acquisitions';
import { ApportionmentMethod } from '../law/credits';
import { Contribution } from '../law/credits';

/**
 * A producer's whole EFD-Contribuições file of a month (IN RFB 1.252/2012; Guia Prático v1.35):
 * blocks 0 to 9 in the Guia's order; sales in C180/C181/C185 per establishment, Bloco M rebuilt
 * from them, credits in M100/M500 with their acquisitions in C190–C195, balances in 1100/1500.
 */

/** Layout version code of 0000 field 02 for periods from 2020 (table 3.1.1 of ADE Cofis 34/2010). */
const LAYOUT_VERSION = '006';
const ITEM = { code: 'BIODIESEL-B100', description: 'Biodiesel B100', unit: 'M3', unitDescription: 'Metro cubico', ncm: '38260000', kind: '04', genre: '38' };
/** The placeholder of 0100: the API does not hold the accountant's data; the file does not pass the PVA until it is filled. */
const ACCOUNTANT_PLACEHOLDER = ['A PREENCHER - NOME DO CONTABILISTA', '00000000000', 'A PREENCHER'];

export interface EfdFileInput {
  view: TaxPeriodView;
  /** The month's sales, in date order. */
  sales: Sale[];
  /** The GENERAL per-m³ amounts in force on each segment's first day (art. 6º §5º; the 2026 window). Special regime only. */
  general: Array<{ pisPerM3: Decimal; cofinsPerM3: Decimal }>;
  /**
   * A month under the ad valorem regime (Lei 11.116/2005, art. 3º): each segment's rates as fractions, as the closed
   * month applied them. Absent: the special regime (art. 4º).
   */
  adValorem?: Array<{ pis: Decimal; cofins: Decimal }> | null;
  incidence: Incidence;
  /** The month's returns of sales (finNFe 4), each with the sale it reduces (and its record's id, to name it). */
  returns?: ReadonlyArray<EfdSaleReturn>;
  /** The month's credits and balances (non-cumulative only); none written when absent. */
  credits?: EfdCredits | null;
}

export interface EfdFile {
  /** The records as text, CRLF lines (write it as ISO-8859-1: `latin1`). */
  text: string;
  pis: { total: Decimal; lines: EfdContributionLine[] };
  cofins: { total: Decimal; lines: EfdContributionLine[] };
}

type Field = string | number | null;

export interface EfdSaleReturn {
  id?: string;
  returnedOn: IsoDate;
  volumeM3: Decimal;
  revenue: Decimal;
  sale: Sale;
}

/**
 * The month's contribution would be negative, at a line (M210/M610 field 16) or in total (M200/M600), and the EFD holds
 * neither below zero: the returns of sales its sales do not cover reduce the due more than the month's sales give. Their
 * credit (Lei 10.637/2002 and Lei 10.833/2003, art. 3º VIII: goods received in return) is not written yet, so no file is.
 */
export class EfdUncoveredReturnError extends Error {
  constructor(readonly returns: readonly EfdSaleReturn[], readonly pisDue: Decimal, readonly cofinsDue: Decimal) {
    super(`The month's returns of sales not covered by its sales leave a negative contribution (PIS/Pasep ${pisDue.toFixed(2)}, Cofins ${cofinsDue.toFixed(2)})`);
  }
}

/** The establishment of a sale: the issuer CNPJ of its NF-e key (digits 7–20) when it is one of the producer's, else the head office. */
function establishmentOf(sale: Sale, cnpjs: ReadonlySet<string>, head: string): string {
  const issuer = sale.invoiceKey?.slice(6, 20);
  return issuer && cnpjs.has(issuer) ? issuer : head;
}

const NO_AMOUNTS = { pisPerM3: ZERO, cofinsPerM3: ZERO };

export function efdFile({ view, sales, general, adValorem = null, incidence, returns = [], credits: creditsInput }: EfdFileInput): EfdFile {
  const credits = incidence === 'NON_CUMULATIVE' ? creditsInput ?? null : null;
  const producer = view.producer;
  const from = firstDayOfMonth(view.year, view.month);
  const to = lastDayOfMonth(view.year, view.month);
  const head = producer.cnpj;
  const cnpjs = new Set([head, ...producer.establishments]);
  const segmentIndex = (date: IsoDate) => view.segments.findIndex((s) => s.from <= date && date <= s.to);

  const facts: EfdSaleFacts[] = sales.filter((s) => segmentIndex(s.soldOn) >= 0).map((s) => ({
    establishment: establishmentOf(s, cnpjs, head), segment: segmentIndex(s.soldOn),
    origin: s.origin === BiodieselOrigin.IMPORTED ? 'IMPORTED' : 'OWN_PRODUCTION', market: s.market === Market.EXPORT ? 'EXPORT' : 'DOMESTIC',
    volumeM3: s.volumeM3, revenue: s.revenue,
  }));
  // A return of a sale leaves the base of the C181/C185 of its establishment and segment (Guia, C190 "I – Devolução de
  // vendas": not in the base of C181/C185), where that group's sales cover it; what they do not cover stays in the
  // M220/M620 adjustment to the month's dues (docs/LAW.md). The base is the volume per m³, the revenue ad valorem.
  const groupOf = (f: Pick<EfdSaleFacts, 'establishment' | 'segment' | 'origin' | 'market'>) => [f.establishment, f.segment, f.origin, f.market].join('|');
  const measure = (f: { volumeM3: Decimal; revenue: Decimal }) => (adValorem ? f.revenue : f.volumeM3);
  const room = new Map<string, Decimal>();
  const uncovered: EfdSaleReturn[] = [];
  for (const f of facts) room.set(groupOf(f), (room.get(groupOf(f)) ?? ZERO).plus(measure(f)));
  for (const r of returns) {
    const f: EfdSaleFacts = {
      establishment: establishmentOf(r.sale, cnpjs, head), segment: segmentIndex(r.returnedOn),
      origin: r.sale.origin === BiodieselOrigin.IMPORTED ? 'IMPORTED' : 'OWN_PRODUCTION', market: r.sale.market === Market.EXPORT ? 'EXPORT' : 'DOMESTIC',
      volumeM3: r.volumeM3.negated(), revenue: r.revenue.negated(),
    };
    const left = room.get(groupOf(f)) ?? ZERO;
    if (f.segment < 0 || left.lt(measure(r))) {
      uncovered.push(r);
      continue;
    }
    room.set(groupOf(f), left.minus(measure(r)));
    facts.push(f);
  }
  const segments: EfdSegment[] = view.segments.map((s, i) => {
    const costs = sum(s.mix.map((m) => m.cost));
    return {
      from: s.from, to: s.to, ownVolumeM3: s.ownProductionVolumeM3, ownRevenue: ZERO, importedVolumeM3: s.importedVolumeM3, importedRevenue: ZERO,
      // The weights of the blend (art. 6º §3º): the valued costs; the shares where no cost weighs (no raw material used).
      mix: s.mix.map((m) => ({ category: m.category, weight: costs.isZero() ? m.share : m.cost, pisPerM3: m.pisPerM3, cofinsPerM3: m.cofinsPerM3 })),
      general: general[i] ?? NO_AMOUNTS,
      adValorem: adValorem?.[i] ?? null,
    };
  });
  const pisC = consolidatedLines(segments, facts, 'pis');
  const cofinsC = consolidatedLines(segments, facts, 'cofins');
  // M200/M600 and M210/M610 field 16 are never below zero (Guia): a month whose uncovered returns take more than its sales
  // give has no file until their credit is written (docs/LAW.md, "A return of a sale leaves the C-level base").
  const refuse = () => {
    if (uncovered.length) throw new EfdUncoveredReturnError(uncovered, view.pisDue, view.cofinsDue);
    throw new Error(`A negative contribution (${view.pisDue.toFixed(2)} / ${view.cofinsDue.toFixed(2)}) without a return of a sale to explain it`);
  };
  if (view.pisDue.lt(0) || view.cofinsDue.lt(0)) refuse();
  // The uncovered returns' share of the dues, as the closed month nets them (docs/LAW.md, "Returns"): the volume at its
  // segment's blended amount (imported biodiesel at GENERAL, art. 6º §5º), ad valorem the value at the segment's rate; an
  // export's none. Its own M220/M620; what else is left against the dues is rounding.
  const returnedShare = (which: 'pis' | 'cofins') => toCentavos(sum(uncovered.map((r) => {
    const i = segmentIndex(r.returnedOn);
    if (i < 0 || r.sale.market === Market.EXPORT) return ZERO;
    if (adValorem) return r.revenue.times(adValorem[i][which]).negated();
    const seg = view.segments[i];
    const amounts = general[i] ?? NO_AMOUNTS;
    const generalRate = which === 'pis' ? amounts.pisPerM3 : amounts.cofinsPerM3;
    const blended = which === 'pis' ? seg.blendedPisPerM3 : seg.blendedCofinsPerM3;
    return r.volumeM3.times(r.sale.origin === BiodieselOrigin.IMPORTED ? generalRate : blended ?? generalRate).negated();
  })));
  const pisM = contributionLines(pisC, view.pisDue, returnedShare('pis'));
  const cofinsM = contributionLines(cofinsC, view.cofinsDue, returnedShare('cofins'));
  if ([pisM, cofinsM].some((m) => [...m.perUnit, ...m.adValorem].some((l) => l.contribution.plus(l.adjustment).lt(0)))) refuse();
  // 0110 COD_TIPO_CONT 2: specific rates, differentiated percentages (COD_CONT 02/52) or per unit (03/53).
  const specific = [pisM, cofinsM].some((m) => m.perUnit.length > 0 || m.adValorem.length > 0);
  // The acquisitions behind the credits, consolidated at the head office (C190; Interpretation, docs/LAW.md).
  const acquired = acquisitionRows(credits?.acquisitions ?? [], producer.plantMunicipalityCode);
  const items = [...new Map(acquired.rows.map((r) => [r.item.code, r.item])).values()].sort((a, b) => a.code.localeCompare(b.code));

  const lines: string[] = [];
  const put = (...fields: Field[]) => lines.push(`|${fields.map((f) => (f === null ? '' : sped(String(f)))).join('|')}|`);
  const n = spedNumber;
  const blockStart = () => lines.length;
  const close = (reg: string, start: number) => put(reg, lines.length - start + 1);
  const place = municipalityFacts(producer.plantMunicipalityCode);
  // A name with no character NOME accepts (another script, say) is still a required field: the CNPJ stands for it.
  const name = spedName(producer.legalName) || `CNPJ ${head}`;

  // Bloco 0.
  let start = blockStart();
  put('0000', LAYOUT_VERSION, '0', null, null, spedDate(from), spedDate(to), name, head, place?.state ?? null, producer.plantMunicipalityCode, null, '00', '0');
  put('0001', '0');
  put('0100', ...ACCOUNTANT_PLACEHOLDER, null, null, null, null, null, null, null, null, null, null);
  // COD_INC_TRIB 1/2; IND_APRO_CR only for the non-cumulative regime; COD_TIPO_CONT 2 when an M210 of specific rates exists; IND_REG_CUM 9 (detailed, blocks A/C/D/F).
  const indApro = credits?.method === ApportionmentMethod.REVENUE_RATIO ? '2' : '1';
  put('0110', incidence === 'NON_CUMULATIVE' ? '1' : '2', incidence === 'NON_CUMULATIVE' ? indApro : null, specific ? '2' : null, incidence === 'CUMULATIVE' ? '9' : null);
  apportionment(put, credits);
  const withSales = new Set(facts.map((f) => f.establishment));
  const withRecords = new Set([...withSales, ...(acquired.rows.length ? [head] : [])]);
  const establishments = [head, ...producer.establishments.filter((e) => e !== head)];
  for (const cnpj of establishments) {
    // Interpretation: the API records one municipality per producer (its plant's); another establishment is written with it until recorded.
    put('0140', cnpj, name, cnpj, place?.state ?? null, null, producer.plantMunicipalityCode, null, null);
    const sells = withSales.has(cnpj);
    const buys = cnpj === head && items.length > 0;
    if (buys && items.some((i) => i.kind !== '00')) put('0190', 'KG', 'Quilograma');
    if (sells || (buys && items.some((i) => i.kind === '00'))) put('0190', ITEM.unit, ITEM.unitDescription);
    if (sells) put('0200', ITEM.code, ITEM.description, null, null, ITEM.unit, ITEM.kind, ITEM.ncm, null, ITEM.genre, null, null);
    if (buys) for (const i of items) put('0200', i.code, i.description, null, null, i.kind === '00' ? ITEM.unit : 'KG', i.kind, i.ncm, null, i.ncm?.slice(0, 2) ?? null, null, null);
  }
  close('0990', start);

  // Blocos A (services) and C (goods: the NF-e of the sales, consolidated).
  put('A001', '1');
  put('A990', 2);
  start = blockStart();
  put('C001', withRecords.size ? '0' : '1');
  for (const cnpj of establishments.filter((e) => withRecords.has(e))) {
    put('C010', cnpj, '1');
    // One C180 per segment with sales: a change of rate within the month is a new period of one tax treatment (the Guia, C180 note 4).
    view.segments.forEach((_, index) => {
      const mine = sales.filter((s) => establishmentOf(s, cnpjs, head) === cnpj && segmentIndex(s.soldOn) === index);
      if (!mine.length) return;
      const total = sum(facts.filter((f) => f.establishment === cnpj && f.segment === index).map((f) => f.revenue));
      put('C180', '55', spedDate(mine[0].soldOn), spedDate(mine[mine.length - 1].soldOn), ITEM.code, ITEM.ncm, null, n(total, 2));
      for (const [reg, list] of [['C181', pisC], ['C185', cofinsC]] as const) {
        for (const l of list.filter((x) => x.establishment === cnpj && x.segment === index).sort(byCst)) consolidated(put, reg, l);
      }
    });
    if (cnpj === head) acquisitionRecords(put, acquired.rows);
  }
  close('C990', start);
  for (const b of ['D', 'F', 'I']) {
    put(`${b}001`, '1');
    put(`${b}990`, 2);
  }

  // Bloco M: the contribution of the month, rebuilt from the C-level lines.
  start = blockStart();
  put('M001', '0');
  const period = spedDate(to);
  const block = (which: 'pis' | 'cofins', m: ReturnType<typeof contributionLines>) => {
    const [total, detail, adjust, zeroReg, zeroDetail] = which === 'pis' ? ['M200', 'M210', 'M220', 'M400', 'M410'] : ['M600', 'M610', 'M620', 'M800', 'M810'];
    const per = [...m.perUnit, ...m.adValorem].map((l) => ({ l, value: l.contribution.plus(l.adjustment) }));
    const due = sum(per.map((p) => p.value));
    const nc = incidence === 'NON_CUMULATIVE' ? due : ZERO;
    const cum = incidence === 'CUMULATIVE' ? due : ZERO;
    const tax = which === 'pis' ? Contribution.PIS : Contribution.COFINS;
    if (credits) creditRecords(put, tax, credits, acquired.uncovered, acquired.rows);
    // M200/M600: the credits of the month (03) and of earlier months (04) deducted, no retention or other deduction; fields 02–08 non-cumulative, 09–12 cumulative, 13 the total.
    const d = credits ? deductions(tax, credits) : { ofMonth: ZERO, earlier: ZERO };
    const ncDue = Decimal.max(ZERO, nc.minus(d.ofMonth).minus(d.earlier));
    put(total, n(nc, 2), n(d.ofMonth, 2), n(d.earlier, 2), n(ncDue, 2), n(ZERO, 2), n(ZERO, 2), n(ncDue, 2), n(cum, 2), n(ZERO, 2), n(ZERO, 2), n(cum, 2), n(ncDue.plus(cum), 2));
    const code = DCTF_REVENUE_CODE[incidence][which];
    if (ncDue.gt(0)) put(`${total.slice(0, 2)}05`, '08', code, n(ncDue, 2));
    if (cum.gt(0)) put(`${total.slice(0, 2)}05`, '12', code, n(cum, 2));
    for (const { l, value } of per) {
      // Fields 12 and 13: the sums of its M220/M620 of IND_AJ 1 and 0, a cause each.
      const up = sum(l.adjustments.filter((a) => a.value.gt(0)).map((a) => a.value));
      const down = sum(l.adjustments.filter((a) => a.value.lt(0)).map((a) => a.value.negated()));
      if (l.base) {
        // Ad valorem (Lei 11.116/2005, art. 3º): the value base and the percentage rate, no quantity; field 07 = 04 + 05 − 06, field 11 = 07 × 08 / 100.
        put(detail, COD_CONT_AD_VALOREM[incidence], n(l.revenue, 2), n(l.base, 2), n(ZERO, 2), n(ZERO, 2), n(l.base, 2), n(l.rate, PERCENT_PLACES), null, null,
          n(l.contribution, 2), n(up, 2), n(down, 2), n(ZERO, 2), n(ZERO, 2), n(value, 2));
      } else {
        put(detail, COD_CONT[incidence], n(l.revenue, 2), n(ZERO, 2), n(ZERO, 2), n(ZERO, 2), n(ZERO, 2), null, n(l.quantityM3, QUANTITY_PLACES), n(l.rate, RATE_PLACES),
          n(l.contribution, 2), n(up, 2), n(down, 2), n(ZERO, 2), n(ZERO, 2), n(value, 2));
      }
      for (const a of l.adjustments) {
        // Table 4.3.8 code 03 (tax legislation), secondary; the description is the part's cause (docs/LAW.md): the rounding of
        // the quantities and rates (the blended amount of art. 6º §3º is no published per-unit rate; ad valorem, the segments'
        // own rounding), or a return of a sale the month's sales do not cover.
        put(adjust, a.value.gt(0) ? '1' : '0', n(a.value.abs(), 2), '03', null, a.cause === 'UNCOVERED_RETURN'
          ? `Devolucao de venda nao coberta pelas vendas do mes (${l.base ? 'Lei 11.116/2005, art. 3' : 'Lei 11.116/2005, art. 4'}); devido do mes = apuracao fechada. COD_AJ a confirmar (tabela 4.3.8)`
          : l.base
            ? 'Arredondamento: devido do mes = soma dos segmentos, cada um arredondado ao centavo. COD_AJ a confirmar (tabela 4.3.8)'
            : 'Arredondamento: quantidades repartidas pela aliquota ponderada (Decreto 10.527/2020, art. 6, par. 3); devido do mes = apuracao fechada. COD_AJ a confirmar (tabela 4.3.8)', period);
      }
    }
    zeroBlock(put, zeroReg, zeroDetail, m.zero);
  };
  block('pis', pisM);
  block('cofins', cofinsM);
  close('M990', start);

  start = blockStart();
  const index1001 = lines.length;
  put('1001', '1');
  const balances = credits ? balanceRecords(put, Contribution.PIS, credits) + balanceRecords(put, Contribution.COFINS, credits) : 0;
  if (balances > 0) lines[index1001] = '|1001|0|';
  close('1990', start);

  // Bloco 9: one 9900 per register (9900, 9990 and 9999 included), 9990 and 9999 the line counts.
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(l.slice(1, 5), (counts.get(l.slice(1, 5)) ?? 0) + 1);
  const registers = [...counts.keys(), '9001', '9900', '9990', '9999'];
  put('9001', '0');
  for (const r of registers) put('9900', r, r === '9900' ? registers.length : counts.get(r) ?? 1);
  // 9001, the 9900s, 9990 and 9999, which counts in block 9 (the Guia, 9990 field 02).
  put('9990', registers.length + 3);
  put('9999', lines.length + 1);

  return { text: `${lines.join('\r\n')}\r\n`, pis: { total: view.pisDue, lines: [...pisM.perUnit, ...pisM.adValorem] }, cofins: { total: view.cofinsDue, lines: [...cofinsM.perUnit, ...cofinsM.adValorem] } };
}

const byCst = (a: EfdConsolidatedLine, b: EfdConsolidatedLine) => a.cst.localeCompare(b.cst) || a.cfop.localeCompare(b.cfop) || (b.rate?.comparedTo(a.rate ?? 0) ?? 0);

/**
 * C181/C185 (11 fields): CST, CFOP, VL_ITEM, no discount; the quantity base, the per-unit rate and the contribution for CST 03
 * and 06; the value base, the rate in percent and the contribution for CST 02 (ad valorem).
 */
function consolidated(put: (...f: Field[]) => void, reg: string, l: EfdConsolidatedLine): void {
  if (l.cst === CST_AD_VALOREM) {
    put(reg, l.cst, l.cfop, spedNumber(l.revenue, 2), spedNumber(ZERO, 2), spedNumber(l.base!, 2), spedNumber(l.rate!, PERCENT_PLACES), null, null, spedNumber(l.contribution, 2), null);
    return;
  }
  const q = l.quantityM3 ? spedNumber(l.quantityM3, QUANTITY_PLACES) : null;
  const r = l.rate ? spedNumber(l.rate, RATE_PLACES) : null;
  put(reg, l.cst, l.cfop, spedNumber(l.revenue, 2), spedNumber(ZERO, 2), null, null, q, r, spedNumber(l.contribution, 2), null);
}

/** M400/M410 (M800/M810): the revenue without contribution per CST, and per revenue nature; a code not found stays empty and DESC_COMPL says so. */
function zeroBlock(put: (...f: Field[]) => void, reg: string, detail: string, zero: EfdZeroRevenue[]): void {
  for (const cst of [...new Set(zero.map((z) => z.cst))]) {
    const mine = zero.filter((z) => z.cst === cst);
    put(reg, cst, spedNumber(sum(mine.map((z) => z.revenue)), 2), null, null);
    for (const z of mine) {
      const open = z.zero === 'EXPORT' ? 'NAT_REC EM ABERTO: codigo da tabela 4.3.15 para exportacao de biodiesel nao confirmado'
        : 'NAT_REC EM ABERTO: codigo da tabela 4.3.13 para a aliquota zero de 2026 (Decreto 10.527/2020, art. 5, par. 2 a 4) nao confirmado';
      put(detail, z.natureCode, spedNumber(z.revenue, 2), null, z.natureCode ? null : open);
    }
  }
}
