import { Locale, message, Message, MessageParam, translate } from '../i18n';
import { AppError, BadInputError, ConflictError, ConflictReason, NotFoundError } from '../services/errors';
import { MAX_REPORTED_PROBLEMS } from '../services/problems';

/** A cell of megabytes is not sent back. */
export const MAX_QUOTED_CHARS = 80;

export function quoted(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}

/** They list what is accepted, not what the file holds. */
const LISTS = new Set(['columns', 'accepted', 'kinds', 'example']);

export function quotedMessage(m: Message): Message {
  if (!m.params) return m;
  const params: Record<string, MessageParam> = {};
  for (const [name, value] of Object.entries(m.params)) {
    if (typeof value === 'string') params[name] = LISTS.has(name) ? value : quoted(value);
    else if (Array.isArray(value)) params[name] = (value as readonly Message[]).map(quotedMessage);
    else params[name] = typeof value === 'object' ? quotedMessage(value as Message) : value;
  }
  return { ...m, params };
}

function atLineText(line: number | null, column: string | null, header: string | null, detail: Message): Message {
  const named = column && header && header !== column ? message('import.columnAsWritten', { column, header }) : column;
  if (line !== null && named) return message('import.lineColumn', { line, column: named, detail });
  if (line !== null) return message('import.line', { line, detail });
  if (named) return message('import.column', { column: named, detail });
  return detail;
}

/** The code the GraphQL mutations would give for the same mistake (docs/API.md "Errors"). */
export class ImportLineError extends AppError {
  readonly column: string | null;
  readonly detail: Message;
  readonly header: string | null;
  constructor(
    readonly code: 'BAD_USER_INPUT' | 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN',
    readonly line: number | null,
    column: string | null,
    detail: Message,
    readonly reason?: ConflictReason,
    header: string | null = null,
  ) {
    // What the file holds is quoted shortened.
    super(atLineText(line, column === null ? null : quoted(column), header === null ? null : quoted(header), quotedMessage(detail)));
    this.column = column === null ? null : quoted(column);
    this.detail = quotedMessage(detail);
    this.header = header === null ? null : quoted(header);
  }

  withHeader(header: string | null): ImportLineError {
    return header === null || this.header !== null || !this.column ? this : new ImportLineError(this.code, this.line, this.column, this.detail, this.reason, header);
  }

  /** Stable for clients that switch on it. */
  get messageKey(): string {
    return this.detail.key;
  }

  extensions() {
    return { line: this.line, column: this.column, ...(this.reason ? { reason: this.reason } : {}), messageKey: this.detail.key };
  }
}

/** The mutations' validation reused unchanged, so the rule and its wording are theirs. */
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

/** Refused whole, like a GraphQL batch. */
export class ImportProblemsError extends AppError {
  readonly code: ImportLineError['code'];
  readonly first: ImportLineError;
  constructor(readonly problems: readonly ImportLineError[], readonly problemCount: number = problems.length) {
    const [first] = problems;
    super(problemCount === 1 ? first.text : message('import.problems', { count: problemCount, first: first.text }));
    this.first = first;
    this.code = problems.every((p) => p.code === first.code) ? first.code : 'BAD_USER_INPUT';
  }

  get reason(): ConflictReason | undefined {
    return this.code === this.first.code ? this.first.reason : undefined;
  }

  get line(): number | null {
    return this.first.line;
  }

  get column(): string | null {
    return this.first.column;
  }

  get detail(): Message {
    return this.first.detail;
  }

  get header(): string | null {
    return this.first.header;
  }

  extensions(locale?: Locale) {
    const { reason, ...first } = this.first.extensions();
    return {
      ...first,
      ...(reason !== undefined && this.code === this.first.code ? { reason } : {}),
      problems: this.problems.slice(0, MAX_REPORTED_PROBLEMS).map((p) => ({ code: p.code, message: translate(p.text, locale), ...p.extensions() })),
      problemCount: this.problemCount,
    };
  }
}

export function byLine(problems: readonly ImportLineError[]): ImportLineError[] {
  const seen = new Set<string>();
  return problems
    .map((p, n) => ({ p, n }))
    .sort((a, b) => (a.p.line ?? -1) - (b.p.line ?? -1) || a.n - b.n)
    .map(({ p }) => p)
    .filter((p) => {
      const key = `${p.line}:${p.column}:${p.detail.key}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
