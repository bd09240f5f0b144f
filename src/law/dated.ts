import { IsoDate, within } from './dates';

/**
 * One version of a legal figure (docs/LAW.md). Versions are never updated or deleted; a
 * correction is a new version, and where validity overlaps the later publication wins.
 */
export interface Version<T> {
  /** Database id, where the version has been stored. */
  id?: string;
  value: T;
  validFrom: IsoDate;
  /** Inclusive; null while open-ended. */
  validUntil: IsoDate | null;
  /** Date the act was published: the version is known from then on. */
  publishedOn: IsoDate;
  legalBasis: string;
  /** Where the publication date is not in our sources, says so and what was used. */
  note?: string | null;
  /**
   * The publication date is not in our sources and the one used is not anchored to a dated act:
   * an answer as known before the real publication could differ (docs/LAW.md, PUBLICATION_DATE_OPEN).
   */
  publicationDateOpen?: boolean;
  /** Order of recording, to break ties between versions published the same day (later wins). */
  seq?: number;
}

/**
 * docs/LAW.md — the value in force on `on` as known on `asKnownOn`: among the versions with
 * `publishedOn <= asKnownOn` and `validFrom <= on <= validUntil`, the one published last. Its SQL
 * twin, for statements that choose among stored versions: src/services/facts/in-force.sql.ts.
 */
export function inForce<T>(versions: readonly Version<T>[], on: IsoDate, asKnownOn: IsoDate): Version<T> | undefined {
  let best: Version<T> | undefined;
  versions.forEach((v, index) => {
    if (v.publishedOn > asKnownOn || !within(on, v.validFrom, v.validUntil)) return;
    if (!best || isLater(v, index, best, versions.indexOf(best))) best = v;
  });
  return best;
}

function isLater<T>(a: Version<T>, ai: number, b: Version<T>, bi: number): boolean {
  if (a.publishedOn !== b.publishedOn) return a.publishedOn > b.publishedOn;
  return (a.seq ?? ai) > (b.seq ?? bi);
}
