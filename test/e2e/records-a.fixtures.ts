import { cnpj as cnpjLib, cpf as cpfLib } from 'cpf-cnpj-validator';
import { TestApi } from '../support/api';

/** Recife (PE, Nordeste), Porto Alegre (RS, Sul), Feira de Santana (BA, Semiárido). */
export const MUNICIPALITIES = [
  { ibgeCode: '2611606', name: 'Recife', semiarid: false },
  { ibgeCode: '4314902', name: 'Porto Alegre', semiarid: false },
  { ibgeCode: '2910800', name: 'Feira de Santana', semiarid: true },
];

/** CPF and CNPJ with valid check digits from the maintained library. */
export const newCpf = (): string => cpfLib.generate();
export const newCnpj = (): string => cnpjLib.generate();

export async function loadMunicipalities(api: TestApi): Promise<void> {
  await api.ok(`mutation($m: [MunicipalityInput!]!) { upsertMunicipalities(input: $m) { ibgeCode } }`, { m: MUNICIPALITIES });
}

export async function createProducer(api: TestApi, legalName: string, municipality = '2611606'): Promise<string> {
  const data = await api.ok(`mutation($input: CreateProducerInput!) { createProducer(input: $input) { id } }`, {
    input: { cnpj: newCnpj(), legalName, plantMunicipalityCode: municipality },
  });
  return data.createProducer.id;
}

/** The first error of a response, as the fields the tests compare. */
export function errorOf(res: { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }) {
  expect(res.errors?.length).toBeGreaterThan(0);
  const e = res.errors![0];
  return { code: e.extensions?.code, field: e.extensions?.field, reason: e.extensions?.reason, message: e.message };
}
