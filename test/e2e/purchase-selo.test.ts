import { startTestApi, TestApi } from '../support/api';
import { createProducer, PORTO_ALEGRE, RECIFE } from '../support/fixtures';
import { contract, farmer, nordesteYear, PurchaseSpec, purchases, setUpSeloYear } from '../support/selo-year';

/**
 * Purchase.selo: whether one purchase counts for the Selo targets of its year (Decreto 10.527/2020,
 * art. 3º §2 I–III) and every reason it does not, which must be exactly what sealCompliance.excluded
 * says for that purchase id. Expected reasons worked out by hand from the law: a contract signed
 * before the purchase, covering its date, feedstock and counterparty (II), price per kg at or above
 * the PGPAF minimum in force on the signing date (Decreto 5.996/2006; R$ 2,40 here), technical
 * assistance (III); a supplier with a DAP/CAF valid on the date (art. 2º IV–V), an organization with
 * at least 60% of family-farmer members (art. 4º VI, seeded 0,6); (b) other products only from the
 * North, Northeast or Semiárido (art. 3º §2 I b); a DAP starting after 2022-10-31 is flagged
 * (Portaria MAPA 174/2022).
 */

let api: TestApi;
const KNOWN = '2026-11-30';

const SELO = `query($id: ID!, $k: Date) { purchase(id: $id) { id selo(asKnownOn: $k) { year asKnownOn counts kind priorityRegion findings { code legalBasis } } } }`;
const selo = async (id: string, k: string | null = KNOWN) => (await api.ok(SELO, { id, k })).purchase.selo;
const excludedOf = async (p: string, year: number) => new Map<string, string[]>(((await api.ok(
  `query($p: ID!, $y: Int!, $k: Date) { sealCompliance(producerId: $p, year: $y, asKnownOn: $k) { excluded { id source findings { code } } } }`, { p, y: year, k: KNOWN },
)).sealCompliance.excluded as any[]).filter((e) => e.source === 'PURCHASE').map((e) => [e.id, e.findings.map((f: { code: string }) => f.code)]));

let eligibleFarmer: string;
beforeAll(async () => {
  api = await startTestApi();
  eligibleFarmer = await setUpSeloYear(api);
});
afterAll(async () => { await api.close(); });

describe('Purchase.selo agrees with sealCompliance.excluded, reason by reason', () => {
  let p: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    p = await createProducer(api, 'Usina Selo', RECIFE);
    Object.assign(ids, await nordesteYear(api, p, eligibleFarmer));
  });

  test('each exclusion reason: the same findings as sealCompliance.excluded for the purchase id, and those the law gives', async () => {
    const excluded = await excludedOf(p, 2025);
    const expected: Record<string, string[]> = {
      bSouth: ['OUTSIDE_PRIORITY_REGION'], //                          art. 3º §2 I b: other product from the Sul
      noContract: ['NO_CONTRACT'], //                                 art. 3º §2 II
      signedAfter: ['NO_PRIOR_CONTRACT'], //                          II: signed 2025-06-01, after the purchase of 05-15
      dateNotCovered: ['CONTRACT_NOT_COVERING'], //                   the contract ended 2025-02-28
      feedstockNotCovered: ['CONTRACT_NOT_COVERING'], //              castor under a soybean contract
      priceBelow: ['PRICE_BELOW_MINIMUM'], //                         2,39 < PGPAF 2,40 (Decreto 5.996/2006)
      expiredDap: ['SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID'], // DAP ended 2024-12-31 (art. 2º IV)
      lowShare: ['SUPPLIER_NOT_ELIGIBLE', 'MEMBER_SHARE_BELOW_MINIMUM'], // 59% < 60% (art. 4º VI)
      unregistered: ['SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID'], // no DAP/CAF jurídica (art. 4º VII)
      lateDap: ['NO_CONTRACT', 'DAP_ISSUED_AFTER_CUTOFF'], //          DAP from 2022-11-01 (Portaria MAPA 174/2022)
    };
    expect(excluded.size).toBe(Object.keys(expected).length);
    for (const [name, codes] of Object.entries(expected)) {
      const s = await selo(ids[name]);
      expect([name, s.year, s.asKnownOn, s.counts, s.findings.map((f: { code: string }) => f.code)]).toEqual([name, 2025, KNOWN, false, codes]);
      expect([name, excluded.get(ids[name])]).toEqual([name, codes]);
      for (const f of s.findings) expect(f.legalBasis).toBeTruthy();
    }
    expect((await selo(ids.bSouth)).kind).toBe('OTHER_PRODUCT');
    expect((await selo(ids.noContract)).kind).toBe('FAMILY_FARMING_ACQUISITION');
  });

  test('counting purchases say they count, with their kind and whether they are priority-region spending; none is in excluded', async () => {
    const excluded = await excludedOf(p, 2025);
    const rows: Array<[string, string, boolean]> = [
      ['aSouthOrigin', 'FAMILY_FARMING_ACQUISITION', false], // (a) raw material produced in Porto Alegre (Sul)
      ['aRecife', 'FAMILY_FARMING_ACQUISITION', true], //       (a) produced in Recife (Nordeste)
      ['bRecife', 'OTHER_PRODUCT', true], //                    (b) from Recife
      ['association', 'FAMILY_FARMING_ACQUISITION', true], //   (a) a habilitated association (art. 2º V), origin Recife
      ['noTa', 'FAMILY_FARMING_ACQUISITION', true], //          from 2024 technical assistance is the producer's obligation (art. 3º §2 III)
    ];
    for (const [name, kind, priorityRegion] of rows) {
      expect([name, await selo(ids[name])]).toEqual([name, { year: 2025, asKnownOn: KNOWN, counts: true, kind, priorityRegion, findings: [] }]);
      expect(excluded.has(ids[name])).toBe(false);
    }
    // Each with the factors the year's compliance weighs it by (Portaria MDA nº 28/2024).
    const W = `query($id: ID!) { purchase(id: $id) { selo(asKnownOn: "${KNOWN}") { model actual factors { alinea value } weight weighted warnings { code } } } }`;
    const weighed = async (name: string) => (await api.ok(W, { id: ids[name] })).purchase.selo;
    expect(await weighed('aSouthOrigin')).toEqual({ model: 'WEIGHTED', actual: '50000.00', factors: [], weight: '1', weighted: '50000.00', warnings: [] });
    expect(await weighed('bRecife')).toEqual({ model: 'WEIGHTED', actual: '20000.00', factors: [{ alinea: 'd', value: '4' }, { alinea: 'f', value: '2' }], weight: '8', weighted: '160000.00', warnings: [] });
    expect(await weighed('association')).toEqual({
      model: 'WEIGHTED', actual: '5000.00', factors: [{ alinea: 'a', value: null }, { alinea: 'd', value: '4' }], weight: null, weighted: null, warnings: [{ code: 'WEIGHTING_FACTOR_NOT_PUBLISHED' }],
    });
    // R$ 1.500 for 1.000 kg of soybeans: R$ 1,50/kg, below the PGPAF R$ 2,40 in force on its date.
    expect(await weighed('noTa')).toEqual({ model: 'WEIGHTED', actual: '1500.00', factors: [{ alinea: 'd', value: '4' }], weight: '4', weighted: '6000.00', warnings: [{ code: 'PURCHASE_BELOW_MINIMUM_PRICE' }] });
    // The flat model (2025 as known before Portaria MDA nº 28/2024): factor 1, no factors by alínea; technical assistance
    // is the producer's obligation there too (art. 3º §2º III; docs/LAW.md): the purchase counts, the year names the contract.
    const flat = (await api.ok(`query($id: ID!) { purchase(id: $id) { selo(asKnownOn: "2024-06-27") { model counts weight weighted factors { alinea } findings { code } } } }`, { id: ids.noTa })).purchase.selo;
    expect(flat).toEqual({ model: 'FLAT', counts: true, weight: '1', weighted: '1500.00', factors: [], findings: [] });
    expect((await api.ok(`query($id: ID!) { purchase(id: $id) { selo(asKnownOn: "2024-06-27") { model counts weight weighted } } }`, { id: ids.aRecife })).purchase.selo)
      .toEqual({ model: 'FLAT', counts: true, weight: '1', weighted: '30000.00' });
  });

  test('a third-party purchase is not family-farming spending: null; a purchase of 2024 is judged for 2024', async () => {
    expect(await selo(ids.thirdParty)).toBeNull();
    const last = await selo(ids.lastYear);
    expect([last.year, last.counts, last.findings.map((f: { code: string }) => f.code)]).toEqual([2024, false, ['NO_CONTRACT']]);
    expect((await excludedOf(p, 2024)).get(ids.lastYear)).toEqual(['NO_CONTRACT']);
  });

  test('asKnownOn before the PGPAF price was published (2024-12-20): the price condition does not apply yet', async () => {
    // As known on 2024-12-19 no minimum price is in force for the signing date: kCheap conforms (docs/LAW.md).
    const s = await selo(ids.priceBelow, '2024-12-19');
    expect([s.asKnownOn, s.counts, s.findings]).toEqual(['2024-12-19', true, []]);
  });

  test('a PRODUCER sees the status of its own purchase; another producer gets NOT_FOUND', async () => {
    const own = await api.ok(SELO, { id: ids.noContract, k: KNOWN }, { role: 'PRODUCER', producerId: p });
    expect(own.purchase.selo.findings.map((f: { code: string }) => f.code)).toEqual(['NO_CONTRACT']);
    const other = await createProducer(api, 'Usina Selo', PORTO_ALEGRE);
    const res = await api.gql(SELO, { id: ids.noContract, k: KNOWN }, { role: 'PRODUCER', producerId: other });
    expect(res.data?.purchase ?? null).toBeNull();
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('a contract over two years (art. 3º §2 II): the first purchase it covers, as the year finds it', () => {
  test('covered first in 2024 before its signing: the 2025 purchase counts in both models, the 2024 one is NO_PRIOR_CONTRACT, in Purchase.selo as in sealCompliance', async () => {
    const p = await createProducer(api, 'Usina Selo Bianual', RECIFE);
    const k = await contract(api, p, { farmer: eligibleFarmer, signedOn: '2024-07-01', validFrom: '2024-06-01', validUntil: '2025-12-31' });
    const [early, later] = await purchases(api, p, [
      { on: '2024-06-15', cost: '2000', farmer: eligibleFarmer, contract: k },
      { on: '2025-03-01', cost: '3000', farmer: eligibleFarmer, contract: k },
    ]);
    const codes = (s: { findings: Array<{ code: string }> }) => s.findings.map((f) => f.code);
    // Flat (2025 as known on 2024-06-27), judged per acquisition too (art. 3º §2º II; docs/LAW.md): 2025-03-01 is after the signing.
    const flat = await selo(later, '2024-06-27');
    expect([flat.year, flat.counts, codes(flat)]).toEqual([2025, true, []]);
    const flatYear = (await api.ok(`query($p: ID!) { sealCompliance(producerId: $p, year: 2025, asKnownOn: "2024-06-27") { excluded { id findings { code } } } }`, { p })).sealCompliance;
    expect(flatYear.excluded).toEqual([]);
    expect(codes(await selo(early, '2024-06-27'))).toEqual(['NO_PRIOR_CONTRACT']);
    // Weighted (from 2024 judged per acquisition): 2025-03-01 is after the signing and counts; 2024-06-15 does not.
    expect(await selo(later)).toEqual({ year: 2025, asKnownOn: KNOWN, counts: true, kind: 'FAMILY_FARMING_ACQUISITION', priorityRegion: true, findings: [] });
    expect(codes(await selo(early))).toEqual(['NO_PRIOR_CONTRACT']);
    expect((await excludedOf(p, 2024)).get(early)).toEqual(['NO_PRIOR_CONTRACT']);
    expect((await excludedOf(p, 2025)).has(later)).toBe(false);
  });
});

describe('a page of purchases costs the same statements for 2 and 20 rows', () => {
  test('Producer.purchases(first: 2 | 20) { selo }: same statement count; every row answered', async () => {
    const p = await createProducer(api, 'Usina Selo', RECIFE);
    const k = await contract(api, p, { farmer: eligibleFarmer });
    const otherFarmer = await farmer(api, [['DAP', '2021-01-01', '2024-06-30']]);
    const specs: PurchaseSpec[] = [];
    for (let i = 0; i < 20; i++) {
      // Alternately: under the conforming contract (counts), without contract (NO_CONTRACT), from a farmer whose DAP ended.
      const day = `2025-02-${String(i + 1).padStart(2, '0')}`;
      specs.push(i % 3 === 0 ? { on: day, cost: '100', farmer: eligibleFarmer, contract: k } : i % 3 === 1 ? { on: day, cost: '100', farmer: eligibleFarmer } : { on: day, cost: '100', farmer: otherFarmer });
    }
    await purchases(api, p, specs);
    const page = (n: number) => `query($p: ID!) { producer(id: $p) { purchases(first: ${n}) { edges { node { id selo(asKnownOn: "${KNOWN}") { counts findings { code } } } } } } }`;
    const measure = async (n: number) => {
      api.statements.reset();
      const d = await api.ok(page(n), { p });
      return { statements: api.statements.statements.length, nodes: d.producer.purchases.edges.map((e: any) => e.node) };
    };
    await measure(2); // warm the law book cache
    const two = await measure(2);
    const twenty = await measure(20);
    expect(twenty.nodes).toHaveLength(20);
    expect(twenty.statements).toBe(two.statements);
    // The page itself, then the purchases' facts, the contracts with the first purchase each covers, the minimum prices.
    expect(twenty.statements).toBeLessThanOrEqual(8);
    const codes = twenty.nodes.map((n: any) => n.selo.findings.map((f: { code: string }) => f.code).join('+'));
    expect(new Set(codes)).toEqual(new Set(['', 'NO_CONTRACT', 'NO_CONTRACT+SUPPLIER_NOT_ELIGIBLE+REGISTRATION_NOT_VALID']));
    expect(twenty.nodes.filter((n: any) => n.selo.counts)).toHaveLength(7); // i = 0, 3, …, 18
  });
});
