import { ClassType, Field, Int, ObjectType } from 'type-graphql';
import { PageInfo } from './common';

/** `<Name>Edge` and `<Name>Connection` for a node type (Relay cursor connections). */
export function connectionOf<T extends object>(node: ClassType<T>, name: string) {
  @ObjectType(`${name}Edge`, { simpleResolvers: true, description: `A ${name} with its cursor.` })
  class EdgeType {
    @Field({ description: 'Opaque cursor; pass as `after`.' }) cursor: string;
    @Field(() => node, { description: `The ${name}.` }) node: T;
  }

  @ObjectType(`${name}Connection`, { simpleResolvers: true, description: `A page of ${name} records.` })
  class ConnectionType {
    @Field(() => [EdgeType], { description: 'The records of this page, in order, each with its cursor.' }) edges: EdgeType[];
    @Field(() => PageInfo, { description: 'Where this page is: whether more follow, and the cursors to go on.' }) pageInfo: PageInfo;
    @Field(() => Int, { description: 'Number of records visible to the caller across all pages.' }) totalCount: number;
  }
  return ConnectionType;
}
