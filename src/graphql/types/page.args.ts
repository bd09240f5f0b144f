import { ArgsType, Field, Int } from 'type-graphql';

@ArgsType()
export class PageArgsType {
  @Field(() => Int, { nullable: true, description: 'Page size: default 20, at most 100.' }) first?: number | null;
  @Field(() => String, { nullable: true, description: 'Cursor after which the page starts (endCursor of the previous page).' }) after?: string | null;
}
