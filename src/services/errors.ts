/**
 * Errors a use case raises for the caller's mistakes (DESIGN §5). The GraphQL layer turns each
 * into an error with `extensions.code`; anything else is masked as INTERNAL_SERVER_ERROR.
 */
export type ConflictReason = 'PERIOD_CLOSED' | 'VERSION_MISMATCH' | 'DUPLICATE' | 'REGIME_ALREADY_ELECTED';

export abstract class AppError extends Error {
  abstract readonly code: string;
  extensions(): Record<string, unknown> {
    return {};
  }
}

/** Invalid input; `field` is the input path, e.g. `input[2].quantityKg`. */
export class BadInputError extends AppError {
  readonly code = 'BAD_USER_INPUT';
  constructor(readonly field: string, message: string) {
    super(message);
  }
  extensions() {
    return { field: this.field };
  }
}

/** Unknown id, or another producer's record (indistinguishable by design, DESIGN §4). */
export class NotFoundError extends AppError {
  readonly code = 'NOT_FOUND';
  constructor(entity: string, id: string | number) {
    super(`${entity} ${id} not found`);
  }
}

export class ConflictError extends AppError {
  readonly code = 'CONFLICT';
  constructor(readonly reason: ConflictReason, message: string, readonly field?: string) {
    super(message);
  }
  extensions() {
    return this.field ? { reason: this.reason, field: this.field } : { reason: this.reason };
  }
}

export class ForbiddenError extends AppError {
  readonly code = 'FORBIDDEN';
  constructor(message = 'Not allowed for this role') {
    super(message);
  }
}

export class UnauthenticatedError extends AppError {
  readonly code = 'UNAUTHENTICATED';
  constructor(message = 'A valid bearer token is required') {
    super(message);
  }
}
