/**
 * Finding codes (DESIGN §1.6): stable, clients switch on them. A new situation gets a new code
 * here and a line in docs/LAW.md; the compiler then asks for its message.
 */
export const FINDINGS = {
  NO_REGIME_ELECTION: { message: 'No election on record governs the year (none made, or none effective yet): computed ad valorem.', legalBasis: 'Lei 11.116/2005, arts. 3º and 4º' },
  NO_FEEDSTOCK_IN_PERIOD: { message: 'No raw material was used in the period: own production taxed at the general rate.', legalBasis: 'Decreto 10.527/2020, art. 5º §1º; art. 6º §3º' },
  OWN_PRODUCTION_VALUED_BY_QUANTITY: { message: 'No raw material was acquired from third parties in the period: weights fall back to quantity (kg).', legalBasis: 'Decreto 10.527/2020, art. 6º §4º' },
  SEAL_NOT_REGULAR: { message: 'The producer does not hold the Selo in regular standing on that date.', legalBasis: 'Decreto 10.527/2020, art. 6º §2º' },
  SUPPLIER_NOT_ELIGIBLE: { message: 'The supplier was not an eligible family farmer or habilitated organization on the purchase date.', legalBasis: 'Decreto 10.527/2020, art. 2º IV and V; art. 4º VI and VII' },
  ASSOCIATION_NOT_COOPERATIVE: { message: 'Bought from an association: counts for the Selo but not for the family-farming rates, which name the cooperative.', legalBasis: 'Decreto 10.527/2020, art. 6º §2º; Lei 11.116/2005, art. 5º §3º' },
  REGISTRATION_NOT_VALID: { message: 'No DAP or CAF valid on the date.', legalBasis: 'Decreto 10.527/2020, art. 2º IV and V' },
  MEMBER_SHARE_BELOW_MINIMUM: { message: 'The share of family farmers among the cooperative members is below the minimum in force.', legalBasis: 'Decreto 10.527/2020, art. 4º VI' },
  DAP_ISSUED_AFTER_CUTOFF: { message: 'A DAP with validity starting after 2022-10-31, when DAP issuance ended.', legalBasis: 'Portaria MAPA 174/2022' },
  NO_CONTRACT: { message: 'No contract covers the purchase.', legalBasis: 'Decreto 10.527/2020, art. 3º §2º II' },
  NO_PRIOR_CONTRACT: { message: 'The contract was signed after the purchase.', legalBasis: 'Decreto 10.527/2020, art. 3º §2º II' },
  CONTRACT_NOT_COVERING: { message: 'The contract does not cover the purchase date, feedstock or counterparty.', legalBasis: 'Decreto 10.527/2020, art. 3º §2º II' },
  PRICE_BELOW_MINIMUM: { message: 'The contract price per kg is below the PGPAF minimum price in force on the signing date.', legalBasis: 'Decreto 10.527/2020, art. 3º §2º II; Decreto 5.996/2006' },
  NO_TECHNICAL_ASSISTANCE: { message: 'The contract does not assure technical assistance and training.', legalBasis: 'Decreto 10.527/2020, art. 3º §2º III' },
  OUTSIDE_PRIORITY_REGION: { message: 'Outside the North, Northeast and Semiárido.', legalBasis: 'Decreto 10.527/2020, art. 3º §2º I b and c; art. 6º I and III' },
  ELECTION_AFTER_DEADLINE: { message: 'Elected after the last business day of November: applies from the year after the next one.', legalBasis: 'Lei 11.116/2005, art. 4º §1º' },
  NOT_FROM_FAMILY_FARMING: { message: 'The raw material was not bought from a family farmer or a cooperative.', legalBasis: 'Decreto 10.527/2020, art. 6º II, III and §2º; Lei 11.116/2005, art. 5º §3º' },
  NOT_CASTOR_OR_PALM: { message: 'The raw material is neither castor bean nor fruit, stone or kernel of palm.', legalBasis: 'Decreto 10.527/2020, art. 6º I' },
  IMPORTED_BIODIESEL: { message: 'Imported biodiesel: the differentiated rates of art. 6º do not apply; taxed at the general rate.', legalBasis: 'Decreto 10.527/2020, art. 6º §5º' },
  SEAL_REGULAR: { message: 'The producer holds the Selo in regular standing on that date.', legalBasis: 'Decreto 10.527/2020, art. 6º §2º' },
  NO_SEAL_GRANT: { message: 'No Selo grant covers the date.', legalBasis: 'Decreto 10.527/2020, art. 4º III; art. 6º §2º' },
  SEAL_EXPIRED: { message: 'The Selo grant expired before that date.', legalBasis: 'Decreto 10.527/2020, art. 4º V; art. 6º §2º' },
  SEAL_SUSPENDED: { message: 'The Selo grant is suspended on that date.', legalBasis: 'Decreto 10.527/2020, art. 4º I; art. 6º §2º' },
  SEAL_CANCELLED: { message: 'The Selo grant was cancelled on or before that date.', legalBasis: 'Decreto 10.527/2020, art. 4º I; art. 6º §2º' },
} as const;

export type FindingCode = keyof typeof FINDINGS;

export interface Finding {
  code: FindingCode | string;
  message: string;
  legalBasis: string | null;
}

/** The finding for a code, optionally with a more specific message. */
export function finding(code: FindingCode, message?: string): Finding {
  const f = FINDINGS[code];
  return { code, message: message ?? f.message, legalBasis: f.legalBasis };
}
