import { Locale, message, translate } from '../i18n';
import { AppError, BadInputError, ConflictError, NotFoundError } from './errors';

/** At most this many problems of one batch or one file are reported (all are counted). */
export const MAX_REPORTED_PROBLEMS = 100;

/** `input[1].quantityKg` as the path of the input value: `["input", 1, "quantityKg"]`. */
export function inputPath(field: string): Array<string | number> {
  const path: Array<string | number> = [];
  for (const [, name, index] of field.matchAll(/\.?([^.[\]]+)|\[(\d+)\]/g)) path.push(index !== undefined ? Number(index) : name);
  return path;
}

/** The item a path names (`input[3].cost` → 3), for ordering; items of no index come first. */
function itemOf(e: AppError): number {
  const field = e instanceof BadInputError || e instanceof ConflictError || e instanceof NotFoundError ? e.field : undefined;
  const index = field === undefined ? undefined : /\[(\d+)\]/.exec(field)?.[1];
  return index === undefined ? -1 : Number(index);
}

/** The errors that say what is wrong with an item of the input (not who may do what). */
function isInputProblem(e: unknown): e is BadInputError | ConflictError | NotFoundError {
  return e instanceof BadInputError || e instanceof ConflictError || (e instanceof NotFoundError && e.field !== undefined);
}

/**
 * The problems of a batch (docs/API.md "Errors": all or nothing), gathered instead of stopping at the first, so
 * that one answer lists every bad item with its path. `check` runs a check and keeps the input
 * error it throws; any other error (a role not allowed, the database) is thrown at once.
 */
export class Problems {
  private readonly found: AppError[] = [];

  check<T>(run: () => T): T | undefined {
    try {
      return run();
    } catch (e) {
      if (!isInputProblem(e)) throw e;
      this.found.push(e);
      return undefined;
    }
  }

  async checkAsync<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (e) {
      if (!isInputProblem(e)) throw e;
      this.found.push(e);
      return undefined;
    }
  }

  add(e: BadInputError | ConflictError | NotFoundError): void {
    this.found.push(e);
  }

  get count(): number {
    return this.found.length;
  }

  /** Nothing is written: throw the batch's problems, in the order of the items, when there is any. */
  throwIfAny(): void {
    if (this.found.length === 0) return;
    const ordered = this.found.map((e, n) => ({ e, n })).sort((a, b) => itemOf(a.e) - itemOf(b.e) || a.n - b.n).map(({ e }) => e);
    throw new BatchError(ordered);
  }
}

/**
 * A batch refused: code, message, field and reason of the first problem; `extensions.problems`
 * lists each (up to MAX_REPORTED_PROBLEMS) with its path, `problemCount` counts them all.
 */
export class BatchError extends AppError {
  readonly code: string;
  constructor(readonly problems: readonly AppError[]) {
    const [first] = problems;
    super(problems.length === 1 ? first.text : message('batch.problems', { count: problems.length, first: first.text }));
    this.code = problems.every((p) => p.code === first.code) ? first.code : 'BAD_USER_INPUT';
  }

  extensions(locale?: Locale) {
    const describe = (p: AppError) => {
      const { field, ...rest } = p.extensions() as { field?: string; reason?: string };
      return { code: p.code, message: translate(p.text, locale), ...(field !== undefined ? { field, path: inputPath(field) } : {}), ...rest };
    };
    const [first] = this.problems;
    const { field, reason } = first.extensions() as { field?: string; reason?: string };
    return {
      ...(field !== undefined ? { field } : {}),
      ...(reason !== undefined && this.code === first.code ? { reason } : {}),
      problems: this.problems.slice(0, MAX_REPORTED_PROBLEMS).map(describe),
      problemCount: this.problems.length,
    };
  }
}
