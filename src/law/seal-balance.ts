import { Version } from './dated';
import { IsoDate, yearOf } from './dates';
import { Decimal } from './decimal';
import { LawBook } from './law-book';
import { targetDay } from './seal-spending';

// Portaria MDA 28/2024 art. 58; which years carry is law data (`selo-balance-carry`). Pure.

export interface SealEvaluation {
  year: number;
  communicatedOn: IsoDate;
}

export interface BalanceIn {
  fromYear: number;
  communicatedOn: IsoDate;
  /** Weighted reais; negative a deficit to make up. */
  amount: Decimal | null;
  deadline: IsoDate;
  legalBasis: string;
}

export interface BalanceOut {
  amount: Decimal | null;
  communicatedOn: IsoDate | null;
  toYear: number | null;
  legalBasis: string;
}

/** Art. 58: a 2024 evaluation communicated in 2025 counts toward 2026. */
export function balanceTargetYear(communicatedOn: IsoDate): number {
  return yearOf(communicatedOn) + 1;
}

/** Art. 58 as law data. */
export function balanceCarries(law: LawBook, year: number, asKnownOn: IsoDate): Version<Record<string, string>> | undefined {
  return law.sealBalanceCarries(targetDay(year), asKnownOn);
}

export interface EvaluatedYear {
  year: number;
  asKnownOn: IsoDate;
  countedTotal: Decimal;
  minimumShare: { requiredAmount: Decimal | null; balanceIn: Decimal | null };
}

/** Unrounded; undefined where the year's balance does not carry. */
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

export function balanceIn(evaluation: SealEvaluation, out: BalanceOut): BalanceIn {
  return {
    fromYear: evaluation.year, communicatedOn: evaluation.communicatedOn, amount: out.amount,
    deadline: targetDay(balanceTargetYear(evaluation.communicatedOn)), legalBasis: out.legalBasis,
  };
}
