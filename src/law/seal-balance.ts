import { Version } from './dated';
import { IsoDate, yearOf } from './dates';
import { Decimal } from './decimal';
import { LawBook } from './law-book';
import { targetDay } from './seal-spending';

// Balances of the Selo's evaluation (Portaria MDA 28/2024 art. 58): a communicated year's surplus
// counts toward the next year's minimum, a deficit may be made up by its end. Which years carry is
// law data (`selo-balance-carry`). Pure.

/** An evaluation of a year, recorded as communicated on a date. */
export interface SealEvaluation {
  year: number;
  communicatedOn: IsoDate;
}

/** A year's balance as it enters another year (requirement 1 of that year). */
export interface BalanceIn {
  fromYear: number;
  communicatedOn: IsoDate;
  /** Weighted reais: positive a surplus that counts toward the minimum, negative a deficit to make up; null while the evaluated year's minimum is not published. */
  amount: Decimal | null;
  /** A deficit must be made up by this day: 31 December of the year after the communication. */
  deadline: IsoDate;
  legalBasis: string;
}

/** A year's own balance, as it leaves it. */
export interface BalanceOut {
  /** weighted spending + balance brought in − the spending the minimum requires; null while the minimum is not published. */
  amount: Decimal | null;
  /** The evaluation's communication, when recorded (and known on asKnownOn). */
  communicatedOn: IsoDate | null;
  /** The year it counts toward: the year after the communication; null until communicated. */
  toYear: number | null;
  legalBasis: string;
}

/**
 * Art. 58: the calendar year after the one the result was communicated in (a 2024 evaluation
 * communicated in 2025 counts toward 2026); the deficit's deadline is that year's last day.
 */
export function balanceTargetYear(communicatedOn: IsoDate): number {
  return yearOf(communicatedOn) + 1;
}

/** Art. 58 as law data: the citation saying the balance of `year` carries, as known on `asKnownOn`; undefined where it does not. */
export function balanceCarries(law: LawBook, year: number, asKnownOn: IsoDate): Version<Record<string, string>> | undefined {
  return law.sealBalanceCarries(targetDay(year), asKnownOn);
}

/** What a year's balance is computed from: its weighted total and requirement 1's figures. */
export interface EvaluatedYear {
  year: number;
  asKnownOn: IsoDate;
  countedTotal: Decimal;
  minimumShare: { requiredAmount: Decimal | null; balanceIn: Decimal | null };
}

/**
 * A year's balance leaving it: its weighted spending plus the balance it brought in, less the
 * spending its minimum requires (unrounded). Undefined where the year's balance does not carry
 * (law data); `amount` null while the minimum weighted percentage is not published.
 */
export function balanceOut(r: EvaluatedYear, law: LawBook, evaluation: SealEvaluation | null): BalanceOut | undefined {
  const carries = balanceCarries(law, r.year, r.asKnownOn);
  if (!carries) return undefined;
  const required = r.minimumShare.requiredAmount;
  const broughtIn = r.minimumShare.balanceIn;
  return {
    amount: required === null || broughtIn === null ? null : r.countedTotal.plus(broughtIn).minus(required),
    communicatedOn: evaluation?.communicatedOn ?? null,
    toYear: evaluation ? balanceTargetYear(evaluation.communicatedOn) : null,
    legalBasis: carries.legalBasis,
  };
}

/** The balance a year's evaluation brings into the year after its communication, from the evaluated year's result. */
export function balanceIn(evaluation: SealEvaluation, out: BalanceOut): BalanceIn {
  return {
    fromYear: evaluation.year, communicatedOn: evaluation.communicatedOn, amount: out.amount,
    deadline: targetDay(balanceTargetYear(evaluation.communicatedOn)), legalBasis: out.legalBasis,
  };
}
