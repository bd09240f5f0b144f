import { IsoDate, monthOf, yearOf } from '../dates';
import { LawBook } from '../law-book';
import { periodName } from './explanation';
import { SaleGroup, SegmentSpan } from './types';

/** One SQL row of the month's sales: sales (`saleOn` null), or returns of the sales made on `saleOn`. */
export type SaleRowFacts = Omit<SaleGroup, 'returnOf'> & { saleOn: IsoDate | null };

/**
 * The month's sale groups by segment, origin and market. A return dated where PIS/Pasep and Cofins
 * are extinct of a sale made while they were in force stays apart (`returnOf`, the sale's month):
 * that sale bore them and never the CBS (EC 132/2023, ADCT art. 126, I–II; LC 214/2025, arts.
 * 172–173), so the return cannot reduce the CBS base (docs/LAW.md, "Returns").
 */
export function saleGroups(law: LawBook, segments: readonly SegmentSpan[], rows: readonly SaleRowFacts[], asKnownOn: IsoDate): SaleGroup[] {
  const groups = new Map<string, SaleGroup>();
  for (const { saleOn, ...row } of rows) {
    const across = saleOn !== null && !segments[row.segment].pisCofins && !law.pisCofinsExtinction(saleOn, asKnownOn);
    const returnOf = across ? { year: yearOf(saleOn), month: monthOf(saleOn) } : undefined;
    const key = `${row.segment}|${row.origin}|${row.market}|${returnOf ? periodName(returnOf) : ''}`;
    const group = groups.get(key);
    if (group) {
      group.volumeM3 = group.volumeM3.plus(row.volumeM3);
      group.revenue = group.revenue.plus(row.revenue);
    } else {
      groups.set(key, returnOf ? { ...row, returnOf } : { ...row });
    }
  }
  return [...groups.values()];
}
