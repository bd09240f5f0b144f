import { message, Message } from '../i18n';
import { AppError, BadInputError, ConflictError, ConflictReason, NotFoundError } from '../services/errors';

/** The text of an import error: the line and column at fault, then what is wrong there. */
function atLineText(line: number | null, column: string | null, detail: Message): Message {
  if (line !== null && column) return message('import.lineColumn', { line, column, detail });
  if (line !== null) return message('import.line', { line, detail });
  if (column) return message('import.column', { column, detail });
  return detail;
}

/**
 * A CSV import refused: the file's line (1 = the header) and column at fault, with the code the
 * GraphQL mutations would give for the same mistake (DESIGN §5). Nothing of the file is written.
 */
export class ImportLineError extends AppError {
  constructor(
    readonly code: 'BAD_USER_INPUT' | 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN',
    readonly line: number | null,
    readonly column: string | null,
    readonly detail: Message,
    readonly reason?: ConflictReason,
  ) {
    super(atLineText(line, column, detail));
  }

  extensions() {
    return { line: this.line, column: this.column, ...(this.reason ? { reason: this.reason } : {}) };
  }
}

/**
 * The same error at a line, from one the services raise for a field `.<column>`: a validation of
 * the mutations reused unchanged, so the rule and its wording are theirs (the field, named as the
 * column, is not repeated at the start of the message).
 */
export function atLine(error: unknown, line: number, fallbackColumn: string | null = null): ImportLineError {
  if (error instanceof ImportLineError) return error;
  if (error instanceof BadInputError || error instanceof ConflictError) {
    const field = error.field ?? '';
    const column = field.replace(/^[^.]*\./, '') || fallbackColumn;
    const params = error.text.params && 'field' in error.text.params ? { ...error.text.params, field: column ?? '' } : error.text.params;
    const detail: Message = { key: error.text.key, params, fieldNamedApart: true };
    return error instanceof ConflictError
      ? new ImportLineError('CONFLICT', line, column, detail, error.reason)
      : new ImportLineError('BAD_USER_INPUT', line, column, detail);
  }
  if (error instanceof NotFoundError) return new ImportLineError('NOT_FOUND', line, fallbackColumn, error.text);
  throw error;
}
