import { ArgsType, Field, Int } from 'type-graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../services/pagination';

@ArgsType()
export class PageArgsType {
  @Field(() => Int, { nullable: true, description: `Page size: 0 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE} (0: only totalCount and pageInfo).` }) first?: number | null;
  @Field(() => String, { nullable: true, description: 'Cursor after which the page starts (endCursor of the previous page).' }) after?: string | null;
}
