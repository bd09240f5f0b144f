import { message, Message } from './message';

/**
 * Finding codes (docs/LAW.md): stable, clients switch on them, each with the provision it rests
 * on. A new situation gets a new code here and a line in docs/LAW.md, and its description in src/i18n
 * (`finding.<CODE>`, in English and Portuguese; test/i18n/catalog.test.ts asks for both).
 */
const LEGAL_BASIS = {
  NO_REGIME_ELECTION: 'Lei 11.116/2005, arts. 3º and 4º',
  NO_FEEDSTOCK_IN_PERIOD: 'Decreto 10.527/2020, art. 5º §1º; art. 6º §3º',
  OWN_PRODUCTION_VALUED_BY_QUANTITY: 'Decreto 10.527/2020, art. 6º §4º',
  SEAL_NOT_REGULAR: 'Decreto 10.527/2020, art. 6º §2º',
  SUPPLIER_NOT_ELIGIBLE: 'Decreto 10.527/2020, art. 2º IV and V; art. 4º VI and VII',
  ASSOCIATION_NOT_COOPERATIVE: 'Decreto 10.527/2020, art. 6º §2º; Lei 11.116/2005, art. 5º §3º',
  REGISTRATION_NOT_VALID: 'Decreto 10.527/2020, art. 2º IV and V',
  MEMBER_SHARE_BELOW_MINIMUM: 'Decreto 10.527/2020, art. 4º VI',
  MEMBER_MINIMUM_NOT_PUBLISHED: 'Decreto 10.527/2020, art. 4º VI',
  DAP_ISSUED_AFTER_CUTOFF: 'Portaria MAPA 174/2022',
  NO_CONTRACT: 'Decreto 10.527/2020, art. 3º §2º II',
  NO_PRIOR_CONTRACT: 'Decreto 10.527/2020, art. 3º §2º II',
  CONTRACT_NOT_COVERING: 'Decreto 10.527/2020, art. 3º §2º II',
  PRICE_BELOW_MINIMUM: 'Decreto 10.527/2020, art. 3º §2º II; Decreto 5.996/2006',
  NO_TECHNICAL_ASSISTANCE: 'Decreto 10.527/2020, art. 3º §2º III',
  OUTSIDE_PRIORITY_REGION: 'Decreto 10.527/2020, art. 3º §2º I b and c; art. 6º I and III',
  ELECTION_AFTER_DEADLINE: 'Lei 11.116/2005, art. 4º §1º',
  NOT_FROM_FAMILY_FARMING: 'Decreto 10.527/2020, art. 6º II, III and §2º; Lei 11.116/2005, art. 5º §3º',
  NOT_CASTOR_OR_PALM: 'Decreto 10.527/2020, art. 6º I',
  IMPORTED_BIODIESEL: 'Decreto 10.527/2020, art. 6º §5º',
  SEAL_REGULAR: 'Decreto 10.527/2020, art. 6º §2º',
  NO_SEAL_GRANT: 'Decreto 10.527/2020, art. 4º III; art. 6º §2º',
  SEAL_EXPIRED: 'Decreto 10.527/2020, art. 4º V; art. 6º §2º',
  SEAL_SUSPENDED: 'Decreto 10.527/2020, art. 4º I; art. 6º §2º',
  SEAL_CANCELLED: 'Decreto 10.527/2020, art. 4º I; art. 6º §2º',
  OWN_PRODUCTION_VALUED_BY_LOTS_USED: 'Decreto 10.527/2020, art. 6º §4º',
  BLEND_OF_EARLIER_PERIOD: 'Decreto 10.527/2020, art. 6º §3º',
  RETURN_EXCEEDS_USE: 'Lei 11.116/2005, art. 5º §4º; Decreto 10.527/2020, art. 6º §3º',
  RATE_NOT_PUBLISHED: 'Lei Complementar 214/2025, arts. 173–174',
  CBS_NOT_REGULATED: 'EC 132/2023, ADCT art. 126, I–II',
  RETURN_OF_PIS_COFINS_SALE: 'EC 132/2023, ADCT art. 126, I and II; Lei Complementar 214/2025, arts. 172–173 and 378',
  SEMIARID_DELIMITATION_OPEN: 'Portaria MI nº 89/2005; Res. Condel/Sudene nº 115/2017',
  // Each finding names the version's own legal basis; this is the rule it rests on.
  PUBLICATION_DATE_OPEN: 'The act of the version, in force from its publication (e.g. Decreto 10.527/2020, art. 10)',
} as const;

export type FindingCode = keyof typeof LEGAL_BASIS;

/** Each code's general description (a message: `finding.<CODE>`) and legal basis. */
export const FINDINGS = Object.fromEntries(
  (Object.keys(LEGAL_BASIS) as FindingCode[]).map((code) => [code, { text: message(`finding.${code}`), legalBasis: LEGAL_BASIS[code] }]),
) as Record<FindingCode, { text: Message; legalBasis: string }>;

export interface Finding {
  code: FindingCode | string;
  legalBasis: string | null;
  /** What it says, as a message (rendered in a language by src/i18n: `findingMessage`). */
  text?: Message;
  /** Only in a finding stored before its text was kept (a month closed earlier): its English words. */
  message?: string;
}

/**
 * A finding: the code's general description, or `detail`, a more specific message about the case;
 * `legalBasis` where the one in force is not the catalogue's (a month under an earlier act).
 */
export function finding(code: FindingCode, detail?: Message, legalBasis?: string): Finding {
  return described(code, legalBasis ?? LEGAL_BASIS[code], detail ?? message(`finding.${code}`));
}

/** A finding of any catalogue, from its code, legal basis and text. */
export function described(code: string, legalBasis: string | null, text: Message): Finding {
  return { code, legalBasis, text };
}
