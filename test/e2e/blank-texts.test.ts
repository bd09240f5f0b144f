import { startTestApi, TestApi } from '../support/api';
import { createProducer, FEIRA, newCpf, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { writtenRows } from '../support/hostile-files';

/**
 * A text that shows nothing is blank: only whitespace (Unicode White_Space) and invisible format
 * characters (Cf: U+200B, U+2060, U+FEFF, the soft hyphen), alike over GraphQL and in an import.
 */
let api: TestApi;
let producerId: string;

const CREATE_FARMER = 'mutation($input: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $input) { id name } }';
const INVISIBLE = ['\u200B\u200B', '\u00A0\u2060\uFEFF \u3000', '\u00AD'];

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, FEIRA]);
  producerId = await createProducer(api, 'Usina Nomes');
});
afterAll(() => api?.close());

async function importFarmers(csv: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${api.url.replace(/\/graphql$/, '')}/import/farmers`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', authorization: `Bearer ${await api.token()}` },
    body: csv,
  });
  return { status: res.status, body: await res.json() };
}

describe('a name made only of whitespace and zero-width characters', () => {
  it('is refused as empty by createFamilyFarmer, naming the field, and writes nothing', async () => {
    const before = await writtenRows(api.db.dataSource);
    for (const name of INVISIBLE) {
      const res = await api.gql(CREATE_FARMER, { input: { cpf: newCpf(), name, municipalityCode: FEIRA, registrations: [] } });
      expect([JSON.stringify(name), res.errors?.[0].extensions?.code, res.errors?.[0].extensions?.field, res.errors?.[0].message])
        .toEqual([JSON.stringify(name), 'BAD_USER_INPUT', 'input.name', 'input.name must not be empty']);
    }
    expect(await writtenRows(api.db.dataSource)).toEqual(before);
  });

  it('is refused as empty by the farmers import over HTTP, at its line and column', async () => {
    const before = await writtenRows(api.db.dataSource);
    const answer = await importFarmers(`cpf,name,municipalityCode\n${newCpf()},Ana Souza,${FEIRA}\n${newCpf()},\u200B\u200B,${FEIRA}\n${newCpf()},\u00AD,${FEIRA}\n`);
    expect([answer.status, answer.body.error?.code, answer.body.error?.problemCount]).toEqual([400, 'BAD_USER_INPUT', 2]);
    expect(answer.body.error.problems.map((p: { line: number; column: string; messageKey: string }) => [p.line, p.column, p.messageKey]))
      .toEqual([[3, 'name', 'input.empty'], [4, 'name', 'input.empty']]);
    expect(await writtenRows(api.db.dataSource)).toEqual(before);
  });

  it('is refused for a municipality too, and an optional text of them counts as not given', async () => {
    const res = await api.gql('mutation($i: [MunicipalityInput!]!) { upsertMunicipalities(input: $i) { ibgeCode } }', { i: [{ ibgeCode: RECIFE, name: '\u200B', semiarid: false }] });
    expect([res.errors?.[0].extensions?.code, res.errors?.[0].extensions?.field]).toEqual(['BAD_USER_INPUT', 'input[0].name']);
    const purchase = { purchasedOn: '2026-03-02', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista Alfa', originMunicipalityCode: RECIFE };
    const record = (overrides: Record<string, unknown>) => api.gql(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [{ producerId, ...purchase, ...overrides }] });
    const noExternalId = await record({ externalId: '\u200B' });
    expect([noExternalId.errors?.[0].extensions?.field, noExternalId.errors?.[0].message]).toEqual(['input[0].externalId', 'externalId must not be blank']);
    const noSupplier = await record({ supplierName: '\u2060\u200B' });
    expect([noSupplier.errors?.[0].extensions?.field, noSupplier.errors?.[0].message]).toEqual(['input[0].supplierName', 'supplierKind THIRD_PARTY needs supplierName']);
  });

  it('while a name with something visible between them is taken as written', async () => {
    const { createFamilyFarmer } = await api.ok(CREATE_FARMER, { input: { cpf: newCpf(), name: ' Ana\u200BSouza ', municipalityCode: FEIRA, registrations: [] } });
    expect(createFamilyFarmer.name).toBe('Ana\u200BSouza');
    const answer = await importFarmers(`cpf,name,municipalityCode\n${newCpf()},\u200BJoão,${FEIRA}\n`);
    expect([answer.status, answer.body.import?.rows]).toEqual([200, 1]);
  });
});
