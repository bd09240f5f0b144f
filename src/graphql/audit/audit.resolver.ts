import { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Info, Query, Resolver } from 'type-graphql';
import { AuditEntry } from '../../domain';
import { AUDIT_KEYSET } from '../../services/keysets';
import { Sql } from '../compiled/annotations';
import { Context } from '../context';
import { PageArgsType } from '../types/page.args';
import { selectsPreviousPage } from '../types/selection';
import { AuditEntryConnection, AuditEntryType } from './audit.type';

@Resolver(() => AuditEntryType)
export class AuditResolver {
  @Sql({ kind: 'list', entity: AuditEntry, keyset: AUDIT_KEYSET, filters: { entity: 'entity', entityId: 'entityId' } })
  @Query(() => AuditEntryConnection, {
    description: 'The audit log, newest first. ADMIN and AUDITOR see every entry; a PRODUCER only the entries of its own records.',
  })
  auditLog(
    @Args() page: PageArgsType,
    @Arg('entity', () => String, { nullable: true, description: 'Only entries about this kind of record, e.g. Purchase.' }) entity: string | null,
    @Arg('entityId', () => String, { nullable: true, description: 'Only entries about this record id.' }) entityId: string | null,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.audit.list(ctx.actor, { ...page, entity, entityId }, selectsPreviousPage(info));
  }
}
