import { startTestApi, TestApi } from '../support/api';
import { createProducer, grantSeal, newCnpj, newCpf, PORTO_ALEGRE, RECIFE, upsertMunicipalities, publishMemberMinimum } from '../support/fixtures';

/**
 * The computed fields inside a compiled page are resolved for all its rows together: the same
 * number of statements for a page of 2 rows as for a page of 20 (each field batched per page,
 * never once per row), and each row's answer the one its row gets alone.
 */

let api: TestApi;
const producers: string[] = [];
const organizations: string[] = [];

async function seed(i: number) {
  const id = await createProducer(api, `Usina ${i}`, RECIFE);
  producers.push(id);
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2025-11-03' } });
  await grantSeal(api, id);
  const farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
    i: { cpf: newCpf(), name: `Agricultora ${i}`, municipalityCode: PORTO_ALEGRE, registrations: [{ kind: 'CAF', number: `CAF-F${i}`, validFrom: '2024-01-01', validUntil: i % 3 ? '2027-12-31' : '2026-02-01' }] },
  })).createFamilyFarmer.id;
  // art. 4º VI: 50 of 100 family-farmer members is below the minimum share of 0,6; 80 is above.
  const org = (await api.ok(`mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }`, {
    i: { cnpj: newCnpj(), name: `Cooperativa ${i}`, kind: 'COOPERATIVE', municipalityCode: RECIFE, members: 100, familyFarmerMembers: i % 2 ? 80 : 50, registrations: [{ kind: 'CAF', number: `CAF-J${i}`, validFrom: '2024-01-01', validUntil: '2027-12-31' }] },
  })).createOrganization.id;
  organizations.push(org);
  const contract = (await api.ok(`mutation($i: CreateContractInput!) { createContract(input: $i) { id } }`, { i: {
    producerId: id, familyFarmerId: farmer, signedOn: '2026-01-05', validFrom: '2026-01-05', validUntil: '2026-12-31', feedstock: 'SOYBEAN',
    quantityKg: '100000', pricePerKg: i % 4 ? '3.00' : '0.01', technicalAssistance: true,
  } })).createContract.id;
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    { producerId: id, purchasedOn: '2026-03-02', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '3000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer, contractId: contract, originMunicipalityCode: PORTO_ALEGRE },
    { producerId: id, purchasedOn: '2026-03-03', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500', supplierKind: 'COOPERATIVE', organizationId: org, originMunicipalityCode: RECIFE },
    { producerId: id, purchasedOn: '2026-03-04', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading Grãos SA', originMunicipalityCode: RECIFE },
  ] });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId: id, soldOn: '2026-03-05', volumeM3: `${10 + i}`, revenue: `${100000 + i}`, origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }] });
}

beforeAll(async () => {
  api = await startTestApi();
  await publishMemberMinimum(api);
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE]);
  for (let i = 0; i < 20; i++) await seed(i);
}, 120_000);
afterAll(async () => { await api?.close(); });

/** Each computed field, as selected on a producer (or an organization) of a page. */
const FIELDS: Record<string, { root: 'producer' | 'organization'; select: string; most: number }> = {
  'Producer.sealCompliance': { root: 'producer', select: 'id sealCompliance(year: 2026) { compliant base achievedShare actualTotal countedTotal excluded { id source amount findings { code } } }', most: 18 },
  // SealCompliance.countedItems: the year's statements and one more for the counted rows of every year of the page.
  'SealCompliance.countedItems': { root: 'producer', select: 'id sealCompliance(year: 2026) { countedItems(first: 5) { totalCount items { id source actual weighted } } }', most: 19 },
  'Purchase.selo': { root: 'producer', select: 'id purchases(first: 5) { edges { node { id selo { counts actual findings { code } } } } }', most: 9 },
  'Purchase.familyFarmingOrigin': { root: 'producer', select: 'id purchases(first: 5) { edges { node { id familyFarmingOrigin familyFarmingFindings { code } } } }', most: 4 },
  'Contract.conformity': { root: 'producer', select: 'id contracts(first: 5) { edges { node { id conformity { conforming findings { code } } } } }', most: 4 },
  'Organization.habilitation': { root: 'organization', select: 'id habilitation(on: "2026-03-03") { habilitated findings { code } }', most: 4 },
};
const page = (f: { root: string; select: string }, n: number) => `{ ${f.root}s(first: ${n}) { edges { node { ${f.select} } } } }`;
const alone = (f: { root: string; select: string }) => `query($id: ID!) { ${f.root}(id: $id) { ${f.select} } }`;

async function counted(query: string) {
  await api.ok(query); // the law book is loaded once, then cached
  api.statements.reset();
  const data = await api.ok(query);
  return { data, statements: api.statements.count };
}

test.each(Object.keys(FIELDS))('%s: one page of 20 rows in as many statements as a page of 2, each row as it is alone', async (name) => {
  const f = FIELDS[name];
  const small = await counted(page(f, 2));
  const big = await counted(page(f, 20));
  expect(big.statements).toBe(small.statements);
  expect(big.statements).toBeLessThanOrEqual(f.most);
  const rows = big.data[`${f.root}s`].edges.map((e: any) => e.node);
  expect(rows.map((r: any) => r.id)).toEqual(f.root === 'producer' ? producers : organizations);
  for (const row of rows) expect(row).toEqual((await api.ok(alone(f), { id: row.id }))[f.root]);
  // The rows' answers differ (expired CAF, member share below the minimum, price below the minimum).
  expect(new Set(rows.map((r: any) => JSON.stringify({ ...r, id: undefined }))).size).toBeGreaterThan(1);
});
