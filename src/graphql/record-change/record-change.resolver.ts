import { Arg, Ctx, ID, Int, Mutation, Resolver } from 'type-graphql';
import { Context } from '../context';
import { checkedNfeKey } from '../../services/nfe-key-input';
import { ChecksArguments } from '../argument-checks';
import {
  CorrectFomentoInput, CorrectImportInput, CorrectPurchaseInput, CorrectSaleInput, DocumentCancellationType, FomentoCorrectionType, ImportCorrectionType,
  PurchaseCorrectionType, RecordReturnInput, RecordReturnType, SaleCorrectionType,
} from './record-change.type';

const CLOSED = 'A change that reaches a closed tax month or a Selo year already evaluated is CONFLICT PERIOD_CLOSED (extensions.period: the month to reopen) — unless made by an ADMIN, whose change is made and whose answer shows the closed months with their drift.';

@Resolver()
export class RecordChangeResolver {
  @ChecksArguments<{ key: string }>(({ key }) => checkedNfeKey(key, 'key'))
  @Mutation(() => DocumentCancellationType, {
    description: `Cancel an NF-e (its cancellation event, tpEvento 110111): every purchase, sale, import and fomento expense recorded with its key becomes CANCELLED — kept, audited, counted by no computation from then on. Key checked (layout, model 55, digit: else BAD_USER_INPUT); no record of it in the caller's scope: NOT_FOUND; all already cancelled: CONFLICT CANCELLED. ${CLOSED} ADMIN, or the PRODUCER for its own records.`,
  })
  cancelDocument(@Arg('key', { description: 'The NF-e access key (44 positions).' }) key: string, @Ctx() ctx: Context) {
    return ctx.services.recordChanges.cancelDocument(ctx.actor, key);
  }

  @Mutation(() => [RecordReturnType], {
    description: 'Record returns (a return note, finNFe 4, referencing the original NF-e): each reduces one purchase\'s kg and cost, or one sale\'s m³ and revenue, in the tax month and Selo year of the return — not the original\'s (docs/LAW.md, "Returns"). All or nothing. A return into a closed tax month or an evaluated Selo year is CONFLICT PERIOD_CLOSED (extensions.period or seloYear) unless made by an ADMIN, whose answer shows closedPeriod with its drift. ADMIN, or the PRODUCER for its own records (another\'s is NOT_FOUND).',
  })
  recordReturns(@Arg('input', () => [RecordReturnInput], { description: 'The returns, in any number.' }) input: RecordReturnInput[], @Ctx() ctx: Context) {
    return ctx.services.recordReturns.record(ctx.actor, input);
  }

  @Mutation(() => PurchaseCorrectionType, {
    description: `Correct a purchase (a lot entered with the wrong feedstock, quantity, municipality…), audited with before and after. expectedVersion must be its version (else CONFLICT VERSION_MISMATCH); a CANCELLED purchase is not corrected (CONFLICT CANCELLED). ${CLOSED}`,
  })
  correctPurchase(
    @Arg('id', () => ID, { description: 'The purchase.' }) id: string,
    @Arg('input', () => CorrectPurchaseInput, { description: 'The fields to change.' }) input: CorrectPurchaseInput,
    @Arg('expectedVersion', () => Int, { description: 'The version read (Purchase.version).' }) expectedVersion: number,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.recordChanges.correctPurchase(ctx.actor, id, input, expectedVersion);
  }

  @Mutation(() => SaleCorrectionType, {
    description: `Correct a sale, audited with before and after. expectedVersion must be its version (else CONFLICT VERSION_MISMATCH); a CANCELLED sale is not corrected (CONFLICT CANCELLED). ${CLOSED}`,
  })
  correctSale(
    @Arg('id', () => ID, { description: 'The sale.' }) id: string,
    @Arg('input', () => CorrectSaleInput, { description: 'The fields to change.' }) input: CorrectSaleInput,
    @Arg('expectedVersion', () => Int, { description: 'The version read (Sale.version).' }) expectedVersion: number,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.recordChanges.correctSale(ctx.actor, id, input, expectedVersion);
  }

  @Mutation(() => ImportCorrectionType, {
    description: `Correct an import of biodiesel, audited with before and after; expectedVersion as for correctPurchase. Its month is the month of clearance (art. 5º §1º). ${CLOSED}`,
  })
  correctImport(
    @Arg('id', () => ID, { description: 'The import.' }) id: string,
    @Arg('input', () => CorrectImportInput, { description: 'The fields to change.' }) input: CorrectImportInput,
    @Arg('expectedVersion', () => Int, { description: 'The version read (BiodieselImport.version).' }) expectedVersion: number,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.recordChanges.correctImport(ctx.actor, id, input, expectedVersion);
  }

  @Mutation(() => FomentoCorrectionType, {
    description: `Correct a fomento expense, audited with before and after; expectedVersion as for correctPurchase. It counts in the Selo year of its date (art. 3º §2º I c). ${CLOSED}`,
  })
  correctFomento(
    @Arg('id', () => ID, { description: 'The fomento expense.' }) id: string,
    @Arg('input', () => CorrectFomentoInput, { description: 'The fields to change.' }) input: CorrectFomentoInput,
    @Arg('expectedVersion', () => Int, { description: 'The version read (FomentoExpense.version).' }) expectedVersion: number,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.recordChanges.correctFomento(ctx.actor, id, input, expectedVersion);
  }
}
