import { IsoDate } from './dates';
import { Region } from './types';

/** IBGE UF codes (first two digits of a municipality code) and their abbreviations. */
const UF_BY_CODE: Record<string, string> = {
  '11': 'RO', '12': 'AC', '13': 'AM', '14': 'RR', '15': 'PA', '16': 'AP', '17': 'TO',
  '21': 'MA', '22': 'PI', '23': 'CE', '24': 'RN', '25': 'PB', '26': 'PE', '27': 'AL', '28': 'SE', '29': 'BA',
  '31': 'MG', '32': 'ES', '33': 'RJ', '35': 'SP',
  '41': 'PR', '42': 'SC', '43': 'RS',
  '50': 'MS', '51': 'MT', '52': 'GO', '53': 'DF',
};

const REGION_BY_DIGIT: Record<string, Region> = {
  '1': Region.NORTH, '2': Region.NORTHEAST, '3': Region.SOUTHEAST, '4': Region.SOUTH, '5': Region.CENTER_WEST,
};

export interface MunicipalityFacts {
  state: string;
  region: Region;
}

/**
 * IBGE code → UF and region: the first digit is the region, the first two the UF
 * (IBGE's municipality codes: the first two digits name the UF). Null when the code is not 7 digits or names no UF.
 */
export function municipalityFacts(ibgeCode: string): MunicipalityFacts | null {
  if (!/^\d{7}$/.test(ibgeCode)) return null;
  const state = UF_BY_CODE[ibgeCode.slice(0, 2)];
  if (!state) return null;
  return { state, region: REGION_BY_DIGIT[ibgeCode[0]] };
}

/**
 * Decreto 10.527/2020, art. 6º I and III; art. 3º §2 I b, c — the priority region is the North,
 * the Northeast and the Semiárido, judged by where the raw material was produced.
 */
export function isPriorityRegion(place: { region: Region; semiarid: boolean }): boolean {
  return place.region === Region.NORTH || place.region === Region.NORTHEAST || place.semiarid;
}

/**
 * One Semiárido membership interval as a Condel/Sudene act delimited it, both ends inclusive;
 * `validFrom` null when recorded undated (since before any record), `validUntil` null while open.
 */
export interface SemiaridInterval {
  validFrom: IsoDate | null;
  validUntil: IsoDate | null;
  act: string;
}

/**
 * Decreto 10.527/2020, art. 6º I and III; art. 3º §2 I b–c — whether a municipality lies in the
 * Semiárido on `on`: one of its intervals covers that day (the delimitation changes by Condel/Sudene
 * resolution, so the answer is dated).
 */
export function semiaridOn(intervals: readonly SemiaridInterval[], on: IsoDate): boolean {
  return intervals.some((i) => (i.validFrom === null || i.validFrom <= on) && (i.validUntil === null || on <= i.validUntil));
}

/**
 * The UF codes of the North and the Northeast: an IBGE municipality code's first two digits name
 * its UF, and the first digit the UF's region. The rule reads the UF, so a code whose first two
 * digits name no UF (10, 18, 20, …) lies in no region: neither here nor in the SQL twin.
 */
export const NORTH_NORTHEAST_UF_CODES: readonly string[] = Object.keys(UF_BY_CODE).filter((uf) => REGION_BY_DIGIT[uf[0]] === Region.NORTH || REGION_BY_DIGIT[uf[0]] === Region.NORTHEAST);

/** North or Northeast by the UF the code names (Decreto 10.527/2020, art. 6º I and III); false for a code that names no UF. */
export function inNorthOrNortheast(ibgeCode: string): boolean {
  return /^\d{7}$/.test(ibgeCode) && NORTH_NORTHEAST_UF_CODES.includes(ibgeCode.slice(0, 2));
}

/**
 * Decreto 10.527/2020, art. 6º I and III; art. 3º §2 I b–c — the priority region on a date: the
 * North and the Northeast (by the UF of the IBGE code), or the Semiárido on that date (its recorded
 * intervals, whatever the code).
 */
export function priorityRegionOn(ibgeCode: string, intervals: readonly SemiaridInterval[], on: IsoDate): boolean {
  return inNorthOrNortheast(ibgeCode) || semiaridOn(intervals, on);
}
