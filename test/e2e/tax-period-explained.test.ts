import { Decimal } from '../../src/law/decimal';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, PORTO_ALEGRE, upsertMunicipalities } from '../support/fixtures';

/**
 * A month explains which rates it applied and why (docs/LAW.md). Expected values from the law:
 *   ad valorem 6,15% / 28,32% of the domestic revenue (Lei 11.116/2005, art. 3º), whatever the
 *   coefficients, the 2026 zero window included (docs/LAW.md);
 *   special regime per m³ (Lei 11.116/2005, art. 4º) with the general amounts (Decreto 10.527/2020,
 *   art. 5º caput and §1º) until 2026-04-06 and the zero window (art. 5º §§2º–4º) from 2026-04-07,
 *   blended by cost (art. 6º §3º);
 *   the regime of a year: the election by the last business day of November governs the next year
 *   (art. 4º §1º) and renews automatically (art. 4º §5º); none on record: ad valorem, NO_REGIME_ELECTION.
 */

const D = (v: string | number) => new Decimal(v);
const cent = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed();

const QUERY = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) {
  status regime regimeBasis regimeElection { regime electedOn effectiveYear } recomputedDiffers differences { field }
  segments { from to pisRate cofinsRate legalBasis blendedPisPerM3 pisDue cofinsDue mix { category legalBasis } }
} }`;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [PORTO_ALEGRE]);
});
afterAll(async () => { await api.close(); });

async function producer(electedOn: string | null) {
  const id = await createProducer(api, 'Usina Explicada', PORTO_ALEGRE);
  if (electedOn) await electSpecialRegime(api, id, electedOn);
  return id;
}
async function sale(producerId: string, soldOn: string, volumeM3: string, revenue: string) {
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId, soldOn, volumeM3, revenue, origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }] });
}
async function thirdPartyPurchase(producerId: string, purchasedOn: string) {
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [{
    producerId, purchasedOn, feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading Grãos SA', originMunicipalityCode: PORTO_ALEGRE,
  }] });
}
const month = async (p: string, y: number, m: number) => (await api.ok(QUERY, { p, y, m })).taxPeriod;

describe('ad valorem months say which rates they applied (Lei 11.116/2005, art. 3º)', () => {
  test('March and May 2026 (zero window in force in May): 0.0615 / 0.2832 and art. 3º in each segment; no election: NO_REGIME_ELECTION', async () => {
    const id = await producer(null);
    await sale(id, '2026-03-10', '10', '40000.10');
    await sale(id, '2026-05-20', '10', '50000.30');
    for (const [m, revenue] of [[3, '40000.10'], [5, '50000.30']] as const) {
      const tp = await month(id, 2026, m);
      expect(tp.regime).toBe('AD_VALOREM');
      expect(tp.segments.length).toBeGreaterThan(0);
      for (const s of tp.segments) {
        expect([s.pisRate, s.cofinsRate]).toEqual(['0.0615', '0.2832']);
        expect(s.legalBasis).toBe('Lei 11.116/2005, art. 3º');
        expect([s.mix, s.blendedPisPerM3]).toEqual([[], null]);
      }
      // The rates shown are those applied: 6,15% and 28,32% of the revenue, half-even to the centavo.
      const withSale = tp.segments.filter((s: any) => D(s.pisDue).gt(0));
      expect(withSale.map((s: any) => [s.pisDue, s.cofinsDue])).toEqual([[cent(D(revenue).times('0.0615')), cent(D(revenue).times('0.2832'))]]);
      expect(tp.regimeBasis).toContain('NO_REGIME_ELECTION');
      expect(tp.regimeBasis).toContain('Lei 11.116/2005, art. 3º');
      expect(tp.regimeElection).toBeNull();
    }
    // 40.000,10 × 0,0615 = 2.460,00615 → 2.460,01; × 0,2832 = 11.328,02832 → 11.328,03
    expect(cent(D('40000.10').times('0.0615'))).toBe('2460.01');
  });
});

describe('special-regime months cite the per-m³ provisions applied', () => {
  test('April 2026: art. 4º and art. 5º §1º on the 1st–6th; the zero window art. 5º §§2º–4º only on the 7th–30th; the election of 2025-11-03 for 2026 (art. 4º §1º)', async () => {
    const id = await producer('2025-11-03');
    await thirdPartyPurchase(id, '2026-04-02');
    await sale(id, '2026-04-03', '10', '50000');
    await sale(id, '2026-04-20', '10', '50000');
    const tp = await month(id, 2026, 4);
    expect(tp.regime).toBe('SPECIAL_PER_M3');
    expect(tp.segments.map((s: any) => [s.from, s.to])).toEqual([['2026-04-01', '2026-04-06'], ['2026-04-07', '2026-04-30']]);
    const [early, window] = tp.segments;
    for (const s of tp.segments) {
      expect([s.pisRate, s.cofinsRate]).toEqual([null, null]);
      expect(s.legalBasis).toContain('Lei 11.116/2005, art. 4º');
      expect(s.legalBasis).toContain('art. 6º §3º');
      // The segment's basis names every category rule of its mix, as the mix cites it.
      for (const m of s.mix) expect(s.legalBasis).toContain(m.legalBasis);
    }
    expect(early.legalBasis).toContain('Decreto 10.527/2020, art. 5º, caput and §1º');
    expect(early.legalBasis).not.toContain('§§2º–4º');
    expect(window.legalBasis).toContain('Decreto 10.527/2020, art. 5º §§2º–4º');
    // 10 m³ × 26,41 (GENERAL, art. 5º §1º) = 264,10 on the 3rd; R$ 0,00 in the window.
    expect([early.pisDue, window.pisDue]).toEqual(['264.10', '0.00']);
    expect(tp.regimeElection).toEqual({ regime: 'SPECIAL_PER_M3', electedOn: '2025-11-03', effectiveYear: 2026 });
    expect(tp.regimeBasis).toContain('2025-11-03');
    expect(tp.regimeBasis).toContain('effective from 2026');
    expect(tp.regimeBasis).toContain('Lei 11.116/2005, art. 4º §1º');
    expect(tp.regimeBasis).not.toContain('§5º');
  });

  test('an election of 2024-11-04 (effective 2025) governs 2026 by automatic renewal (art. 4º §5º)', async () => {
    const id = await producer('2024-11-04');
    const tp = await month(id, 2026, 3);
    expect(tp.regimeElection).toEqual({ regime: 'SPECIAL_PER_M3', electedOn: '2024-11-04', effectiveYear: 2025 });
    expect(tp.regimeBasis).toContain('renewed automatically for 2026');
    expect(tp.regimeBasis).toContain('art. 4º §5º');
    // No raw material used: GENERAL only (NO_FEEDSTOCK_IN_PERIOD), no blend rule cited.
    expect(tp.segments[0].legalBasis).toBe('Lei 11.116/2005, art. 4º; Decreto 10.527/2020, art. 5º, caput and §1º');
  });
});

describe('closed months', () => {
  test('a snapshot kept without the explanations reads back explained from the law as known on its close day, and recomputedDiffers stays false', async () => {
    const id = await producer('2025-11-03');
    await thirdPartyPurchase(id, '2026-03-02');
    await sale(id, '2026-03-05', '10', '50000');
    await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p: id });
    const fresh = await month(id, 2026, 3);
    expect([fresh.status, fresh.recomputedDiffers]).toEqual(['CLOSED', false]);
    // A snapshot as taken before these fields existed.
    await api.db.dataSource.query(
      `UPDATE tax_period SET snapshot = (snapshot - 'regimeBasis' - 'regimeElection')
         || jsonb_build_object('segments', (SELECT jsonb_agg(s - 'legalBasis' - 'pisRate' - 'cofinsRate') FROM jsonb_array_elements(snapshot->'segments') s))
        WHERE producer_id = $1`, [id]);
    expect(await api.count(`SELECT count(*) FROM tax_period WHERE producer_id = $1 AND snapshot->'segments'->0 ? 'legalBasis'`, [id])).toBe(0);
    const old = await month(id, 2026, 3);
    expect([old.status, old.recomputedDiffers, old.differences]).toEqual(['CLOSED', false, []]);
    expect(old.segments.map((s: any) => [s.legalBasis, s.pisRate])).toEqual(fresh.segments.map((s: any) => [s.legalBasis, s.pisRate]));
    expect(old.segments[0].legalBasis).toBe('Lei 11.116/2005, art. 4º; Decreto 10.527/2020, art. 5º, caput and §1º; Decreto 10.527/2020, art. 6º §3º (average weighted by the acquisition cost of the raw material used)');
    expect([old.regimeBasis, old.regimeElection]).toEqual([fresh.regimeBasis, fresh.regimeElection]);
  });
});
