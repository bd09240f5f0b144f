import { Version, inForce } from './dated';
import { addDays, IsoDate, within } from './dates';
import { Decimal } from './decimal';
import { Finding, finding } from './findings';
import { Feedstock, Region } from './types';
import { message } from './message';

/** Decreto 10.527/2020, art. 3º §2 II–III; Decreto 5.996/2006 (PGPAF). */

/** Exactly one counterparty is set. */
export interface ContractFacts {
  signedOn: IsoDate;
  validFrom: IsoDate;
  validUntil: IsoDate;
  feedstock: Feedstock;
  pricePerKg: Decimal;
  technicalAssistance: boolean;
  familyFarmerId: string | null;
  organizationId: string | null;
  /** Whose PGPAF price the contract must guarantee. */
  counterpartyPlace?: PriceOrigin | null;
}

export interface CoveredPurchaseFacts {
  purchasedOn: IsoDate;
  feedstock: Feedstock;
  familyFarmerId: string | null;
  organizationId: string | null;
}

/** Decreto 5.996/2006. */
export interface MinimumPriceValue {
  feedstock: Feedstock;
  pricePerKg: Decimal;
  /** Null nationwide, a state's IBGE code or a Region. */
  scope?: string | null;
}

export interface PriceOrigin {
  municipalityCode: string;
  region: Region;
}

/** How closely a price's scope names an origin: 2 its state, 1 its region, 0 nationwide; null when it names another place. */
export function scopeRank(scope: string | null | undefined, origin: PriceOrigin | null): number | null {
  if (scope == null) return 0;
  if (!origin) return null;
  if (scope === origin.municipalityCode.slice(0, 2)) return 2;
  return scope === origin.region ? 1 : null;
}

export interface Conformity {
  conforming: boolean;
  findings: Finding[];
  minimumPrice: Version<MinimumPriceValue> | null;
}

/** Art. 3º §2 II. */
export interface Coverage {
  date: boolean;
  feedstock: boolean;
  counterparty: boolean;
}

/** Interpretation (Decreto 5.996/2006): the state's price governs, else its region's, else a national one. */
export function minimumPriceInForce(
  versions: readonly Version<MinimumPriceValue>[],
  feedstock: Feedstock,
  on: IsoDate,
  asKnownOn: IsoDate,
  origin: PriceOrigin | null = null,
): Version<MinimumPriceValue> | null {
  const ofFeedstock = versions.filter((v) => v.value.feedstock === feedstock);
  for (const rank of [2, 1, 0]) {
    const v = inForce(ofFeedstock.filter((x) => scopeRank(x.value.scope, origin) === rank), on, asKnownOn);
    if (v) return v;
  }
  return null;
}

/** Decreto 10.527/2020, art. 3º §2 II. */
export function coverage(contract: ContractFacts, purchase: CoveredPurchaseFacts): Coverage {
  return {
    date: within(purchase.purchasedOn, contract.validFrom, contract.validUntil),
    feedstock: contract.feedstock === purchase.feedstock,
    counterparty: contract.familyFarmerId === purchase.familyFarmerId && contract.organizationId === purchase.organizationId,
  };
}

export function covers(c: Coverage): boolean {
  return c.date && c.feedstock && c.counterparty;
}

export function coverageFinding(c: Coverage): Finding | null {
  if (covers(c)) return null;
  const missing = ([!c.date && 'word.date', !c.feedstock && 'word.feedstock', !c.counterparty && 'word.counterparty'] as const).filter((w) => w !== false).map((w) => message(w));
  return finding('CONTRACT_NOT_COVERING', message('finding.CONTRACT_NOT_COVERING.missing', { missing }));
}

/** Decreto 10.527/2020, art. 3º §2 II. */
export function firstCoveredPurchaseOn(contract: ContractFacts, purchases: readonly CoveredPurchaseFacts[]): IsoDate | null {
  let first: IsoDate | null = null;
  for (const p of purchases) if (covers(coverage(contract, p)) && (first === null || p.purchasedOn < first)) first = p.purchasedOn;
  return first;
}

/** Art. 3º §2 II "firmar previamente": the same day counts as prior (docs/LAW.md). */
export function signedBefore(contract: Pick<ContractFacts, 'signedOn'>, purchasedOn: IsoDate): boolean {
  return contract.signedOn <= purchasedOn;
}

/** Art. 3º §2º II–III: what the contract fails, as `Contract.conformity` lists it (docs/LAW.md). */
export function contractConformity(
  contract: ContractFacts,
  minimumPrices: readonly Version<MinimumPriceValue>[],
  firstCoveredPurchaseOn: IsoDate | null,
  asKnownOn: IsoDate,
): Conformity {
  const findings: Finding[] = [];
  if (firstCoveredPurchaseOn !== null && !signedBefore(contract, firstCoveredPurchaseOn)) {
    findings.push(finding('NO_PRIOR_CONTRACT', message('finding.NO_PRIOR_CONTRACT.firstPurchase', { signedOn: contract.signedOn, purchasedOn: firstCoveredPurchaseOn })));
  }
  const minimumPrice = minimumPriceInForce(minimumPrices, contract.feedstock, contract.signedOn, asKnownOn, contract.counterpartyPlace ?? null);
  if (minimumPrice && contract.pricePerKg.lt(minimumPrice.value.pricePerKg)) {
    findings.push(finding('PRICE_BELOW_MINIMUM', message('finding.PRICE_BELOW_MINIMUM.prices', {
      price: contract.pricePerKg.toFixed(), minimum: minimumPrice.value.pricePerKg.toFixed(), signedOn: contract.signedOn, legalBasis: minimumPrice.legalBasis,
    })));
  }
  if (!contract.technicalAssistance) findings.push(finding('NO_TECHNICAL_ASSISTANCE'));
  return { conforming: findings.length === 0, findings, minimumPrice };
}

/**
 * Art. 3º §2º II as one purchase meets it, in every year: signed on or before that purchase
 * ("firmar previamente", judged per acquisition: a later purchase under a contract signed after an
 * earlier one still counts), covering it, at a price guaranteeing the PGPAF minimum. Technical
 * assistance (III) is the producer's obligation, a finding of the year, never a purchase's.
 */
export function contractFindingsFromFacts(conformity: Conformity, priorToPurchase: boolean, c: Coverage, signedOn: IsoDate): Finding[] {
  const found: Finding[] = [];
  if (!priorToPurchase) found.push(finding('NO_PRIOR_CONTRACT', message('finding.NO_PRIOR_CONTRACT.signedOn', { signedOn })));
  const notCovering = coverageFinding(c);
  if (notCovering) found.push(notCovering);
  for (const f of conformity.findings) {
    if (f.code === 'NO_PRIOR_CONTRACT' || f.code === 'NO_TECHNICAL_ASSISTANCE') continue; // judged per purchase above; the year's
    found.push(f);
  }
  return found;
}

export interface MinimumPriceRun {
  feedstock: Feedstock;
  /** The SQL takes the most specific run matching the origin. */
  scope: string | null;
  from: IsoDate;
  to: IsoDate;
  pricePerKg: Decimal;
}

/** Decreto 5.996/2006, as maximal runs of days per feedstock. */
export function minimumPriceRuns(versions: readonly Version<MinimumPriceValue>[], from: IsoDate, to: IsoDate, asKnownOn: IsoDate): MinimumPriceRun[] {
  const runs: MinimumPriceRun[] = [];
  const keys = [...new Set(versions.map((v) => `${v.value.feedstock}|${v.value.scope ?? ''}`))].sort();
  for (const key of keys) {
    const [feedstock, scopeText] = key.split('|') as [Feedstock, string];
    const scope = scopeText === '' ? null : scopeText;
    const known = versions.filter((v) => v.value.feedstock === feedstock && (v.value.scope ?? null) === scope && v.publishedOn <= asKnownOn);
    const cuts = new Set<IsoDate>([from]);
    for (const v of known) {
      if (v.validFrom > from && v.validFrom <= to) cuts.add(v.validFrom);
      const after = v.validUntil && addDays(v.validUntil, 1);
      if (after && after > from && after <= to) cuts.add(after);
    }
    const starts = [...cuts].sort();
    starts.forEach((start, i) => {
      const v = inForce(known, start, asKnownOn);
      const end = i + 1 < starts.length ? addDays(starts[i + 1], -1) : to;
      if (!v) return;
      const last = runs[runs.length - 1];
      if (last && last.feedstock === feedstock && last.scope === scope && last.to === addDays(start, -1) && last.pricePerKg.eq(v.value.pricePerKg)) last.to = end;
      else runs.push({ feedstock, scope, from: start, to: end, pricePerKg: v.value.pricePerKg });
    });
  }
  return runs;
}
