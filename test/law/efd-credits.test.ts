import { creditRecords, balanceRecords, EfdCredits } from '../../src/export/efd-credits';
import { Contribution, CreditKind, foldNet, RevenueGroup } from '../../src/law/credits';
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
  // Its 1100 enters the credit net of the reduction: 70,00 available, 20,00 deducted, 50,00 left.
  expect(written(c, (put) => balanceRecords(put, Contribution.PIS, c))).toEqual(['|1100|122026|01||101|70,00||70,00|0,00|0,00|0,00|70,00|20,00|0,00|0,00|0,00|0,00|50,00|']);
});
