import { Field, ObjectType } from 'type-graphql';

@ObjectType('Finding', { description: 'A machine-readable finding: a warning, a reason or a compliance issue.' })
export class FindingType {
  @Field({ description: 'Stable upper-snake code, e.g. SEAL_NOT_REGULAR, PRICE_BELOW_MINIMUM.' }) code: string;
  /** Resolved in the caller's language by FindingResolver. */
  message: string;
  @Field(() => String, { nullable: true, description: 'Legal provision the finding rests on, where one applies.' }) legalBasis: string | null;
}

@ObjectType('PageInfo', { simpleResolvers: true, description: 'Relay cursor pagination.' })
export class PageInfo {
  @Field({ description: 'More items after endCursor.' }) hasNextPage: boolean;
  @Field({ description: 'Items before startCursor.' }) hasPreviousPage: boolean;
  @Field(() => String, { nullable: true, description: 'Cursor of the first edge.' }) startCursor: string | null;
  @Field(() => String, { nullable: true, description: 'Cursor of the last edge; pass it as `after` for the next page.' }) endCursor: string | null;
}
