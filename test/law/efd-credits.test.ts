import { creditRecords, balanceRecords, EfdCredits } from '../../src/export/efd-credits';
import { acquisitionCfop, acquisitionRecords, acquisitionRows } from '../../src/export/efd-acquisitions';
import { ApportionmentMethod, Contribution, CreditKind, CreditProduct, CreditStatus, EfdAcquisition, foldNet, monthCredits, RevenueGroup } from '../../src/law/credits';
import { createLawBook } from '../../src/law/law-book';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { Decimal } from '../../src/law/decimal';

const d = (v: string | number) => new Decimal(v);
const line = (group: RevenueGroup, codCred: string, pis: string) => ({ group, kind: CreditKind.BASIC, codCred, base: d(0), pisRate: null, cofinsRate: null, pis: d(pis), cofins: d(0), legalBasis: '' });

function written(c: EfdCredits, write: (put: (...f: Array<string | number | null>) => void) => void): string[] {
  const rows: string[] = [];
  write((...f) => rows.push(`|${f.map((x) => x ?? '').join('|')}|`));
  return rows;
}

test('a net reversal of one group taken from the month\'s credit of another is that M100\'s field 10, with an M110 of COD_AJ 06', () => {
  // December: a credit of 100,00 in group 100 (101) and a net reversal of 30,00 in group 300 (301); a debit of 20,00.
  const { nets, balances } = foldNet([{ year: 2026, month: 12, pisDebit: d('20.00'), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [],
    lines: [line(RevenueGroup.TAXED_DOMESTIC, '101', '100.00'), line(RevenueGroup.EXPORT, '301', '-30.00')] }]);
  const c: EfdCredits = { year: 2026, month: 12, lines: [line(RevenueGroup.TAXED_DOMESTIC, '101', '100.00'), line(RevenueGroup.EXPORT, '301', '-30.00')],
    net: nets[0], before: [], after: balances, claims: [], method: null, revenue: { TAXED_DOMESTIC: d(0), UNTAXED_DOMESTIC: d(0), EXPORT: d(0) } };
  // 100,00 − 30,00 reversed = 70,00 available; 20,00 deducted; 50,00 left.
  expect(written(c, (put) => creditRecords(put, Contribution.PIS, c))).toEqual([
    '|M100|101|0|0,00||||100,00|0,00|30,00|0,00|70,00|1|20,00|50,00|',
    '|M105|02|50|0,00||0,00|0,00||||',
    '|M110|0|30,00|06||Estorno: devolucao de compras com credito (Lei 10.637/2002 e Lei 10.833/2003, art. 3)|31122026|',
  ]);
  // Its 1100 enters the credit net of the reduction: 70,00, 20,00 deducted in the period (field 09: the own period's, M200 field 03), 50,00 left.
  expect(written(c, (put) => balanceRecords(put, Contribution.PIS, c))).toEqual(['|1100|122026|01||101|70,00||70,00|20,00|0,00|0,00|50,00|0,00|0,00|0,00|0,00|0,00|50,00|']);
});

describe('the acquisitions behind the credits (C190/C191/C195)', () => {
  const rates = { pisRate: d('0.0165'), cofinsRate: d('0.076') };
  const credit = (purchaseId: string, on: string, base: string, pis: string, cofins: string, kind = CreditKind.BASIC) => ({
    purchaseId, on, status: CreditStatus.CREDIT, kind, reason: null, awaiting: null, base: d(base), ...(kind === CreditKind.IMPORT ? { pisRate: null, cofinsRate: null } : rates),
    pis: d(pis), cofins: d(cofins), natBcCred: '02', allocatedTo: null, legalBasis: '',
  });
  // December 2026 under the revenue ratio, 75 % taxed domestic and 25 % export: soybean oil from supplier A in Pernambuco (R$ 12.000,00 with
  // R$ 2.000,00 of ICMS), an import of it (R$ 50.000,00, the contributions paid 1.050,00 and 4.825,00), and a return to supplier B (Bahia) of
  // a lot bought in November (base 2.000,00): no acquisition from B this month covers it.
  const purchases = [
    credit('1', '2026-12-03', '10000', '165.00', '760.00'), credit('2', '2026-12-10', '50000', '1050.00', '4825.00', CreditKind.IMPORT),
    credit('3', '2026-12-15', '-2000', '-33.00', '-152.00'),
  ];
  const month = monthCredits({ purchases, revenue: [{ on: '2026-12-20', group: RevenueGroup.TAXED_DOMESTIC, revenue: d(75000) }, { on: '2026-12-21', group: RevenueGroup.EXPORT, revenue: d(25000) }],
    method: ApportionmentMethod.REVENUE_RATIO, law: createLawBook(SHIPPED_LAW), asKnownOn: '2026-12-31' });
  const facts = { '1': { document: '11222333000181', origin: '2611606', cost: '12000', abroad: false }, '2': { document: null, origin: '2611606', cost: '50000', abroad: true },
    '3': { document: '60746948000112', origin: '2927408', cost: '2400', abroad: false } } as const;
  const acquisitions: EfdAcquisition[] = month.parts!.map((part) => {
    const f = facts[part.purchaseId as '1' | '2' | '3'];
    return { part, purchasedOn: part.on!, feedstock: 'SOYBEAN_OIL', product: CreditProduct.VEGETABLE_OIL, abroad: f.abroad, document: f.document, originMunicipalityCode: f.origin, cost: d(f.cost) };
  });
  const { rows, uncovered } = acquisitionRows(acquisitions, '2611606');

  test('each part in its group: the import with no participant and CFOP 3101, VL_DESC the ICMS, the credit base × rate', () => {
    expect(written({} as EfdCredits, (put) => acquisitionRecords(put, rows))).toEqual([
      '|C190|55|03122026|10122026|MP-SOYBEAN_OIL|15071000||62000,00|',
      '|C191||50|3101|37500,00|0,00|37500,00||||787,50||',
      '|C191||52|3101|12500,00|0,00|12500,00||||262,50||',
      '|C191|11222333000181|50|1101|9000,00|1500,00|7500,00|1,6500|||123,75||',
      '|C191|11222333000181|52|1101|3000,00|500,00|2500,00|1,6500|||41,25||',
      '|C195||50|3101|37500,00|0,00|37500,00||||3618,75||',
      '|C195||52|3101|12500,00|0,00|12500,00||||1206,25||',
      '|C195|11222333000181|50|1101|9000,00|1500,00|7500,00|7,6000|||570,00||',
      '|C195|11222333000181|52|1101|3000,00|500,00|2500,00|7,6000|||190,00||',
    ]);
  });

  test('a return no acquisition of its row covers: M100 keeps the acquisitions\' base and credit, the return is its field 10 and an M110', () => {
    expect(month.lines.map((l) => [l.codCred, l.base.toFixed(2), l.pis.toFixed(2)])).toEqual([['101', '6000.00', '99.00'], ['108', '37500.00', '787.50'], ['301', '2000.00', '33.00'], ['308', '12500.00', '262.50']]);
    const { nets, balances } = foldNet([{ year: 2026, month: 12, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: month.lines }]);
    const c: EfdCredits = { year: 2026, month: 12, lines: month.lines, net: nets[0], before: [], after: balances, claims: [], method: ApportionmentMethod.REVENUE_RATIO,
      revenue: { TAXED_DOMESTIC: d(75000), UNTAXED_DOMESTIC: d(0), EXPORT: d(25000) } };
    const estorno = 'Estorno: devolucao de compras com credito (Lei 10.637/2002 e Lei 10.833/2003, art. 3)';
    expect(written(c, (put) => creditRecords(put, Contribution.PIS, c, uncovered))).toEqual([
      '|M100|101|0|7500,00|1,6500|||123,75|0,00|24,75|0,00|99,00|1|0,00|99,00|', '|M105|02|50|7500,00||7500,00|7500,00||||', `|M110|0|24,75|06||${estorno}|31122026|`,
      '|M100|108|0|37500,00||||787,50|0,00|0,00|0,00|787,50|1|0,00|787,50|', '|M105|02|50|37500,00||37500,00|37500,00||||',
      '|M100|301|0|2500,00|1,6500|||41,25|0,00|8,25|0,00|33,00|1|0,00|33,00|', '|M105|02|52|2500,00||2500,00|2500,00||||', `|M110|0|8,25|06||${estorno}|31122026|`,
      '|M100|308|0|12500,00||||262,50|0,00|0,00|0,00|262,50|1|0,00|262,50|', '|M105|02|52|12500,00||12500,00|12500,00||||',
    ]);
  });

  test('the CFOP of an entry: the plant\'s State, another, or abroad; for industrialization or resale', () => {
    const at = (origin: string, abroad = false, product: CreditProduct | null = CreditProduct.VEGETABLE_OIL) => acquisitionCfop({ abroad, product, originMunicipalityCode: origin }, '2611606');
    expect([at('2607901'), at('2927408'), at('2927408', true), at('2607901', false, CreditProduct.B100_FOR_RESALE), at('5300108', true, CreditProduct.B100_FOR_RESALE)])
      .toEqual(['1101', '2101', '3101', '1102', '3102']);
  });
});

// Lei 10.637/2002, art. 3º § 1º; Guia, M100 field 08 (VL_BC × ALIQ) and C191 field 11: three purchases of R$ 1.000,30 from one
// supplier in March make one C191 of 3.000,90 × 1,65% = 49,51 (C195 228,07), and M100/M500 say the same: the file agrees with itself.
test('three purchases of R$ 1.000,30: C191/C195 and M100/M500 both 49,51 / 228,07', () => {
  const law = createLawBook(SHIPPED_LAW);
  const purchases = ['1', '2', '3'].map((purchaseId, i) => ({
    purchaseId, on: `2026-03-0${i + 2}`, status: CreditStatus.CREDIT, kind: CreditKind.BASIC, reason: null, awaiting: null, base: d('1000.30'),
    pisRate: d('0.0165'), cofinsRate: d('0.076'), pis: d('16.50'), cofins: d('76.02'), natBcCred: '02', allocatedTo: null, legalBasis: '',
  }));
  const month = monthCredits({ purchases, revenue: [], method: null, law, asKnownOn: '2026-04-01' });
  const acquisitions: EfdAcquisition[] = month.parts!.map((part) => ({
    part, purchasedOn: part.on!, feedstock: 'OTHER', product: CreditProduct.INPUT, abroad: false, document: '11222333000181', originMunicipalityCode: '2611606', cost: d('1000.30'),
  }));
  const { rows, uncovered } = acquisitionRows(acquisitions, '2611606');
  const { nets, balances } = foldNet([{ year: 2026, month: 3, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: month.lines }]);
  const c: EfdCredits = { year: 2026, month: 3, lines: month.lines, net: nets[0], before: [], after: balances, claims: [], method: null,
    revenue: { TAXED_DOMESTIC: d(0), UNTAXED_DOMESTIC: d(0), EXPORT: d(0) } };
  // The Guia's field numbers, REG being 01.
  const field = (l: string, i: number) => l.split('|')[i];
  const c19x = written(c, (put) => acquisitionRecords(put, rows)).filter((l) => /^\|C19[15]\|/.test(l));
  expect(c19x.map((l) => [field(l, 1), field(l, 11)])).toEqual([['C191', '49,51'], ['C195', '228,07']]);
  const m = [...written(c, (put) => creditRecords(put, Contribution.PIS, c, uncovered)), ...written(c, (put) => creditRecords(put, Contribution.COFINS, c, uncovered))]
    .filter((l) => /^\|M[15]00\|/.test(l));
  expect(m.map((l) => [field(l, 1), field(l, 4), field(l, 8)])).toEqual([['M100', '3000,90', '49,51'], ['M500', '3000,90', '228,07']]);
});
