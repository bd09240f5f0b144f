import { AppError, BadInputError, ConflictError, ConflictReason, NotFoundError } from '../services/errors';

/**
 * A CSV import refused: the file's line (1 = the header) and column at fault, with the code the
 * GraphQL mutations would give for the same mistake (DESIGN §5). Nothing of the file is written.
 */
export class ImportLineError extends AppError {
  constructor(
    readonly code: 'BAD_USER_INPUT' | 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN',
    readonly line: number | null,
    readonly column: string | null,
    readonly detail: string,
    readonly reason?: ConflictReason,
  ) {
    super(`${line === null ? '' : `line ${line}`}${line !== null && column ? ', ' : ''}${column ? `column ${column}` : ''}${line !== null || column ? ': ' : ''}${detail}`);
  }

  extensions() {
    return { line: this.line, column: this.column, ...(this.reason ? { reason: this.reason } : {}) };
  }
}

/**
 * The same error at a line, from one the services raise for a field `.<column>`: a validation of
 * the mutations reused unchanged, so the rule and its wording are theirs.
 */
export function atLine(error: unknown, line: number, fallbackColumn: string | null = null): ImportLineError {
  if (error instanceof ImportLineError) return error;
  if (error instanceof BadInputError || error instanceof ConflictError) {
    const field = error.field ?? '';
    const column = field.replace(/^[^.]*\./, '') || fallbackColumn;
    let detail = error.message;
    if (field && detail.startsWith(`${field} `)) detail = detail.slice(field.length + 1);
    detail = detail.split(field).join(column ?? '');
    return error instanceof ConflictError
      ? new ImportLineError('CONFLICT', line, column, detail, error.reason)
      : new ImportLineError('BAD_USER_INPUT', line, column, detail);
  }
  if (error instanceof NotFoundError) return new ImportLineError('NOT_FOUND', line, fallbackColumn, error.message);
  throw error;
}
