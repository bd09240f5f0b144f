import { startTestApi, TestApi } from '../support/api';
import { createProducer, insertContract, insertFarmer, insertOrganization, MUNICIPALITIES, newCnpj } from './records-b.fixtures';

/**
 * A nested query costs one SQL statement per relation and level, whatever the number of rows:
 * the same count for 2 producers × 2 purchases as for 20 × 10 (per-request DataLoaders; the
 * purchases of every producer of the page come in one statement, their counts in another).
 * This is graphql-js execution, which answers whatever the compiled reads do not (those answer
 * each root field in one statement: test/e2e/compiled-reads.test.ts).
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ compiledReads: false });
  await api.ok(`mutation($m: [MunicipalityInput!]!) { upsertMunicipalities(input: $m) { ibgeCode } }`, {
    m: [...MUNICIPALITIES, { ibgeCode: '2611101', name: 'Petrolina', semiarid: true }],
  });
});
afterAll(async () => { await api.close(); });

// Plants in Recife; raw material from Porto Alegre or Feira de Santana; farmers live in Petrolina:
// each level asks the municipality loader for codes it has not seen yet, in both data sets.
const PLANT = '2611606';
const ORIGINS = ['4314902', '2910800'];
const FARMERS_HOME = '2611101';

const NESTED = `{
  producers(first: 100) {
    totalCount
    edges { node {
      id legalName plantMunicipality { ibgeCode }
      sales(first: 5) { totalCount }
      contracts { totalCount edges { node { id } } }
      purchases(first: 10) {
        totalCount
        pageInfo { hasNextPage endCursor }
        edges { node {
          id quantityKg cost supplierKind
          originMunicipality { ibgeCode priorityRegion }
          familyFarmer { id name municipality { ibgeCode semiarid } }
          organization { id kind municipality { ibgeCode } }
          contract { id producer { id } familyFarmer { id } }
          producer { id }
        } }
      }
    } }
  }
}`;

/** Producers with `perProducer` purchases each, from distinct farmers under a contract, recorded in one batch. */
async function addWorld(producers: number, perProducer: number): Promise<string[]> {
  const ids: string[] = [];
  for (let p = 0; p < producers; p++) {
    if (p < 2) ids.push(await createProducer(api, `Produtora ${p}`, PLANT));
    else {
      const [row] = await api.db.dataSource.query(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code) VALUES ($1, $2, $3) RETURNING id`, [newCnpj(), `Produtora ${p}`, PLANT]);
      ids.push(String(row.id));
    }
  }
  const cooperative = await insertOrganization(api, 'COOPERATIVE', FARMERS_HOME);
  const input: Record<string, unknown>[] = [];
  for (const producerId of ids) {
    const farmer = await insertFarmer(api, FARMERS_HOME);
    const contractId = await insertContract(api, producerId, farmer);
    for (let i = 0; i < perProducer; i++) {
      input.push(i % 2 === 0
        ? { producerId, purchasedOn: `2025-03-${String(i + 1).padStart(2, '0')}`, feedstock: 'SOYBEAN', quantityKg: String(100 + i), cost: '250.5',
            supplierKind: 'FAMILY_FARMER', familyFarmerId: await insertFarmer(api, FARMERS_HOME), contractId, originMunicipalityCode: ORIGINS[i % 4 === 0 ? 0 : 1] }
        : { producerId, purchasedOn: `2025-03-${String(i + 1).padStart(2, '0')}`, feedstock: 'CASTOR_BEAN', quantityKg: String(100 + i), cost: '90',
            supplierKind: 'COOPERATIVE', organizationId: cooperative, originMunicipalityCode: ORIGINS[1] });
    }
  }
  await api.ok(`mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { id } }`, { input });
  return ids;
}

interface PurchaseNode {
  id: string; quantityKg: string; cost: string | null; supplierKind: string; producer: { id: string };
  familyFarmer: { id: string; municipality: { ibgeCode: string } } | null;
  organization: { id: string; kind: string; municipality: { ibgeCode: string } } | null;
  contract: { id: string; producer: { id: string }; familyFarmer: { id: string } } | null;
}
interface ProducerNode {
  id: string;
  contracts: { totalCount: number };
  purchases: { totalCount: number; pageInfo: { hasNextPage: boolean }; edges: Array<{ node: PurchaseNode }> };
}
interface Nested { producers: { totalCount: number; edges: Array<{ node: ProducerNode }> } }

async function measure(): Promise<{ count: number; statements: string[]; data: Nested }> {
  api.statements.reset();
  const data = await api.ok<Nested>(NESTED);
  return { count: api.statements.count, statements: [...api.statements.statements], data };
}

test('producers → purchases → familyFarmer → municipality (and originMunicipality, organization, contract): the same number of statements for 2 × 2 and 20 × 10', async () => {
  const small = await addWorld(2, 2);
  const a = await measure();
  expect(a.data.producers.totalCount).toBe(2);
  for (const edge of a.data.producers.edges) {
    expect(edge.node.purchases.totalCount).toBe(2);
    expect(edge.node.purchases.edges).toHaveLength(2);
    expect(edge.node.purchases.edges.every((e) => e.node.producer.id === edge.node.id)).toBe(true);
  }
  expect(a.data.producers.edges.map((e) => e.node.id)).toEqual(small);

  await api.db.dataSource.query('DELETE FROM audit_entry');
  await api.db.dataSource.query('DELETE FROM purchase');
  await api.db.dataSource.query('DELETE FROM contract');
  await api.db.dataSource.query('DELETE FROM producer');
  const large = await addWorld(20, 10);
  const b = await measure();
  expect(b.data.producers.totalCount).toBe(20);
  expect(b.data.producers.edges.map((e) => e.node.id)).toEqual(large);
  for (const edge of b.data.producers.edges) {
    const page = edge.node.purchases;
    expect(page.totalCount).toBe(10);
    expect(page.edges).toHaveLength(10);
    expect(page.pageInfo.hasNextPage).toBe(false);
    expect(page.edges.map((e) => e.node.quantityKg)).toEqual(['100.000', '101.000', '102.000', '103.000', '104.000', '105.000', '106.000', '107.000', '108.000', '109.000']);
    expect(page.edges[0].node).toMatchObject({ cost: '250.50', supplierKind: 'FAMILY_FARMER', originMunicipality: { ibgeCode: '4314902', priorityRegion: false } });
    expect(page.edges[1].node).toMatchObject({ cost: '90.00', supplierKind: 'COOPERATIVE', contract: null, originMunicipality: { ibgeCode: '2910800', priorityRegion: true } });
    expect(page.edges[0].node.contract?.producer.id).toBe(edge.node.id);
    expect(page.edges[0].node.familyFarmer?.municipality.ibgeCode).toBe(FARMERS_HOME);
    expect(page.edges[0].node.organization).toBeNull();
    expect(page.edges[1].node.familyFarmer).toBeNull();
    expect(page.edges[1].node.organization).toMatchObject({ kind: 'COOPERATIVE', municipality: { ibgeCode: FARMERS_HOME } });
    // Each family-farmer lot came from a farmer of its own.
    const farmers = page.edges.flatMap((e) => (e.node.familyFarmer ? [e.node.familyFarmer.id] : []));
    expect(new Set(farmers).size).toBe(5);
    expect(edge.node.contracts.totalCount).toBe(1);
  }

  expect(b.count).toBe(a.count);
  // The purchases of all 20 producers come in one statement, their totals in one grouped statement.
  const purchaseReads = b.statements.filter((s) => /FROM "purchase"/.test(s) && /LATERAL/.test(s));
  expect(purchaseReads).toHaveLength(1);
  expect(b.statements.filter((s) => /FROM purchase\s+WHERE producer_id = ANY/.test(s) && /GROUP BY producer_id/.test(s))).toHaveLength(1);
  // And nothing is asked once per producer or per purchase.
  expect(b.count).toBeLessThan(20);
});

test('under producers, each producer gets its own first N purchases and its own totalCount', async () => {
  const data = await api.ok<{ producers: { edges: Array<{ node: { id: string; purchases: { totalCount: number; pageInfo: { hasNextPage: boolean }; edges: Array<{ node: { producer: { id: string }; quantityKg: string } }> } } }> } }>(
    `{ producers(first: 100) { edges { node { id purchases(first: 3, from: "2025-03-02") {
        totalCount pageInfo { hasNextPage } edges { node { quantityKg producer { id } } } } } } } }`,
  );
  expect(data.producers.edges).toHaveLength(20);
  for (const { node } of data.producers.edges) {
    // Purchases i = 1..9 were consumed on 2025-03-(i + 1): nine from the 2nd on.
    expect(node.purchases.totalCount).toBe(9);
    expect(node.purchases.pageInfo.hasNextPage).toBe(true);
    expect(node.purchases.edges.map((e) => e.node.quantityKg)).toEqual(['101.000', '102.000', '103.000']);
    expect(node.purchases.edges.every((e) => e.node.producer.id === node.id)).toBe(true);
  }
});
