import { Locale, Localized, message, Message, recognise, translate } from '../i18n';

/**
 * Errors a use case raises for the caller's mistakes (docs/API.md "Errors"). The GraphQL layer turns each
 * into an error with `extensions.code`; anything else is masked as INTERNAL_SERVER_ERROR. Their
 * text is a Message (src/i18n), shown in the caller's language; `message` is the English text.
 */
export type ConflictReason = 'PERIOD_CLOSED' | 'VERSION_MISMATCH' | 'DUPLICATE' | 'REGIME_ALREADY_ELECTED' | 'ALREADY_SOLD_IN_YEAR' | 'CANCELLED' | 'APPORTIONMENT_ALREADY_ELECTED' | 'INCIDENCE_ALREADY_ELECTED' | 'CREDIT_CLAIM';

/** The records a NOT_FOUND names (each has its message, `notFound.<Record>`). */
export type RecordName = 'Producer' | 'Contract' | 'FamilyFarmer' | 'FamilyFarmingOrganization' | 'SealGrant' | 'Purchase' | 'Sale' | 'Document' | 'BiodieselImport' | 'FomentoExpense';

/**
 * What an error says: a Message, or its English text — recognised against the catalogue's
 * templates so that it is translated too (shown as it is, in every language, when it matches none).
 */
export type ErrorText = Message | string;

function asMessage(text: ErrorText): Message {
  if (typeof text !== 'string') return text;
  return recognise(text, true) ?? message('text.asIs', { text });
}

export abstract class AppError extends Error implements Localized {
  abstract readonly code: string;
  readonly text: Message;
  constructor(text: ErrorText) {
    const m = asMessage(text);
    super(translate(m));
    this.text = m;
  }
  /** What the error adds to `extensions` (messages in `locale`, English by default). */
  extensions(_locale?: Locale): Record<string, unknown> {
    return {};
  }
}

/** Invalid input; `field` is the input path, e.g. `input[2].quantityKg`. */
export class BadInputError extends AppError {
  readonly code = 'BAD_USER_INPUT';
  constructor(readonly field: string, text: ErrorText) {
    super(text);
  }
  extensions() {
    return { field: this.field };
  }
}

/** Unknown id, or another producer's record (indistinguishable by design: nothing leaks). */
export class NotFoundError extends AppError {
  readonly code = 'NOT_FOUND';
  /** `field`: the input that names the record, when one does (`input[2].contractId`). */
  constructor(readonly entity: RecordName, id: string | number, readonly field?: string) {
    super(message(`notFound.${entity}`, { id: String(id) }));
  }
  extensions() {
    return this.field ? { field: this.field } : {};
  }
}

export class ConflictError extends AppError {
  readonly code = 'CONFLICT';
  /** `details`: facts of the conflict a client may act on (e.g. `firstSaleOn`), as extensions. */
  constructor(readonly reason: ConflictReason, text: ErrorText, readonly field?: string, readonly details: Record<string, unknown> = {}) {
    super(text);
  }
  extensions() {
    return { reason: this.reason, ...(this.field ? { field: this.field } : {}), ...this.details };
  }
}

export class ForbiddenError extends AppError {
  readonly code = 'FORBIDDEN';
  constructor(text: ErrorText = message('auth.forbidden')) {
    super(text);
  }
}

/** Work of a kind the process does a few at a time is already queued to its bound: retry later. */
export class TooManyRequestsError extends AppError {
  readonly code = 'TOO_MANY_REQUESTS';
}

export class UnauthenticatedError extends AppError {
  readonly code = 'UNAUTHENTICATED';
  constructor(text: ErrorText = message('auth.tokenRequired')) {
    super(text);
  }
}
