import { Role } from '../../src/law/types';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, grantSeal, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * Messages in the caller's language (Accept-Language): Brazilian Portuguese for `pt-BR` (and any
 * Portuguese), English otherwise; codes never change.
 */
let api: TestApi;
let producerId: string;
const PT = { 'accept-language': 'pt-BR' };

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producerId = await createProducer(api, 'Usina Idiomas');
});
afterAll(() => api.close());

const RECORD = `mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { id } }`;
const purchase = (quantityKg: string) => ({
  producerId: '0', purchasedOn: '2026-03-02', feedstock: 'SOYBEAN', quantityKg, cost: '10.00', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista', originMunicipalityCode: RECIFE,
});

describe('Accept-Language', () => {
  test('a use case error: pt-BR in Portuguese, English by default, the same code and field', async () => {
    const input = [{ ...purchase('0'), producerId }];
    const pt = await api.gql(RECORD, { input }, undefined, PT);
    const en = await api.gql(RECORD, { input });
    expect(pt.errors![0]).toMatchObject({ message: 'input[0].quantityKg deve ser maior que zero', extensions: { code: 'BAD_USER_INPUT', field: 'input[0].quantityKg' } });
    expect(en.errors![0]).toMatchObject({ message: 'input[0].quantityKg must be greater than zero', extensions: { code: 'BAD_USER_INPUT', field: 'input[0].quantityKg' } });
  });

  test('an error raised with its English text is recognised against the catalogue and translated', async () => {
    const res = await api.gql(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 13) { totalDue } }`, { p: producerId }, undefined, PT);
    expect(res.errors![0]).toMatchObject({ message: 'month deve estar entre 1 e 12', extensions: { code: 'BAD_USER_INPUT', field: 'month' } });
  });

  test('q-values are weighed; any Portuguese is pt-BR; an unknown language is English', async () => {
    const q = `query { taxPeriod(producerId: "999999", year: 2026, month: 3) { totalDue } }`;
    const message = async (lang: string) => (await api.gql(q, {}, undefined, { 'accept-language': lang })).errors![0].message;
    expect(await message('en;q=0.4, pt-BR;q=0.9')).toBe('Produtor 999999 não encontrado');
    expect(await message('pt')).toBe('Produtor 999999 não encontrado');
    expect(await message('pt-PT,pt;q=0.8')).toBe('Produtor 999999 não encontrado');
    expect(await message('pt-BR;q=0.2, en;q=0.9')).toBe('Producer 999999 not found');
    expect(await message('de-DE')).toBe('Producer 999999 not found');
  });

  test('a finding: its description in Portuguese, its code and legal basis unchanged', async () => {
    const q = `query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) { warnings { code message legalBasis } } }`;
    const pt = await api.gql(q, { p: producerId }, undefined, PT);
    const en = await api.gql(q, { p: producerId });
    expect(pt.data!.taxPeriod.warnings).toEqual([{ code: 'NO_REGIME_ELECTION', legalBasis: 'Lei 11.116/2005, arts. 3º and 4º', message: 'Nenhuma opção registrada rege o ano (nenhuma feita, ou nenhuma ainda em vigor): apurado ad valorem.' }]);
    expect(en.data!.taxPeriod.warnings[0].message).toBe('No election on record governs the year (none made, or none effective yet): computed ad valorem.');
  });

  test('a finding with the details of its case is translated with them', async () => {
    const other = await createProducer(api, 'Usina Selo Vencido');
    const grantId = await grantSeal(api, other, '2026-01-31');
    const q = `query($p: ID!) { producer(id: $p) { sealStanding(on: "2026-03-02") { regular reason { code message } } } }`;
    const pt = await api.gql(q, { p: other }, undefined, PT);
    const en = await api.gql(q, { p: other });
    expect(pt.data!.producer.sealStanding.reason).toEqual({ code: 'SEAL_EXPIRED', message: `A concessão do Selo ${grantId} venceu em 2026-01-31.` });
    expect(en.data!.producer.sealStanding.reason).toEqual({ code: 'SEAL_EXPIRED', message: `Selo grant ${grantId} expired on 2026-01-31.` });
  });

  test("graphql-js's own messages, and our scalars' inside them, in Portuguese", async () => {
    const typo = await api.gql(`query { producers { edges { node { nme } } } }`, {}, undefined, PT);
    expect(typo.status).toBe(400);
    expect(typo.errors![0]).toMatchObject({ message: 'Não é possível consultar o campo "nme" no tipo "Producer".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const float = await api.gql(RECORD, { input: [{ ...purchase('1'), producerId, cost: 10.5 }] }, undefined, PT);
    expect(float.errors![0].message).toBe('A variável "$input" recebeu o valor inválido 10.5 em "input[0].cost"; Decimal deve ser um texto (ou um inteiro): um número de ponto flutuante binário não representa reais com exatidão');
    expect(float.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
  });

  test('no token, and a refused role, in Portuguese', async () => {
    const none = await api.gql(`query { producers { totalCount } }`, {}, null, PT);
    expect(none.status).toBe(401);
    expect(none.errors![0]).toMatchObject({ message: 'É necessário o cabeçalho Authorization: Bearer <token>', extensions: { code: 'UNAUTHENTICATED' } });
    const auditor = await api.gql(RECORD, { input: [{ ...purchase('1'), producerId }] }, { role: Role.AUDITOR }, PT);
    expect(auditor.errors![0]).toMatchObject({ message: 'AUDITOR lê tudo e não grava nada', extensions: { code: 'FORBIDDEN' } });
  });

  test('a CSV import refused over HTTP, in Portuguese', async () => {
    const res = await fetch(api.url.replace('/graphql', `/import/purchases?producer=${producerId}`), {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${await api.token()}`, 'accept-language': 'pt-BR' },
      body: 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode\n2026-03-02,SOYBEAN,0,10.00,THIRD_PARTY,Cerealista,2611606\n',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toMatchObject({ code: 'BAD_USER_INPUT', line: 2, column: 'quantityKg', message: 'linha 2, coluna quantityKg: deve ser maior que zero' });
  });
});
