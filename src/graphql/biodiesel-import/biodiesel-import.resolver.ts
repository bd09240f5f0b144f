import { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { BiodieselImport, Producer } from '../../domain';
import { IMPORT_KEYSET } from '../../services/keysets';
import { Sql } from '../compiled/annotations';
import { Context, knownOn } from '../context';
import { ProducerType } from '../producer/producer.type';
import { DateScalar } from '../scalars';
import { selectsField, selectsPreviousPage } from '../types/selection';
import { pageArguments } from '../types/page.args';
import { ChecksArguments } from '../argument-checks';
import { ImportPageArgsType } from './biodiesel-import.args';
import { RecordImportInput } from './biodiesel-import.input';
import { BiodieselImportConnection, BiodieselImportType, ImportContributionsType } from './biodiesel-import.type';

@Resolver(() => BiodieselImportType)
export class BiodieselImportResolver {
  @Mutation(() => [BiodieselImportType], { description: 'Record imports of biodiesel (Decreto 10.527/2020, art. 5º §1º). All or nothing: one bad item rejects the batch and nothing is written. A declaration number already recorded for the producer, or twice in the batch: CONFLICT DUPLICATE; a clearance in a closed month: CONFLICT PERIOD_CLOSED. ADMIN, or the PRODUCER for itself.' })
  recordImports(@Arg('input', () => [RecordImportInput], { description: 'The imports; refused whole on the first bad item.' }) input: RecordImportInput[], @Ctx() ctx: Context) {
    return ctx.services.imports.record(ctx.actor, input);
  }

  @Query(() => ImportContributionsType, { description: 'A producer\'s imports of a month and their PIS/Pasep-Importação and Cofins-Importação per m³, on their own (Decreto 10.527/2020, art. 5º §1º and §3º; art. 6º §5º), as known on asKnownOn (default today). The same block as TaxPeriod.imports. ADMIN and AUDITOR: any producer; PRODUCER: its own (another is NOT_FOUND).' })
  importContributions(
    @Arg('producerId', () => ID, { description: 'The producer.' }) producerId: string,
    @Arg('year', () => Int, { description: 'Calendar year.' }) year: number,
    @Arg('month', () => Int, { description: 'Calendar month, 1 to 12.' }) month: number,
    @Arg('asKnownOn', () => DateScalar, { nullable: true, description: 'Law versions published by this date (default today).' }) asKnownOn: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.imports.contributions(ctx.actor, producerId, year, month, knownOn(ctx, asKnownOn));
  }

  @Sql({ kind: 'one', entity: Producer, fk: 'producerId' })
  @FieldResolver(() => ProducerType, { description: 'Producer that imported.' })
  producer(@Root() i: BiodieselImport, @Ctx() ctx: Context) {
    return ctx.loaders.producer.load(i.producerId);
  }
}

/** Producer.imports, one statement for a page of producers (loader). */
@Resolver(() => ProducerType)
export class ProducerImportsResolver {
  @Sql({ kind: 'page', entity: BiodieselImport, fk: 'producerId', keyset: IMPORT_KEYSET })
  @ChecksArguments(pageArguments(IMPORT_KEYSET))
  @FieldResolver(() => BiodieselImportConnection, { description: 'Imports of biodiesel by clearedOn, then id; from/to bound clearedOn, inclusive.' })
  imports(@Root() p: Producer, @Args() args: ImportPageArgsType, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.loaders.importsByProducer.load({ producerId: p.id, args, withTotal: selectsField(info, 'totalCount'), withPrevious: selectsPreviousPage(info) });
  }
}
