import { message, Message } from '../i18n';
import { AppError, BadInputError, ConflictError, ConflictReason, NotFoundError } from '../services/errors';

/** The text of an import error: the line and column at fault (as the file names it, when it names it otherwise), then what is wrong there. */
function atLineText(line: number | null, column: string | null, header: string | null, detail: Message): Message {
  const named = column && header && header !== column ? message('import.columnAsWritten', { column, header }) : column;
  if (line !== null && named) return message('import.lineColumn', { line, column: named, detail });
  if (line !== null) return message('import.line', { line, detail });
  if (named) return message('import.column', { column: named, detail });
  return detail;
}

/**
 * An import refused: the file's line (1 = the header; a sheet's row number) and column at fault,
 * with the code the GraphQL mutations would give for the same mistake (DESIGN §5). Nothing of the
 * file is written. `header` is the column's name as the file writes it (`Quantidade (kg)`).
 */
export class ImportLineError extends AppError {
  constructor(
    readonly code: 'BAD_USER_INPUT' | 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN',
    readonly line: number | null,
    readonly column: string | null,
    readonly detail: Message,
    readonly reason?: ConflictReason,
    readonly header: string | null = null,
  ) {
    super(atLineText(line, column, header, detail));
  }

  /** The same error, the column named as the file writes it. */
  withHeader(header: string | null): ImportLineError {
    return header === null || this.header !== null || !this.column ? this : new ImportLineError(this.code, this.line, this.column, this.detail, this.reason, header);
  }

  /** The key of what is wrong (`import.otherNotation`…), stable for clients that switch on it. */
  get messageKey(): string {
    return this.detail.key;
  }

  extensions() {
    return { line: this.line, column: this.column, ...(this.reason ? { reason: this.reason } : {}), messageKey: this.detail.key };
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
