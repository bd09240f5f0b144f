import { ArgsType, Field, Int } from 'type-graphql';
import { DEFAULT_PAGE_SIZE, Keyset, MAX_PAGE_SIZE } from '../../services/pagination';
import { DatedPageArgs, datedPageAsked } from '../../services/producer-pages';
import type { ArgumentCheck } from '../argument-checks';

@ArgsType()
export class PageArgsType {
  @Field(() => Int, { nullable: true, description: `Page size: 0 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE} (0: only totalCount and pageInfo).` }) first?: number | null;
  @Field(() => String, { nullable: true, description: 'Cursor after which the page starts (endCursor of the previous page).' }) after?: string | null;
}

/** The check of a connection's arguments (`first`, `after`, and `from`/`to` where it takes them) as its service reads them. */
export function pageArguments(keyset: Keyset): ArgumentCheck<DatedPageArgs> {
  return (args) => datedPageAsked(keyset, args);
}
