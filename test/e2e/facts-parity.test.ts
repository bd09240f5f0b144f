import fc from 'fast-check';
import { QueryRunner } from 'typeorm';
import { addDays } from '../../src/law/dates';
import { Decimal } from '../../src/law/decimal';
import { familyFarmingOrigin, farmerEligibility, LAST_DAP_ISSUE_DAY, membershipOn, organizationHabilitation } from '../../src/law/family-farming';
import { RegistrationKind, SupplierKind } from '../../src/law/types';
import { supplierOn, SuppliersAmong, validRegistrationsSql } from '../../src/services/facts/supplier-eligibility.sql';
import { coverage, ContractFacts, firstCoveredPurchaseOn, signedBefore } from '../../src/law/contract-conformity';
import { coverageSql, firstCoveredSql } from '../../src/services/facts/contract-coverage.sql';
import { createLawBook } from '../../src/law/law-book';
import { runIndex } from '../../src/law/timeline';
import { minimumShareTimeline, runIndexSql, valueOnSql } from '../../src/services/facts/parameter-timeline';
import { priorityRegionOn, semiaridOn } from '../../src/law/municipality';
import { membershipDays, membershipOnSql } from '../../src/services/facts/organization-membership.sql';
import { priorityRegionOnSql, semiaridDays, semiaridOnSql } from '../../src/services/facts/priority-region.sql';
import { createTestDatabase, TestDatabase } from '../support/database';
import { dayAround, dayNear, days, rolledBack } from './facts-parity.support';
import { checkProperty } from '../support/property';

/**
 * Each SQL builder of src/services/facts/ agrees with its pure twin in src/law/ on generated data
 * (fast-check), on real PostgreSQL: every fact asked on the days around each stored boundary — the
 * day before, the day of and the day after a start or an end — and a few others. Each run's rows
 * are written in a transaction that is rolled back.
 */

let db: TestDatabase;
let runner: QueryRunner;
const CODES = ['1501402', '2611606', '2910800', '3143302', '3135100', '4314902', '5208707']; // PA, PE, BA, MG, MG, RS, GO
beforeAll(async () => {
  db = await createTestDatabase(2);
  await db.dataSource.query(`INSERT INTO municipality (ibge_code, name, state, region)
    SELECT c, 'M' || c, 'XX', CASE left(c, 1) WHEN '1' THEN 'NORTH' WHEN '2' THEN 'NORTHEAST' WHEN '3' THEN 'SOUTHEAST' WHEN '4' THEN 'SOUTH' ELSE 'CENTER_WEST' END
      FROM unnest($1::text[]) c`, [CODES]);
  await db.dataSource.query(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members)
    VALUES ('04252011000110', 'Coop A', 'COOPERATIVE', '2910800', 10, 5), ('60701190000104', 'Coop B', 'COOPERATIVE', '2910800', 10, 5)`);
  // (the membership test's two cooperatives; an association and two farmers for the supplier test)
  await db.dataSource.query(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members)
    VALUES ('33000167000101', 'Assoc C', 'ASSOCIATION', '2910800', 10, 5)`);
  await db.dataSource.query(`INSERT INTO family_farmer (cpf, name, municipality_code) VALUES ('52998224725', 'F1', '2910800'), ('11144477735', 'F2', '2910800')`);
  await db.dataSource.query(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code) VALUES ('11222333000181', 'P', '2910800')`);
  await db.dataSource.query(`DELETE FROM organization_membership`);
  runner = db.dataSource.createQueryRunner();
  await runner.connect();
});
afterAll(async () => {
  await runner?.release();
  await db?.drop();
});

const RUNS = { numRuns: 60 };

describe('the Semiárido and the priority region on a date (priority-region.sql.ts ~ src/law/municipality.ts)', () => {
  // Codes the column accepts (7 digits, first 1–5) whose first two digits name no UF (10, 18, 20, 30, …), and any code.
  const noUf = fc.tuple(fc.constantFrom('10', '18', '19', '20', '30', '34', '39', '40', '44', '49', '54', '59'), fc.integer({ min: 0, max: 99_999 }))
    .map(([uf, n]) => `${uf}${String(n).padStart(5, '0')}`);
  const anyCode = fc.integer({ min: 1_000_000, max: 5_999_999 }).map(String);
  const code = fc.oneof(fc.constantFrom(...CODES), noUf, anyCode);
  const interval = fc.record({ code, from: fc.option(dayAround, { nil: null }), length: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }) });

  test('semiaridOnSql, priorityRegionOnSql and the join semiaridDays agree with semiaridOn and priorityRegionOn', async () => {
    await checkProperty(fc.asyncProperty(fc.array(interval, { maxLength: 8 }), fc.array(dayAround, { maxLength: 4 }), fc.array(code, { maxLength: 3 }), async (rows, extra, codes) => {
      const intervals = rows.map((r) => ({ code: r.code, validFrom: r.from, validUntil: r.length === null ? null : addDays(r.from ?? '2024-01-01', r.length), act: 'test' }));
      const allCodes = [...new Set([...CODES, ...codes, ...intervals.map((i) => i.code)])];
      await rolledBack(runner, async (q) => {
        await q(`INSERT INTO municipality (ibge_code, name, state, region) SELECT c, 'M' || c, 'XX', 'NORTH' FROM unnest($1::text[]) c ON CONFLICT DO NOTHING`, [allCodes]);
        for (const i of intervals) {
          await q(`INSERT INTO semiarid_membership (municipality_code, valid_from, valid_until, act) VALUES ($1, $2, $3, 'test')`, [i.code, i.validFrom, i.validUntil]);
        }
        const asked = allCodes.flatMap((code) => days(intervals.flatMap((i) => [i.validFrom, i.validUntil]), extra).map((day) => ({ code, day })));
        const joined = semiaridDays('sa', 'k.code');
        const rowsSql: Array<{ semiarid: boolean; priority: boolean; joined: boolean; joined_priority: boolean }> = await q(
          `SELECT ${semiaridOnSql('k.code', 'k.day')} AS semiarid, ${priorityRegionOnSql('k.code', 'k.day')} AS priority,
                  ${joined.on('k.day')} AS joined, ${joined.priority('k.day')} AS joined_priority
             FROM unnest($1::text[], $2::date[]) WITH ORDINALITY AS k(code, day, n) ${joined.join} ORDER BY k.n`,
          [asked.map((a) => a.code), asked.map((a) => a.day)]);
        asked.forEach(({ code, day }, i) => {
          const mine = intervals.filter((x) => x.code === code);
          const expected = { semiarid: semiaridOn(mine, day), priority: priorityRegionOn(code, mine, day) };
          expect([code, day, rowsSql[i]]).toEqual([code, day, { semiarid: expected.semiarid, priority: expected.priority, joined: expected.semiarid, joined_priority: expected.priority }]);
        });
      });
    }), { ...RUNS, examples: [
      // A code naming no UF: first digit 1 or 2 (North, Northeast by region digit) yet outside both, in and out of the Semiárido.
      [[{ code: '1000000', from: null, length: 3 }], [], ['1000000', '2000001', '1899999']],
    ] });
  });
});

describe("an organization's members in force on a date (organization-membership.sql.ts ~ membershipOn)", () => {
  const declaration = fc.record({ org: fc.constantFrom(0, 1), on: fc.option(dayAround, { nil: null }), members: fc.integer({ min: 1, max: 9 }) });

  test('membershipOnSql and the join membershipDays pick the declaration membershipOn picks', async () => {
    await checkProperty(fc.asyncProperty(fc.array(declaration, { maxLength: 8 }), fc.array(dayAround, { maxLength: 4 }), async (rows, extra) => {
      await rolledBack(runner, async (q) => {
        const orgs: string[] = (await q(`SELECT id::text FROM family_farming_organization ORDER BY id`)).map((r: { id: string }) => r.id);
        const stored: Array<{ id: string; org: string; declaredOn: string | null; members: number }> = [];
        for (const r of rows) {
          const [{ id }] = await q(`INSERT INTO organization_membership (organization_id, declared_on, members, family_farmer_members) VALUES ($1, $2, $3, 0) RETURNING id::text`,
            [orgs[r.org], r.on, r.members]);
          stored.push({ id, org: orgs[r.org], declaredOn: r.on, members: r.members });
        }
        const asked = orgs.flatMap((org) => days(stored.map((s) => s.declaredOn), extra).map((day) => ({ org, day })));
        const found: Array<{ probed: string | null; joined: string | null }> = await q(
          `SELECT (SELECT x.id::text FROM ${membershipOnSql('k.org', 'k.day')} x) AS probed, md.id::text AS joined
             FROM unnest($1::bigint[], $2::date[]) WITH ORDINALITY AS k(org, day, n) ${membershipDays('md', 'k.org', 'k.day')} ORDER BY k.n`,
          [asked.map((a) => a.org), asked.map((a) => a.day)]);
        asked.forEach(({ org, day }, i) => {
          const twin = membershipOn(stored.filter((s) => s.org === org).map((s) => ({ ...s, familyFarmerMembers: 0, seq: Number(s.id) })), day);
          const id = twin ? stored.find((s) => s.org === org && s.declaredOn === twin.declaredOn && Number(s.id) === twin.seq)!.id : null;
          expect([org, day, found[i]]).toEqual([org, day, { probed: id, joined: id }]);
        });
      });
    }), RUNS);
  });
});

describe('the supplier eligible on a date (supplier-eligibility.sql.ts ~ farmerEligibility, organizationHabilitation, familyFarmingOrigin)', () => {
  // Around the end of DAP issuance (2022-10-31), so that DAPs issued after it are generated too.
  const registration = fc.record({ owner: fc.integer({ min: 0, max: 4 }), kind: fc.constantFrom(RegistrationKind.DAP, RegistrationKind.CAF), from: dayNear(LAST_DAP_ISSUE_DAY), length: fc.integer({ min: 0, max: 30 }) });
  // Family-farmer members at the minimum share (0,6 of 5 or 10 members), one below or one above it.
  const declaration = fc.record({ org: fc.integer({ min: 0, max: 2 }), on: fc.option(dayNear(LAST_DAP_ISSUE_DAY), { nil: null }), members: fc.constantFrom(5, 10), delta: fc.constantFrom(-1, 0, 1) });
  const SHARE = '0.6';

  test("supplierOn's registration, membership and family-farming origin agree with the law's, whatever the supplier", async () => {
    await checkProperty(fc.asyncProperty(fc.array(registration, { maxLength: 8 }), fc.array(declaration, { maxLength: 6 }), fc.array(dayNear(LAST_DAP_ISSUE_DAY), { maxLength: 4 }),
      async (regs, decls, extra) => {
        await rolledBack(runner, async (q) => {
          const farmers: string[] = (await q(`SELECT id::text FROM family_farmer ORDER BY id`)).map((r: { id: string }) => r.id);
          const orgs: Array<{ id: string; kind: string }> = await q(`SELECT id::text, kind FROM family_farming_organization ORDER BY id`);
          const [{ id: producer }] = await q(`SELECT id::text FROM producer`);
          // Owners 0–1: the farmers; 2–4: the organizations.
          const stored = regs.map((r, i) => ({ ...r, number: `N${i}`, validFrom: r.from, validUntil: addDays(r.from, r.length) }));
          for (const r of stored) {
            if (r.owner < 2) await q(`INSERT INTO family_farmer_registration (family_farmer_id, kind, number, valid_from, valid_until) VALUES ($1, $2, $3, $4, $5)`, [farmers[r.owner], r.kind, r.number, r.validFrom, r.validUntil]);
            else await q(`INSERT INTO organization_registration (organization_id, kind, number, valid_from, valid_until) VALUES ($1, $2, $3, $4, $5)`, [orgs[r.owner - 2].id, r.kind, r.number, r.validFrom, r.validUntil]);
          }
          const declared: Array<{ id: string; org: string; declaredOn: string | null; members: number; familyFarmerMembers: number }> = [];
          for (const d of decls) {
            const familyFarmerMembers = d.members * 0.6 + d.delta;
            const [{ id }] = await q(`INSERT INTO organization_membership (organization_id, declared_on, members, family_farmer_members) VALUES ($1, $2, $3, $4) RETURNING id::text`,
              [orgs[d.org].id, d.on, d.members, familyFarmerMembers]);
            declared.push({ id, org: orgs[d.org].id, declaredOn: d.on, members: d.members, familyFarmerMembers });
          }
          // One purchase per supplier and day asked.
          const suppliers = [
            ...farmers.map((f) => ({ kind: SupplierKind.FAMILY_FARMER, farmer: f, org: null as string | null, owner: farmers.indexOf(f) })),
            ...orgs.map((o, i) => ({ kind: o.kind === 'COOPERATIVE' ? SupplierKind.COOPERATIVE : SupplierKind.ASSOCIATION, farmer: null as string | null, org: o.id, owner: i + 2 })),
          ];
          const asked = suppliers.flatMap((s) => days([...stored.flatMap((r) => [r.validFrom, r.validUntil]), ...declared.map((d) => d.declaredOn)], extra)
            .filter((d) => d > '2000-01-01' && d < '2099-12-31').map((day) => ({ ...s, day })));
          for (const a of asked) {
            await q(`INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, organization_id, origin_municipality_code, purpose)
                     VALUES ($1, $2, $2, 'SOYBEAN', 1, 1, $3, $4, $5, '2910800', 'BIODIESEL_FEEDSTOCK')`, [producer, a.day, a.kind, a.farmer, a.org]);
          }
          const read = (among?: SuppliersAmong) => {
            const supplier = supplierOn('p', 'p.purchased_on', `'${LAST_DAP_ISSUE_DAY}'::date`, among);
            return q(
              `SELECT ${supplier.registration} AS registration, ${supplier.membershipId}::text AS membership, ${supplier.familyFarmingOrigin(`'${SHARE}'::numeric`)} AS origin,
                      ${validRegistrationsSql('family_farmer_registration', 'family_farmer_id', 'p.family_farmer_id', 'p.purchased_on')} AS vf,
                      ${validRegistrationsSql('organization_registration', 'organization_id', 'p.organization_id', 'p.purchased_on')} AS vo
                 FROM purchase p ${supplier.join} ORDER BY p.id`);
          };
          const rows: Array<{ registration: number; membership: string; origin: boolean; vf: Array<{ number: string }>; vo: Array<{ number: string }> }> = await read();
          // Only the statement's suppliers' registrations (a month's) read the same facts as every supplier's (a year's).
          expect(await read({ farmers: 'SELECT family_farmer_id FROM purchase', organizations: 'SELECT organization_id FROM purchase' })).toEqual(rows);
          asked.forEach((a, i) => {
            const mine = stored.filter((r) => r.owner === a.owner).map((r) => ({ kind: r.kind, number: r.number, validFrom: r.validFrom, validUntil: r.validUntil }));
            const eligibility = farmerEligibility(mine, a.day);
            const registrationCode = !eligibility.eligible ? 0 : eligibility.findings.some((f) => f.code === 'DAP_ISSUED_AFTER_CUTOFF') ? 2 : 1;
            const counts = a.org ? membershipOn(declared.filter((d) => d.org === a.org).map((d) => ({ ...d, seq: Number(d.id) })), a.day) : null;
            const membership = counts ? declared.find((d) => Number(d.id) === counts.seq)!.id : '0';
            const origin = familyFarmingOrigin({
              kind: a.kind,
              farmer: a.farmer ? eligibility : null,
              organization: a.org && counts ? organizationHabilitation({ kind: orgs.find((o) => o.id === a.org)!.kind as never, ...counts }, mine, new Decimal(SHARE), a.day) : null,
            }).familyFarming;
            // The probe form lists the registrations valid that day, by validFrom (then as recorded).
            const valid = mine.filter((r) => r.validFrom <= a.day && a.day <= r.validUntil).sort((x, y) => (x.validFrom < y.validFrom ? -1 : x.validFrom > y.validFrom ? 1 : 0)).map((r) => r.number);
            const { vf, vo, ...facts } = rows[i];
            expect([a.kind, a.day, facts, [...vf, ...vo].map((r) => r.number)]).toEqual([a.kind, a.day, { registration: registrationCode, membership, origin }, valid]);
          });
        });
      }), { numRuns: 50, examples: [
        // The last day a DAP could be issued and the day after (Portaria MAPA 174/2022), for a farmer and for organizations.
        [[{ owner: 0, kind: RegistrationKind.DAP, from: LAST_DAP_ISSUE_DAY, length: 5 }, { owner: 1, kind: RegistrationKind.DAP, from: addDays(LAST_DAP_ISSUE_DAY, 1), length: 5 },
          { owner: 2, kind: RegistrationKind.DAP, from: LAST_DAP_ISSUE_DAY, length: 0 }, { owner: 3, kind: RegistrationKind.DAP, from: addDays(LAST_DAP_ISSUE_DAY, 1), length: 3 }],
        [{ org: 0, on: null, members: 10, delta: 0 }, { org: 1, on: null, members: 10, delta: 0 }], [LAST_DAP_ISSUE_DAY]],
      ] });
  });
});

describe('a contract covering a purchase, and the first it covers (contract-coverage.sql.ts ~ coverage, signedBefore, firstCoveredPurchaseOn)', () => {
  const contract = fc.record({ signed: dayAround, from: dayAround, length: fc.integer({ min: 0, max: 30 }), feedstock: fc.constantFrom('SOYBEAN', 'CASTOR_BEAN'), farmer: fc.constantFrom(0, 1) });
  const purchase = fc.record({ contract: fc.constantFrom(0, 1), on: dayAround, feedstock: fc.constantFrom('SOYBEAN', 'CASTOR_BEAN'), farmer: fc.constantFrom(0, 1) });

  test('coverageSql and firstCoveredSql (whole, and within a window) agree with the law', async () => {
    await checkProperty(fc.asyncProperty(fc.array(contract, { minLength: 2, maxLength: 2 }), fc.array(purchase, { maxLength: 10 }), dayAround, dayAround, async (cs, ps, w1, w2) => {
      const [from, until] = w1 <= w2 ? [w1, w2] : [w2, w1];
      await rolledBack(runner, async (q) => {
        const farmers: string[] = (await q(`SELECT id::text FROM family_farmer ORDER BY id`)).map((r: { id: string }) => r.id);
        const [{ id: producer }] = await q(`SELECT id::text FROM producer`);
        const contracts: Array<ContractFacts & { id: string }> = [];
        for (const c of cs) {
          const facts = { signedOn: c.signed, validFrom: c.from, validUntil: addDays(c.from, c.length), feedstock: c.feedstock as never, familyFarmerId: farmers[c.farmer], organizationId: null,
            pricePerKg: new Decimal(1), technicalAssistance: true };
          const [{ id }] = await q(`INSERT INTO contract (producer_id, family_farmer_id, signed_on, valid_from, valid_until, feedstock, quantity_kg, price_per_kg, technical_assistance)
                                    VALUES ($1, $2, $3, $4, $5, $6, 1000, 1, true) RETURNING id::text`, [producer, facts.familyFarmerId, facts.signedOn, facts.validFrom, facts.validUntil, facts.feedstock]);
          contracts.push({ ...facts, id });
        }
        const purchases = ps.map((x) => ({ contract: contracts[x.contract], purchasedOn: x.on, feedstock: x.feedstock as never, familyFarmerId: farmers[x.farmer], organizationId: null }));
        for (const x of purchases) {
          await q(`INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, origin_municipality_code, purpose, contract_id)
                   VALUES ($1, $2, $2, $3, 1, 1, 'FAMILY_FARMER', $4, '2910800', 'BIODIESEL_FEEDSTOCK', $5)`, [producer, x.purchasedOn, x.feedstock, x.familyFarmerId, x.contract.id]);
        }
        const cov = coverageSql('c', 'p');
        const rows = await q(`SELECT ${cov.prior} AS prior, ${cov.date} AS date, ${cov.feedstock} AS feedstock, (${cov.counterparty}) AS counterparty
                                FROM purchase p JOIN contract c ON c.id = p.contract_id ORDER BY p.id`);
        purchases.forEach((x, i) => {
          expect([x, rows[i]]).toEqual([x, { prior: signedBefore(x.contract, x.purchasedOn), ...coverage(x.contract, x) }]);
        });
        // Windows ending and starting on each purchase's day, the day before and the day after, and a generated one.
        const windows = [{ from, until }, ...purchases.flatMap((x) => [
          { from: x.purchasedOn, until: x.purchasedOn }, { from: addDays(x.purchasedOn, 1), until: addDays(x.purchasedOn, 30) },
          { from: addDays(x.purchasedOn, -30), until: addDays(x.purchasedOn, -1) }])];
        for (const w of windows) {
          const firsts = await q(`SELECT ${firstCoveredSql('c')} AS whole, ${firstCoveredSql('c', { from: '$1::date', until: '$2::date' })} AS windowed FROM contract c ORDER BY c.id`, [w.from, w.until]);
          contracts.forEach((c, i) => {
            const under = purchases.filter((x) => x.contract === c);
            expect([c.id, w, firsts[i]]).toEqual([c.id, w, {
              whole: firstCoveredPurchaseOn(c, under),
              windowed: firstCoveredPurchaseOn(c, under.filter((x) => x.purchasedOn >= w.from && x.purchasedOn <= w.until)),
            }]);
          });
        }
      });
    }), { ...RUNS, examples: [
      // A contract signed on the purchase day (counts as prior, art. 3º §2 II) and one signed the day before, windows of that day.
      [[{ signed: '2024-01-10', from: '2024-01-01', length: 30, feedstock: 'SOYBEAN', farmer: 0 }, { signed: '2024-01-09', from: '2024-01-01', length: 30, feedstock: 'SOYBEAN', farmer: 1 }],
        [{ contract: 0, on: '2024-01-10', feedstock: 'SOYBEAN', farmer: 0 }, { contract: 0, on: '2024-01-11', feedstock: 'SOYBEAN', farmer: 0 }, { contract: 1, on: '2024-01-10', feedstock: 'SOYBEAN', farmer: 1 }],
        '2024-01-10', '2024-01-10'],
    ] });
  });
});

describe("a parameter's timeline (parameter-timeline.ts ~ runs, runIndex and the law book)", () => {
  const version = fc.record({ from: dayAround, length: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }), published: dayAround, share: fc.constantFrom('0.5', '0.6', '0.7') });

  test('the run of each day (width_bucket) is runIndex, and the minimum share read through the timeline is the law book\'s, as known on a generated day', async () => {
    await checkProperty(fc.asyncProperty(fc.array(version, { maxLength: 5 }), dayAround, fc.array(dayAround, { maxLength: 4 }), async (vs, asKnownOn, extra) => {
      const records = vs.map((v, i) => ({
        parameter: 'cooperative-min-family-farmer-share', scope: null, value: { share: v.share }, validFrom: v.from,
        validUntil: v.length === null ? null : addDays(v.from, v.length), publishedOn: v.published, legalBasis: `test ${i}`, seq: i,
      }));
      const law = createLawBook(records);
      const timeline = minimumShareTimeline(law, asKnownOn);
      const asked = days(records.flatMap((r) => [r.validFrom, r.validUntil, r.publishedOn]), extra);
      const rows: Array<{ run: number; share: string | null }> = await runner.query(
        `SELECT ${runIndexSql('d', '$2::date[]')} AS run, ${valueOnSql('d', '$2::date[]', '$3::numeric[]')}::text AS share FROM unnest($1::date[]) WITH ORDINALITY AS k(d, n) ORDER BY n`,
        [asked, timeline.starts, timeline.values]);
      asked.forEach((day, i) => {
        const expected = law.cooperativeMinFamilyFarmerShare(day, asKnownOn)?.value.toFixed() ?? null;
        expect([day, rows[i]]).toEqual([day, { run: runIndex(timeline.starts, day), share: expected }]);
      });
    }), RUNS);
  });
});
