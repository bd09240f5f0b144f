import { Locale, Message, translate } from '../../i18n';
import { MAX_REPORTED_PROBLEMS } from '../../services/problems';

export interface NfeProblem { file: string; key: string | null; item: number | null; reason: Message }

/** The key is stable for clients that switch on it. */
export function shownProblem(p: NfeProblem, locale?: Locale) {
  return { file: p.file, key: p.key, item: p.item, reason: translate(p.reason, locale), messageKey: p.reason.key };
}

/**
 * An upload's problems: all counted, the first MAX_REPORTED_PROBLEMS kept, as the CSV and XLSX
 * imports report theirs. A ZIP of notes of 20,000 items each had 2.6 million, whose answer could
 * not even be written.
 */
export class NfeProblems {
  readonly kept: NfeProblem[];
  count: number;

  constructor(from: { problems: NfeProblem[]; problemCount: number } = { problems: [], problemCount: 0 }) {
    this.kept = from.problems.slice(0, MAX_REPORTED_PROBLEMS);
    this.count = from.problemCount;
  }

  push(p: NfeProblem): void {
    this.count++;
    if (this.kept.length < MAX_REPORTED_PROBLEMS) this.kept.push(p);
  }
}
