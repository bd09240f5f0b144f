import { startTestApi, TestApi } from '../support/api';
import { createProducer, errorOf, loadMunicipalities } from './records-a.fixtures';

let api: TestApi;
let alfa: string;
let beta: string;

beforeAll(async () => {
  api = await startTestApi();
  await loadMunicipalities(api);
  alfa = await createProducer(api, 'Biodiesel Alfa S.A.');
  beta = await createProducer(api, 'Biodiesel Beta Ltda', '4314902');
});
afterAll(async () => { await api.close(); });

const GRANT_FIELDS = `id grantedOn validUntil act producer { id legalName } events { kind effectiveOn reason validUntil }`;
const GRANT = `mutation($input: GrantSealInput!) { grantSeal(input: $input) { ${GRANT_FIELDS} } }`;
const EVENT = `mutation($input: SealEventInput!) { recordSealEvent(input: $input) { ${GRANT_FIELDS} } }`;
const ELECT = `mutation($input: ElectRegimeInput!) { electRegime(input: $input) { regime electedOn startingActivity effectiveYear findings { code legalBasis } } }`;

const sealRows = async () => ({
  grants: await api.count('SELECT count(*) FROM seal_grant'),
  events: await api.count('SELECT count(*) FROM seal_event'),
  audit: await api.count('SELECT count(*) FROM audit_entry'),
});
const elections = () => api.count('SELECT count(*) FROM regime_election');

describe('grantSeal and recordSealEvent (Decreto 10.527/2020, art. 4º I, III, V)', () => {
  let grantId: string;

  test('a grant is written and read back through Producer.sealGrants and sealGrant', async () => {
    const before = await sealRows();
    const { grantSeal: g } = await api.ok(GRANT, { input: { producerId: alfa, grantedOn: '2024-01-10', validUntil: '2025-01-09', act: 'Portaria SAF 12/2024' } });
    grantId = g.id;
    expect(g).toEqual({ id: expect.any(String), grantedOn: '2024-01-10', validUntil: '2025-01-09', act: 'Portaria SAF 12/2024', producer: { id: alfa, legalName: 'Biodiesel Alfa S.A.' }, events: [] });
    expect(await sealRows()).toEqual({ ...before, grants: before.grants + 1, audit: before.audit + 1 });
    const [row] = await api.db.dataSource.query(`SELECT producer_id::text, granted_on::text, valid_until::text, act FROM seal_grant WHERE id = $1`, [g.id]);
    expect(row).toEqual({ producer_id: alfa, granted_on: '2024-01-10', valid_until: '2025-01-09', act: 'Portaria SAF 12/2024' });
    const own = await api.ok(`query($id: ID!) { producer(id: $id) { sealGrants { id grantedOn } } }`, { id: alfa }, { role: 'PRODUCER', producerId: alfa });
    expect(own.producer.sealGrants).toEqual([{ id: g.id, grantedOn: '2024-01-10' }]);
    expect((await api.ok(`query($id: ID!) { sealGrant(id: $id) { id validUntil } }`, { id: g.id }, { role: 'AUDITOR' })).sealGrant).toEqual({ id: g.id, validUntil: '2025-01-09' });
  });

  test('suspension, reinstatement and renewal are kept in order on the grant', async () => {
    await api.ok(EVENT, { input: { grantId, kind: 'SUSPENDED', effectiveOn: '2024-06-01', reason: 'fiscalização' } });
    await api.ok(EVENT, { input: { grantId, kind: 'REINSTATED', effectiveOn: '2024-07-01' } });
    const { recordSealEvent: g } = await api.ok(EVENT, { input: { grantId, kind: 'RENEWED', effectiveOn: '2025-01-05', validUntil: '2027-01-09' } });
    expect(g.id).toBe(grantId);
    expect(g.validUntil).toBe('2025-01-09'); // the grant keeps its original end; the renewal carries the new one
    expect(g.events).toEqual([
      { kind: 'SUSPENDED', effectiveOn: '2024-06-01', reason: 'fiscalização', validUntil: null },
      { kind: 'REINSTATED', effectiveOn: '2024-07-01', reason: null, validUntil: null },
      { kind: 'RENEWED', effectiveOn: '2025-01-05', reason: null, validUntil: '2027-01-09' },
    ]);
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'recordSealEvent' AND producer_id = $1`, [alfa])).toBe(3);
  });

  test('a later renewal must end after the current end, which the first renewal moved to 2027-01-09', async () => {
    const before = await sealRows();
    // After the grant's original end (2025-01-09) but not after the renewal's: rejected.
    expect(errorOf(await api.gql(EVENT, { input: { grantId, kind: 'RENEWED', effectiveOn: '2026-12-01', validUntil: '2027-01-09' } })))
      .toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.validUntil' });
    expect(errorOf(await api.gql(EVENT, { input: { grantId, kind: 'RENEWED', effectiveOn: '2026-12-01', validUntil: '2026-06-30' } })))
      .toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.validUntil' });
    expect(await sealRows()).toEqual(before);
    const { recordSealEvent: g } = await api.ok(EVENT, { input: { grantId, kind: 'RENEWED', effectiveOn: '2026-12-01', validUntil: '2027-01-10' } });
    expect(g.events.at(-1)).toEqual({ kind: 'RENEWED', effectiveOn: '2026-12-01', reason: null, validUntil: '2027-01-10' });
  });

  type Case = [name: string, input: () => Record<string, unknown>, expected: { code: string; field?: string }];
  const eventCases: Case[] = [
    ['RENEWED without validUntil', () => ({ grantId, kind: 'RENEWED', effectiveOn: '2026-01-01' }), { code: 'BAD_USER_INPUT', field: 'input.validUntil' }],
    ['SUSPENDED with a validUntil', () => ({ grantId, kind: 'SUSPENDED', effectiveOn: '2026-01-01', validUntil: '2028-01-01' }), { code: 'BAD_USER_INPUT', field: 'input.validUntil' }],
    ['REINSTATED with a validUntil', () => ({ grantId, kind: 'REINSTATED', effectiveOn: '2026-01-01', validUntil: '2028-01-01' }), { code: 'BAD_USER_INPUT', field: 'input.validUntil' }],
    ['CANCELLED with a validUntil', () => ({ grantId, kind: 'CANCELLED', effectiveOn: '2026-01-01', validUntil: '2028-01-01' }), { code: 'BAD_USER_INPUT', field: 'input.validUntil' }],
    ['an event before the grant', () => ({ grantId, kind: 'SUSPENDED', effectiveOn: '2024-01-09' }), { code: 'BAD_USER_INPUT', field: 'input.effectiveOn' }],
    ['an unknown grant', () => ({ grantId: '987654', kind: 'SUSPENDED', effectiveOn: '2026-01-01' }), { code: 'NOT_FOUND' }],
    ['a grant id that is no id', () => ({ grantId: 'abc', kind: 'SUSPENDED', effectiveOn: '2026-01-01' }), { code: 'NOT_FOUND' }],
  ];
  test.each(eventCases)('event %s: rejected, nothing written', async (_name, input, expected) => {
    const before = await sealRows();
    expect(errorOf(await api.gql(EVENT, { input: input() }))).toMatchObject(expected);
    expect(await sealRows()).toEqual(before);
  });

  const grantCases: Case[] = [
    ['validUntil before grantedOn', () => ({ producerId: alfa, grantedOn: '2025-01-10', validUntil: '2025-01-09' }), { code: 'BAD_USER_INPUT', field: 'input.validUntil' }],
    ['an unknown producer', () => ({ producerId: '987654', grantedOn: '2025-01-10', validUntil: '2026-01-09' }), { code: 'NOT_FOUND' }],
    ['an impossible date', () => ({ producerId: alfa, grantedOn: '2025-02-29', validUntil: '2026-01-09' }), { code: 'BAD_USER_INPUT' }],
  ];
  test.each(grantCases)('grant with %s: rejected, nothing written', async (_name, input, expected) => {
    const before = await sealRows();
    expect(errorOf(await api.gql(GRANT, { input: input() }))).toMatchObject(expected);
    expect(await sealRows()).toEqual(before);
  });

  test('grants and events are ADMIN only: a PRODUCER (even its own) and an AUDITOR get FORBIDDEN, nothing written', async () => {
    const before = await sealRows();
    const input = { producerId: alfa, grantedOn: '2027-01-10', validUntil: '2028-01-09' };
    for (const as of [{ role: 'PRODUCER' as const, producerId: alfa }, { role: 'AUDITOR' as const }]) {
      expect(errorOf(await api.gql(GRANT, { input }, as)).code).toBe('FORBIDDEN');
      expect(errorOf(await api.gql(EVENT, { input: { grantId, kind: 'SUSPENDED', effectiveOn: '2026-01-01' } }, as)).code).toBe('FORBIDDEN');
    }
    expect(await sealRows()).toEqual(before);
  });

  test('another producer\'s grants are NOT_FOUND for a PRODUCER', async () => {
    const other = { role: 'PRODUCER' as const, producerId: beta };
    expect(errorOf(await api.gql(`query($id: ID!) { sealGrant(id: $id) { id } }`, { id: grantId }, other)).code).toBe('NOT_FOUND');
    expect(errorOf(await api.gql(`query($p: ID!) { sealGrants(producerId: $p) { id } }`, { p: alfa }, other)).code).toBe('NOT_FOUND');
    expect((await api.ok(`query($p: ID!) { sealGrants(producerId: $p) { id } }`, { p: beta }, other)).sealGrants).toEqual([]);
    expect((await api.ok(`query($p: ID!) { sealGrants(producerId: $p) { id } }`, { p: alfa })).sealGrants).toEqual([{ id: grantId }]);
    expect(errorOf(await api.gql(`{ sealGrants(producerId: "987654") { id } }`)).code).toBe('NOT_FOUND');
  });
});

describe('electRegime (Lei 11.116/2005, art. 4º §§1º, 4º, 5º)', () => {
  test('on the last business day of November (Friday 2025-11-28; the 30th is a Sunday): the next year, 2026 (§1º)', async () => {
    const before = await elections();
    const { electRegime: e } = await api.ok(ELECT, { input: { producerId: alfa, regime: 'SPECIAL_PER_M3', electedOn: '2025-11-28' } });
    expect(e).toEqual({ regime: 'SPECIAL_PER_M3', electedOn: '2025-11-28', startingActivity: false, effectiveYear: 2026, findings: [] });
    expect(await elections()).toBe(before + 1);
    const [row] = await api.db.dataSource.query(`SELECT regime, elected_on::text, starting_activity, effective_year FROM regime_election WHERE producer_id = $1`, [alfa]);
    expect(row).toEqual({ regime: 'SPECIAL_PER_M3', elected_on: '2025-11-28', starting_activity: false, effective_year: 2026 });
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'electRegime' AND producer_id = $1`, [alfa])).toBe(1);
  });

  test('the day after the deadline (Saturday 2025-11-29): from the year after the next, 2027, with ELECTION_AFTER_DEADLINE (§1º)', async () => {
    const { electRegime: e } = await api.ok(ELECT, { input: { producerId: alfa, regime: 'AD_VALOREM', electedOn: '2025-11-29' } }, { role: 'PRODUCER', producerId: alfa });
    expect(e).toEqual({
      regime: 'AD_VALOREM', electedOn: '2025-11-29', startingActivity: false, effectiveYear: 2027,
      findings: [{ code: 'ELECTION_AFTER_DEADLINE', legalBasis: 'Lei 11.116/2005, art. 4º §1º' }],
    });
  });

  test('a company starting activity elects for the current year (§4º)', async () => {
    const { electRegime: e } = await api.ok(ELECT, { input: { producerId: beta, regime: 'SPECIAL_PER_M3', electedOn: '2025-06-10', startingActivity: true } });
    expect(e).toEqual({ regime: 'SPECIAL_PER_M3', electedOn: '2025-06-10', startingActivity: true, effectiveYear: 2025, findings: [] });
  });

  test('a second election for a year already elected: CONFLICT/REGIME_ALREADY_ELECTED, nothing written', async () => {
    const before = await elections();
    const audit = await api.count('SELECT count(*) FROM audit_entry');
    // 2025-03-02 is before the 2025 deadline: it would govern 2026, already elected on 2025-11-28.
    expect(errorOf(await api.gql(ELECT, { input: { producerId: alfa, regime: 'AD_VALOREM', electedOn: '2025-03-02' } })))
      .toMatchObject({ code: 'CONFLICT', reason: 'REGIME_ALREADY_ELECTED', field: 'input.electedOn' });
    // 2024-12-15 is after the 2024 deadline (Friday 2024-11-29): it would govern 2026 as well.
    expect(errorOf(await api.gql(ELECT, { input: { producerId: alfa, regime: 'AD_VALOREM', electedOn: '2024-12-15' } })))
      .toMatchObject({ code: 'CONFLICT', reason: 'REGIME_ALREADY_ELECTED' });
    expect(await elections()).toBe(before);
    expect(await api.count('SELECT count(*) FROM audit_entry')).toBe(audit);
  });

  test('read back by effectiveYear through Producer.regimeElections and regimeElections', async () => {
    const q = `query($id: ID!) { producer(id: $id) { regimeElections { regime effectiveYear findings { code } } } }`;
    expect((await api.ok(q, { id: alfa }, { role: 'AUDITOR' })).producer.regimeElections).toEqual([
      { regime: 'SPECIAL_PER_M3', effectiveYear: 2026, findings: [] },
      { regime: 'AD_VALOREM', effectiveYear: 2027, findings: [{ code: 'ELECTION_AFTER_DEADLINE' }] },
    ]);
    const list = await api.ok(`query($p: ID!) { regimeElections(producerId: $p) { effectiveYear } }`, { p: beta }, { role: 'PRODUCER', producerId: beta });
    expect(list.regimeElections).toEqual([{ effectiveYear: 2025 }]);
  });

  type Case = [name: string, input: () => Record<string, unknown>, as: () => Record<string, string>, expected: { code: string; field?: string }];
  const cases: Case[] = [
    ['an unknown producer', () => ({ producerId: '987654', regime: 'SPECIAL_PER_M3', electedOn: '2025-01-10' }), () => ({ role: 'ADMIN' }), { code: 'NOT_FOUND' }],
    ['a PRODUCER electing for another producer', () => ({ producerId: beta, regime: 'AD_VALOREM', electedOn: '2025-01-10' }), () => ({ role: 'PRODUCER', producerId: alfa }), { code: 'NOT_FOUND' }],
    ['an AUDITOR', () => ({ producerId: alfa, regime: 'AD_VALOREM', electedOn: '2028-01-10' }), () => ({ role: 'AUDITOR' }), { code: 'FORBIDDEN' }],
    ['an impossible date', () => ({ producerId: alfa, regime: 'AD_VALOREM', electedOn: '2028-02-30' }), () => ({ role: 'ADMIN' }), { code: 'BAD_USER_INPUT' }],
    ['an unknown regime', () => ({ producerId: alfa, regime: 'SIMPLES', electedOn: '2028-01-10' }), () => ({ role: 'ADMIN' }), { code: 'BAD_USER_INPUT' }],
  ];
  test.each(cases)('%s: rejected, nothing written', async (_name, input, as, expected) => {
    const before = await elections();
    expect(errorOf(await api.gql(ELECT, { input: input() }, as() as never))).toMatchObject(expected);
    expect(await elections()).toBe(before);
  });
});

describe('nested Selo and regime records', () => {
  test('producers → sealGrants → events, regimeElections: the same SQL statements for 2 producers and 30', async () => {
    for (let i = 0; i < 30; i++) {
      const p = await createProducer(api, `Usina ${i}`);
      const { grantSeal: g } = await api.ok(GRANT, { input: { producerId: p, grantedOn: '2025-01-01', validUntil: '2025-12-31' } });
      await api.ok(EVENT, { input: { grantId: g.id, kind: 'SUSPENDED', effectiveOn: '2025-03-01' } });
      await api.ok(ELECT, { input: { producerId: p, regime: 'SPECIAL_PER_M3', electedOn: '2025-11-28' } });
    }
    const q = `query($first: Int) { producers(first: $first) { edges { node { id sealGrants { id events { kind } producer { id } } regimeElections { effectiveYear } } } } }`;
    const statementsFor = async (first: number) => {
      api.statements.reset();
      const { producers } = await api.ok(q, { first });
      expect(producers.edges.length).toBe(first);
      return api.statements.count;
    };
    const few = await statementsFor(2);
    expect(await statementsFor(32)).toBe(few);
  });
});
