import { Version } from './dated';
import { IsoDate } from './dates';
import { LawBook } from './law-book';
import { balanceOut } from './seal-balance';
import { lateDapFindings, memberMinimumFindings, targetDay } from './seal-spending';
import { weightedSealCompliance } from './seal-weighting';
import { flatSealCompliance, SealComplianceFacts, SealComplianceResult } from './seal-year';

// A producer's Selo year (Decreto 10.527/2020 art. 3º §§2º–3º; Portaria MDA 28/2024) in the
// Portaria's order: requirement 1 (seal-weighting.ts; flat model seal-year.ts), requirement 2
// (seal-year.ts), art. 58 balances (seal-balance.ts); what counts: seal-spending.ts. Pure.

/**
 * The model of a year as known on a date: weighted when Portaria MDA nº 28/2024 is in force for it
 * as known then (years from 2024, known from 2024-06-28), else flat.
 */
export function sealComplianceModel(law: LawBook, year: number, asKnownOn: IsoDate): Version<Record<string, string>> | undefined {
  return law.sealWeightedModel(targetDay(year), asKnownOn);
}

/** A year's Selo compliance under the model in force for it as known on `asKnownOn`. */
export function sealCompliance(facts: SealComplianceFacts, law: LawBook): SealComplianceResult {
  const model = sealComplianceModel(law, facts.year, facts.asKnownOn);
  // Art. 4º VI: organizations judged by their document alone where no member minimum is published.
  const memberMinimum = memberMinimumFindings(facts.purchases, law, facts.asKnownOn);
  if (!model) {
    const flat = flatSealCompliance(facts, law);
    return { ...flat, findings: [...flat.findings, ...memberMinimum, ...lateDapFindings(flat.items)] };
  }
  const r = weightedSealCompliance(facts, law, model);
  // Art. 58: the year's own balance, where its balances carry.
  const carriedOut = balanceOut(r, law, facts.evaluation ?? null);
  return { ...r, findings: [...r.findings, ...memberMinimum, ...lateDapFindings(r.items)], balance: { ...r.balance, carriedOut } };
}
