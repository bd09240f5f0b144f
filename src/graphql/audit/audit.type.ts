import { Field, ID, ObjectType } from 'type-graphql';
import { Role } from '../../law/types';
import { JsonScalar } from '../scalars';
import { connectionOf } from '../types/connection';

@ObjectType('AuditEntry', { simpleResolvers: true, description: 'One change, written in the same transaction as the change itself (the access rules, README "Tokens"); never edited.' })
export class AuditEntryType {
  @Field(() => ID, { description: 'Entry number, increasing as entries are written.' }) id: string;
  @Field(() => Date, { description: 'When the change was committed.' }) at: Date;
  @Field({ description: 'Subject (`sub`) of the token that made the change.' }) actor: string;
  @Field(() => Role, { description: 'Role of that token.' }) role: Role;
  @Field({ description: 'The mutation, e.g. recordPurchases.' }) operation: string;
  @Field({ description: 'Kind of record changed, e.g. Purchase.' }) entity: string;
  @Field(() => String, { nullable: true, description: 'Id of the record changed.' }) entityId: string | null;
  @Field(() => JsonScalar, { nullable: true, description: 'The record before the change; null when created.' }) before: Record<string, unknown> | null;
  @Field(() => JsonScalar, { nullable: true, description: 'The record after the change.' }) after: Record<string, unknown> | null;
}

export const AuditEntryConnection = connectionOf(AuditEntryType, 'AuditEntry');
