import { CreditProduct, EfdAcquisition, RevenueGroup } from '../law/credits';
import { IsoDate } from '../law/dates';
import { Decimal, toCentavos, ZERO } from '../law/decimal';
import { spedDate, spedNumber } from './efd-text';

/** An item of 0200 (Guia, 0200 fields 02, 03, 07, 08). */
export interface EfdItem { code: string; description: string; kind: string; ncm: string | null }

/** One C191 and its C195: an item's acquisitions from one participant under one CST, CFOP and rate. */
export interface AcquisitionRow {
  item: EfdItem;
  participant: string | null;
  /** The CST of the credit (50–52, by group). */
  cst: string;
  /** What C191 and C195 write: the credit's CST, or for a contribution without credit (rate 0) its entry CST 70–75. */
  pisCst: string;
  cofinsCst: string;
  cfop: string;
  pisRate: Decimal | null;
  cofinsRate: Decimal | null;
  value: Decimal;
  /** ICMS excluded and purchase returns of the month netted here (field 06). */
  discount: Decimal;
  base: Decimal;
  pis: Decimal;
  cofins: Decimal;
  /** The credit line (M100/M500) the row adds to: COD_CRED and rates. */
  line: string;
  /** NAT_BC_CRED of its M105/M505 (table 4.3.7): 01 bought for resale, 02 inputs. */
  nature: '01' | '02';
  from: IsoDate;
  to: IsoDate;
}

/** What the C level cannot net: returns of purchases with no acquisition of their row this month, by credit line (M110/M510, Guia C190 "II"); `resale` the part of the base of goods bought for resale (NAT_BC_CRED 01). */
export interface Uncovered { base: Decimal; pis: Decimal; cofins: Decimal; resale: Decimal }

/** CST of an acquisition with a right to credit (table 4.3.3), by the group it serves: as M105/M505 write it. */
export const ACQUISITION_CST: Record<RevenueGroup, string> = { [RevenueGroup.TAXED_DOMESTIC]: '50', [RevenueGroup.UNTAXED_DOMESTIC]: '51', [RevenueGroup.EXPORT]: '52' };

/**
 * The buyer's entry CST of an acquisition without the right to credit (table 4.3.4), from the supplier's CST of that
 * contribution: 06 zero rate → 73, 07 exempt → 71, 08 not subject → 74, 09 suspended → 72; an entry CST 70–75 as
 * stated; any other (04 of no single-phase input, 49, 98, 99, a presumed 60–67) 70, without the right to credit. The
 * inverse of how purchaseCredit reads an entry note's 70–75 (Interpretation, docs/LAW.md).
 */
const NO_CREDIT_ENTRY_CST: Record<string, string> = { '06': '73', '07': '71', '08': '74', '09': '72' };
const entryCstWithoutCredit = (supplierCst: string | null | undefined): string =>
  (supplierCst && /^7[0-5]$/.test(supplierCst) ? supplierCst : NO_CREDIT_ENTRY_CST[supplierCst ?? ''] ?? '70');

/** The key of a credit line, as `monthCredits` adds purchases up. */
export const lineKey = (codCred: string, pisRate: Decimal | null, cofinsRate: Decimal | null) => `${codCred}|${pisRate?.toFixed() ?? ''}|${cofinsRate?.toFixed() ?? ''}`;

/**
 * NCM of a raw material (TIPI), where a source was found; null otherwise (C190 field 06 left empty: docs/LAW.md, "Table
 * codes"). Grains and seeds other than for sowing; crude soybean oil; other bovine tallow.
 */
const FEEDSTOCK_NCM: Record<string, string> = {
  SOYBEAN: '12019000', SOYBEAN_OIL: '15071000', CASTOR_BEAN: '12073090', COTTONSEED: '12072900', SUNFLOWER: '12060090', CANOLA: '12051090', BEEF_TALLOW: '15021019',
};

/** The 0200 item of an acquisition: biodiesel for resale (TIPO_ITEM 00), other inputs (10), else the raw material (01). */
export function acquisitionItem(a: Pick<EfdAcquisition, 'feedstock' | 'product'>): EfdItem {
  if (a.product === CreditProduct.B100_FOR_RESALE) return { code: 'BIODIESEL-B100-REVENDA', description: 'Biodiesel B100 para revenda', kind: '00', ncm: '38260000' };
  if (a.product === CreditProduct.INPUT || a.product === CreditProduct.FUEL_INPUT) return { code: `INSUMO-${a.feedstock}`, description: `Insumo ${a.feedstock}`, kind: '10', ncm: null };
  return { code: `MP-${a.feedstock}`, description: `Materia-prima ${a.feedstock}`, kind: '01', ncm: FEEDSTOCK_NCM[a.feedstock] ?? null };
}

/**
 * CFOP of an entry (Ajuste SINIEF 07/2001): x101 bought for industrialization, x102 for resale; 1 within the plant's
 * State, 2 from another (the lot's municipality of origin), 3 from abroad. Interpretation (docs/LAW.md).
 */
export function acquisitionCfop(a: Pick<EfdAcquisition, 'abroad' | 'product' | 'originMunicipalityCode'>, plantMunicipalityCode: string): string {
  const scope = a.abroad ? '3' : a.originMunicipalityCode.slice(0, 2) === plantMunicipalityCode.slice(0, 2) ? '1' : '2';
  return `${scope}10${a.product === CreditProduct.B100_FOR_RESALE ? '2' : '1'}`;
}

/**
 * The month's credited acquisitions as C191/C195 rows, one per item, participant, CST, CFOP and rate
 * (Guia, C190–C195). A purchase return of the month is netted in its row (field 06); one with no
 * acquisition to cover it is left to M110/M510. VL_PIS/VL_COFINS: base × rate, for imports the amount paid.
 */
export function acquisitionRows(acquisitions: EfdAcquisition[], plantMunicipalityCode: string): { rows: AcquisitionRow[]; uncovered: Map<string, Uncovered> } {
  const rows = new Map<string, AcquisitionRow>();
  const uncovered = new Map<string, Uncovered>();
  const byPurchase = new Map<string, Decimal>();
  for (const a of acquisitions) if (a.part.base.gt(0)) byPurchase.set(a.part.purchaseId, (byPurchase.get(a.part.purchaseId) ?? ZERO).plus(a.part.base));
  const ordered = [...acquisitions].sort((x, y) => Number(x.part.base.lt(0)) - Number(y.part.base.lt(0)));
  for (const a of ordered) {
    const p = a.part;
    const item = acquisitionItem(a);
    const participant = a.abroad ? null : a.document;
    const cst = ACQUISITION_CST[p.group];
    // A contribution whose CST gives no credit (Lei 10.637/2002 and Lei 10.833/2003, each art. 3º § 2º II) is credited at a rate
    // of 0: its C191/C195 states the entry without credit, not the group's 50–52, and adds to no M105/M505.
    const pisCst = p.pisRate?.isZero() ? entryCstWithoutCredit(a.pisCst) : cst;
    const cofinsCst = p.cofinsRate?.isZero() ? entryCstWithoutCredit(a.cofinsCst ?? a.pisCst) : cst;
    const cfop = acquisitionCfop(a, plantMunicipalityCode);
    const key = [item.code, participant ?? '', cst, pisCst, cofinsCst, cfop, p.pisRate?.toFixed() ?? '', p.cofinsRate?.toFixed() ?? ''].join('|');
    const line = lineKey(p.codCred, p.pisRate, p.cofinsRate);
    const nature: AcquisitionRow['nature'] = a.product === CreditProduct.B100_FOR_RESALE ? '01' : '02';
    const row = rows.get(key);
    const on = p.on ?? a.purchasedOn;
    if (p.base.lt(0)) {
      if (!row || row.base.lt(p.base.negated())) {
        const u = uncovered.get(line) ?? { base: ZERO, pis: ZERO, cofins: ZERO, resale: ZERO };
        uncovered.set(line, { base: u.base.minus(p.base), pis: u.pis.minus(p.pis), cofins: u.cofins.minus(p.cofins), resale: nature === '01' ? u.resale.minus(p.base) : u.resale });
        continue;
      }
      Object.assign(row, { discount: row.discount.minus(p.base), base: row.base.plus(p.base), pis: row.pis.plus(p.pis), cofins: row.cofins.plus(p.cofins), to: on > row.to ? on : row.to });
      continue;
    }
    // The item's value: the purchase's cost, in the proportion of its credit base this group took.
    const value = toCentavos(a.cost.times(p.base).div(byPurchase.get(p.purchaseId)!));
    const next = row ?? { item, participant, cst, pisCst, cofinsCst, cfop, pisRate: p.pisRate, cofinsRate: p.cofinsRate, value: ZERO, discount: ZERO, base: ZERO, pis: ZERO, cofins: ZERO, line, nature, from: on, to: on };
    rows.set(key, Object.assign(next, {
      value: next.value.plus(value), discount: next.discount.plus(value.minus(p.base)), base: next.base.plus(p.base), pis: next.pis.plus(p.pis), cofins: next.cofins.plus(p.cofins),
      from: on < next.from ? on : next.from, to: on > next.to ? on : next.to,
    }));
  }
  return { rows: [...rows.values()], uncovered };
}

type Put = (...fields: Array<string | number | null>) => void;

/** C190 per item, its C191 (PIS/Pasep) and C195 (Cofins) per participant, CST, CFOP and rate. */
export function acquisitionRecords(put: Put, rows: AcquisitionRow[]): void {
  const n = spedNumber;
  const items = [...new Map(rows.map((r) => [r.item.code, r.item])).values()].sort((a, b) => a.code.localeCompare(b.code));
  for (const item of items) {
    const mine = rows.filter((r) => r.item.code === item.code)
      .sort((a, b) => (a.participant ?? '').localeCompare(b.participant ?? '') || a.cst.localeCompare(b.cst) || a.cfop.localeCompare(b.cfop));
    const from = mine.reduce((d, r) => (r.from < d ? r.from : d), mine[0].from);
    const to = mine.reduce((d, r) => (r.to > d ? r.to : d), mine[0].to);
    put('C190', '55', spedDate(from), spedDate(to), item.code, item.ncm, null, n(mine.reduce((t, r) => t.plus(r.value), ZERO), 2));
    for (const [reg, rate, credit, code] of [['C191', 'pisRate', 'pis', 'pisCst'], ['C195', 'cofinsRate', 'cofins', 'cofinsCst']] as const) {
      for (const r of mine) {
        const percent = r[rate];
        // An entry without credit (70–75): its value and what leaves it, no credit base, rate or credit.
        if (percent?.isZero()) {
          put(reg, r.participant, r[code], r.cfop, n(r.value, 2), n(r.discount, 2), null, null, null, null, null, null);
          continue;
        }
        // The basic credit is the base × rate (C191 field 11's validation); an import's, the contribution paid (Lei 10.865/2004, art. 15).
        const amount = percent ? toCentavos(r.base.times(percent)) : r[credit];
        put(reg, r.participant, r[code], r.cfop, n(r.value, 2), n(r.discount, 2), n(r.base, 2), percent ? n(percent.times(100), 4) : null, null, null, n(amount, 2), null);
      }
    }
  }
}
