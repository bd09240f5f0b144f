import { LawVersionRecord } from './law-book';
import decreto10527Art3Wording from './parameters/decreto-10527-2020/art-3-wording.json';
import decreto10527Art5 from './parameters/decreto-10527-2020/art-5.json';
import decreto10527Art6 from './parameters/decreto-10527-2020/art-6.json';
import decreto10527BlendRules from './parameters/decreto-10527-2020/blend-rules.json';
import decreto7768Coefficients from './parameters/decreto-7768-2012/coefficients.json';
import ec132Adct126 from './parameters/ec-132-2023/adct-art-126.json';
import lei11116Art3 from './parameters/lei-11116-2005/art-3.json';
import lei11116Art4 from './parameters/lei-11116-2005/art-4.json';
import lc214FuelTaxes from './parameters/lc-214-2025/fuel-taxes.json';
import lc214CbsCredits from './parameters/lc-214-2025/cbs-credits.json';
import seloMinimumShares from './parameters/selo/minimum-spending-shares.json';
import seloPriorityShares from './parameters/selo/priority-region-shares.json';
import seloWeightingFactors from './parameters/selo/weighting-factors.json';
import seloPortariaMda28 from './parameters/selo/portaria-mda-28-2024.json';
import lei10637Art3 from './parameters/lei-10637-2002/art-3.json';
import lei10637CreditChoices from './parameters/lei-10637-2002/credit-choices.json';
import lei12865Art31 from './parameters/lei-12865-2013/art-31.json';
import semiaridPortariaMi89 from './parameters/semiarid/portaria-mi-89-2005.json';

/**
 * How sure the sources are: `confirmed` (the act or an official page), `secondary`, `open`; other
 * than confirmed is noted, and an ADMIN's published version wins from its publication.
 */
export type SourceStatus = 'confirmed' | 'secondary' | 'open';

/** One shipped version as written in a data file under src/law/parameters. */
export interface ShippedVersion extends LawVersionRecord {
  /** Stable key: the version loads once, whatever the number of start-ups. */
  key: string;
  /** False where the publication date is not in our sources (the note then says which date was used). */
  publishedOnInSources: boolean;
  /**
   * Decided on every version whose publication date is not in our sources (docs/LAW.md): true
   * where the date used stands in for one our sources do not anchor (neither the publication nor
   * the date of the act that publishes the version), so answers near it say so (PUBLICATION_DATE_OPEN).
   */
  publicationDateOpen?: boolean;
  status: SourceStatus;
}

/** A data file: the act, the provision, and its versions. */
export interface ParameterFile {
  act: string;
  provision: string;
  comment: string;
  versions: ShippedVersion[];
}

/** Every data file, by its path under src/law/parameters (folders mirror the law). */
export const PARAMETER_FILES: Record<string, ParameterFile> = {
  'decreto-10527-2020/art-3-wording.json': decreto10527Art3Wording as ParameterFile,
  'decreto-10527-2020/art-5.json': decreto10527Art5 as ParameterFile,
  'decreto-10527-2020/art-6.json': decreto10527Art6 as ParameterFile,
  'decreto-10527-2020/blend-rules.json': decreto10527BlendRules as ParameterFile,
  'decreto-7768-2012/coefficients.json': decreto7768Coefficients as ParameterFile,
  'lei-11116-2005/art-3.json': lei11116Art3 as ParameterFile,
  'lei-11116-2005/art-4.json': lei11116Art4 as ParameterFile,
  'ec-132-2023/adct-art-126.json': ec132Adct126 as ParameterFile,
  'lc-214-2025/fuel-taxes.json': lc214FuelTaxes as ParameterFile,
  'lc-214-2025/cbs-credits.json': lc214CbsCredits as ParameterFile,
  'selo/minimum-spending-shares.json': seloMinimumShares as ParameterFile,
  'selo/priority-region-shares.json': seloPriorityShares as ParameterFile,
  'selo/weighting-factors.json': seloWeightingFactors as ParameterFile,
  'selo/portaria-mda-28-2024.json': seloPortariaMda28 as ParameterFile,
  'lei-10637-2002/art-3.json': lei10637Art3 as ParameterFile,
  'lei-10637-2002/credit-choices.json': lei10637CreditChoices as ParameterFile,
  'lei-12865-2013/art-31.json': lei12865Art31 as ParameterFile,
  'semiarid/portaria-mi-89-2005.json': semiaridPortariaMi89 as ParameterFile,
};

/** The law the project ships, in file order (the order they are recorded in at first start-up). */
export const SHIPPED_LAW: readonly ShippedVersion[] = Object.values(PARAMETER_FILES).flatMap((f) => f.versions);
