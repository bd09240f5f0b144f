import { ArgsType, Field, Int } from 'type-graphql';
import { message } from '../i18n';
import { checkListPage } from '../services/pagination';
import type { ArgumentCheck } from './argument-checks';
import { Context } from './context';
import { LIMITS } from './limits';
import { LocalizedGraphQLError } from './localized-error';

/** The page of a long list: `first` absent gives all of it. */
@ArgsType()
export class ListPageArgs {
  @Field(() => Int, { nullable: true, description: `Items in the page (1 to ${LIMITS.maxListPage}); absent: all of them.` }) first?: number | null;
  @Field(() => Int, { defaultValue: 0, description: 'Items skipped (0 or more).' }) offset: number;
}

/** The check of a long list's page arguments (ChecksArguments). */
export const listPageArguments: ArgumentCheck<ListPageArgs> = ({ first, offset }) => checkListPage(first, offset, LIMITS.maxListPage);

/** The bound, as the descriptions of the long lists state it. */
export const LISTED_BOUND = `one response lists at most ${LIMITS.maxListed.toLocaleString('en-US')} items of such lists`;

/**
 * A page of a long computed list (`SealCompliance.excluded`, `TaxPeriodCredits.purchases`), all of
 * it without `first`. One response lists at most LIMITS.maxListed of them (hundreds of thousands of
 * excluded purchases asked at once held gigabytes); past it, QUERY_TOO_COMPLEX names the pages.
 */
export function listed<T>(ctx: Context, items: readonly T[], field: string, { first, offset }: ListPageArgs): T[] {
  checkListPage(first, offset, LIMITS.maxListPage);
  const page = items.slice(offset, first == null ? undefined : offset + first);
  const budget = (ctx.listed ??= { left: LIMITS.maxListed, max: LIMITS.maxListed });
  if (page.length > budget.left) {
    throw new LocalizedGraphQLError(message('limits.listed', { field, n: page.length, max: budget.max, page: LIMITS.maxListPage }), {
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  }
  budget.left -= page.length;
  return page;
}
