import { cnpj as cnpjLib, cpf as cpfLib } from 'cpf-cnpj-validator';
import { TestApi } from './api';

/** IBGE codes of the municipalities the tests record. */
export const RECIFE = '2611606'; //        PE, Nordeste: priority region
export const PORTO_ALEGRE = '4314902'; //  RS, Sul
export const FEIRA = '2910800'; //         BA, Nordeste, Semiárido

const NAMES: Record<string, { name: string; semiarid: boolean }> = {
  [RECIFE]: { name: 'Recife', semiarid: false },
  [PORTO_ALEGRE]: { name: 'Porto Alegre', semiarid: false },
  [FEIRA]: { name: 'Feira de Santana', semiarid: true },
};

/** Record the municipalities of `codes` (one of RECIFE, PORTO_ALEGRE, FEIRA) through the API. */
export async function upsertMunicipalities(api: TestApi, codes: string[]): Promise<void> {
  await api.ok(`mutation($i: [MunicipalityInput!]!) { upsertMunicipalities(input: $i) { ibgeCode } }`, {
    i: codes.map((ibgeCode) => ({ ibgeCode, ...NAMES[ibgeCode] })),
  });
}

let serial = 0;
/** A numeric CNPJ with valid check digits (módulo 11), different at each call. */
export function newCnpj(): string {
  serial++;
  let digits = `${String(10000000 + serial).slice(-8)}0001`;
  for (const weights of [[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]]) {
    const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
    const rest = sum % 11;
    digits += rest < 2 ? '0' : String(11 - rest);
  }
  if (!cnpjLib.isValid(digits)) throw new Error(`bad test CNPJ ${digits}`);
  return digits;
}

export function newCpf(): string {
  return cpfLib.generate();
}

export async function createProducer(api: TestApi, name: string, municipality = RECIFE): Promise<string> {
  const data = await api.ok(
    `mutation($input: CreateProducerInput!) { createProducer(input: $input) { id } }`,
    { input: { cnpj: newCnpj(), legalName: name, plantMunicipalityCode: municipality } },
  );
  return data.createProducer.id;
}

/** The special per-m³ regime elected on `electedOn` (Lei 11.116/2005, art. 4º; in force for the next calendar year, §1º). */
export async function electSpecialRegime(api: TestApi, producerId: string, electedOn = '2025-11-03'): Promise<void> {
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId, regime: 'SPECIAL_PER_M3', electedOn } });
}

/** A grant of the Selo from 2025-01-01 (Decreto 10.527/2020, art. 4º I); returns its id. */
export async function grantSeal(api: TestApi, producerId: string, validUntil = '2027-12-31'): Promise<string> {
  return (await api.ok(`mutation($i: GrantSealInput!) { grantSeal(input: $i) { id } }`, { i: { producerId, grantedOn: '2025-01-01', validUntil } })).grantSeal.id;
}

/**
 * Recife and two producers with plants there: `own` ("Usina Própria", CNPJ 11222333000181) and
 * `other` ("Usina Alheia", CNPJ 11444777000161), the two sides of the access tests (the access rules, README "Tokens").
 */
export async function ownAndOtherProducers(api: TestApi): Promise<{ own: string; other: string }> {
  await upsertMunicipalities(api, [RECIFE]);
  const create = async (cnpj: string, legalName: string): Promise<string> => (await api.ok(
    `mutation($i: CreateProducerInput!) { createProducer(input: $i) { id } }`, { i: { cnpj, legalName, plantMunicipalityCode: RECIFE } },
  )).createProducer.id;
  const own = await create('11222333000181', 'Usina Própria');
  const other = await create('11444777000161', 'Usina Alheia');
  return { own, other };
}

export { nfeKey } from '../../src/formats/nfe-key';

/** The CNPJ of a producer, as stored. */
export async function producerCnpj(api: TestApi, producerId: string): Promise<string> {
  return (await api.db.dataSource.query('SELECT cnpj FROM producer WHERE id = $1', [producerId]))[0].cnpj;
}

/**
 * Publish, as an ADMIN would, a cooperative member minimum (Decreto 10.527/2020, art. 4º VI): none
 * is shipped, so tests of the member-share test publish one (0,6 from 2020-10-23 unless told).
 */
export async function publishMemberMinimum(api: TestApi, share = '0.6', validFrom = '2020-10-23', publishedOn = validFrom): Promise<void> {
  await api.ok(`mutation($input: PublishLawParameterInput!) { publishLawParameter(input: $input) { id } }`, {
    input: { parameter: 'cooperative-min-family-farmer-share', values: [{ name: 'share', value: share }], validFrom, publishedOn, legalBasis: 'Portaria MDA hipotética de teste, art. 1º (art. 4º VI)' },
  });
}
