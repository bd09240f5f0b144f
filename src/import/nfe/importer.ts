import { DataSource, EntityManager } from 'typeorm';
import { nfeKeyIssuer, nfeKeyProblem } from '../../formats/nfe-key';
import { Locale, message, Message } from '../../i18n';
import { Decimal, outOfInputBounds, shownNumber } from '../../law/decimal';
import { Feedstock, Market, SupplierKind } from '../../law/types';
import { Actor } from '../../services/actor';
import { AppError, BadInputError, NotFoundError } from '../../services/errors';
import { isId } from '../../services/record-batch';
import { RecordImportInput } from '../../services/biodiesel-import.service';
import { CreditSupplier } from '../../services/credit.service';
import { itemKeyOf, RecordPurchaseInput, recordedItems } from '../../services/purchase.service';
import { RecordReturnInput } from '../../services/record-return.service';
import { RecordSaleInput } from '../../services/sale.service';
import { assertCanWriteFor } from '../../services/scope';
import { AuditRecord, mutate } from '../../services/transaction';
import { Services } from '../../services';
import { NfeDocument, NfeItem, NfeNote } from './document';
import { NfeProblem, NfeProblems, shownProblem } from './problems';
import type { ReadUpload } from './worker';

export { NfeProblem, shownProblem };

export interface NfeImportSummary {
  files: number;
  notes: number;
  purchases: number;
  sales: number;
  imports: number;
  returns: number;
  cancellations: number;
  written: boolean;
  /** The first MAX_REPORTED_PROBLEMS; `problemCount` counts them all. */
  problems: NfeProblem[];
  problemCount: number;
}

export class NfeImportError extends BadInputError {
  readonly problems: NfeProblem[];
  readonly problemCount: number;
  constructor(problems: NfeProblems) {
    super('file', message('nfe.refused', { count: problems.count, first: problems.kept.slice(0, 3).map(describe) }));
    this.problems = problems.kept;
    this.problemCount = problems.count;
  }
  extensions(locale?: Locale) {
    return { field: 'file', problems: this.problems.map((p) => shownProblem(p, locale)), problemCount: this.problemCount };
  }
}

function describe(p: NfeProblem): Message {
  if (!p.key) return message('nfe.inFile', { file: p.file, reason: p.reason });
  return p.item === null ? message('nfe.inNote', { file: p.file, key: p.key, reason: p.reason }) : message('nfe.atItem', { file: p.file, key: p.key, item: p.item, reason: p.reason });
}

/** The protocol's cStat of a note authorized: 100, or 150 authorized out of time (MOC 4.00). */
const AUTHORIZED = new Set(['100', '150']);

/** retEvento's cStat of an event registered: 135, or 155 (a cancellation out of time) (MOC 4.00). */
const REGISTERED = new Set(['135', '155']);

/** Biodiesel (B100), NCM 3826.00.00. */
const BIODIESEL_NCM = '38260000';

/**
 * The exit CFOPs of a sale of biodiesel (CFOP table, Convênio s/nº de 1970 with Ajuste SINIEF
 * 07/2001; docs/LAW.md, "NF-e exits"): of own production (5101, 5401, 5651–5653) or of goods
 * bought (5102, 5403, 5405, 5654–5656), 6xxx the same to another UF, 5667/6667 fuel to a final
 * consumer elsewhere; 7xxx the exports. Any other exit (transfer 5152/5658, deposit 5905, bonus
 * 5910, other 5949…) is no sale and no revenue: refused, never silently skipped.
 */
const DOMESTIC_SALE_CFOPS = new Set(['101', '102', '401', '403', '405', '651', '652', '653', '654', '655', '656', '667'].flatMap((c) => [`5${c}`, `6${c}`]));
const EXPORT_SALE_CFOPS = new Set(['7101', '7102', '7651', '7654', '7667']);
/**
 * Sales to a trading company "com fim específico de exportação" (CFOP 5501/5502, 6501/6502): export
 * revenue, no contribution, the credits kept (Lei 10.637/2002, art. 5º III; Lei 10.833/2003, art.
 * 6º III). The sale model has no "indirect export": they are EXPORT.
 */
const INDIRECT_EXPORT_CFOPS = new Set(['5501', '5502', '6501', '6502']);

/** The market of a sale of biodiesel under `cfop`; null when the CFOP is no sale. */
function saleMarketOf(cfop: string): Market | null {
  if (EXPORT_SALE_CFOPS.has(cfop) || INDIRECT_EXPORT_CFOPS.has(cfop)) return Market.EXPORT;
  if (DOMESTIC_SALE_CFOPS.has(cfop)) return Market.DOMESTIC;
  return null;
}

/** By NCM (TIPI), longest prefix first; "other seeds" (1207.99) by description. */
const NCM_FEEDSTOCK: Array<[string, Feedstock]> = [
  ['120730', Feedstock.CASTOR_BEAN], ['120710', Feedstock.PALM], ['12072', Feedstock.COTTONSEED], ['1201', Feedstock.SOYBEAN],
  ['1202', Feedstock.PEANUT], ['1205', Feedstock.CANOLA], ['1206', Feedstock.SUNFLOWER], ['1502', Feedstock.BEEF_TALLOW],
  ['1507', Feedstock.SOYBEAN_OIL], ['1518', Feedstock.USED_COOKING_OIL], ['0102', Feedstock.LIVE_ANIMALS],
];
const DESCRIPTION_FEEDSTOCK: Array<[RegExp, Feedstock]> = [
  [/maca[uú]ba/i, Feedstock.MACAUBA], [/mamona/i, Feedstock.CASTOR_BEAN], [/dend[eê]|palma/i, Feedstock.PALM],
];

export function feedstockOf(item: NfeItem): Feedstock | null {
  const byNcm = NCM_FEEDSTOCK.find(([prefix]) => item.ncm.startsWith(prefix));
  if (byNcm) return byNcm[1];
  if (item.ncm.startsWith('1207')) return DESCRIPTION_FEEDSTOCK.find(([pattern]) => pattern.test(item.description))?.[1] ?? null;
  return null;
}

/**
 * The item's value less its unconditional discount (vProd − vDesc): the revenue of a sale (Lei
 * 10.637/2002 and Lei 10.833/2003, art. 1º § 3º V a), the value of a return and a purchase's cost.
 * Freight, insurance and other charges (vFrete, vSeg, vOutro) are not added (docs/LAW.md).
 */
function netValue(item: NfeItem): Decimal {
  return new Decimal(item.value).minus(item.discount);
}

/** SC is the 60 kg sack. */
function kilograms(item: NfeItem): Decimal | null {
  const q = new Decimal(item.quantity);
  if (/^(KG|KGS|KILO|QUILO)$/.test(item.unit)) return q;
  if (/^(T|TON|TONELADA)$/.test(item.unit)) return q.times(1000);
  if (/^(SC|SC60|SACA)$/.test(item.unit)) return q.times(60);
  return null;
}

/**
 * A quantity converted (T × 1000, SC × 60, L ÷ 1000) past the bounds every input keeps (docs/API.md,
 * "Decimals"): checked on what is stored, not on qCom, which the conversion widens.
 */
function outOfBounds(item: NfeItem, converted: Decimal, to: 'kg' | 'm³'): Message | null {
  const text = converted.toFixed();
  return outOfInputBounds(text) ? message('nfe.quantityOutOfBounds', { quantity: item.quantity, unit: item.unit, converted: shownNumber(text), to }) : null;
}

function cubicMetres(item: NfeItem): Decimal | null {
  const q = new Decimal(item.quantity);
  if (/^(M3|M³)$/.test(item.unit)) return q;
  if (/^(L|LT|LTS|LITRO|LITROS)$/.test(item.unit)) return q.div(1000);
  return null;
}

/**
 * Where the key (Ajuste SINIEF 07/2005, cl. 3ª: cUF, AAMM of emission, CNPJ, model, series, nNF,
 * tpEmis, cNF, cDV) differs from its note's ide, or null. The AAMM is the issuer's: the month of
 * dhEmi as written; the CNPJ is checked against emit below.
 */
function keyMismatch(d: NfeNote): string | null {
  const pad = (text: string, width: number) => /^\d+$/.test(text) && text.length <= width ? text.padStart(width, '0') : text;
  const month = /^\d{2}(\d{2})-(\d{2})/.exec(d.ide.dhEmi);
  const fields: Array<[string, string, string]> = [
    ['cUF', d.key.slice(0, 2), d.ide.cUF], ['AAMM', d.key.slice(2, 6), month ? `${month[1]}${month[2]}` : d.ide.dhEmi],
    ['mod', d.key.slice(20, 22), d.ide.mod], ['serie', d.key.slice(22, 25), pad(d.ide.serie, 3)], ['nNF', d.key.slice(25, 34), pad(d.ide.nNF, 9)],
    ['tpEmis', d.key.slice(34, 35), d.ide.tpEmis], ['cNF', d.key.slice(35, 43), pad(d.ide.cNF, 8)], ['cDV', d.key.slice(43), d.ide.cDV],
  ];
  const wrong = fields.filter(([, inKey, inNote]) => inKey !== inNote).map(([name, inKey, inNote]) => `${name} ${inKey} ≠ ${inNote.slice(0, 30) || '—'}`);
  return wrong.length === 0 ? null : wrong.join(', ');
}

/** A CPF sits behind three zeros. */
function keyDocument(document: string | null): string {
  return document === null ? '' : document.padStart(14, '0');
}

interface Planned {
  purchases: Array<{ input: RecordPurchaseInput; at: NfeProblem }>;
  sales: Array<{ input: RecordSaleInput; at: NfeProblem }>;
  imports: Array<{ input: RecordImportInput; at: NfeProblem }>;
  returns: Array<{ input: RecordReturnInput; at: NfeProblem }>;
  cancellations: Array<{ key: string; at: NfeProblem }>;
}

export interface NfeImportOptions {
  producerId: string;
  /** The upload read (src/import/nfe/worker.ts). */
  read: ReadUpload;
  /** `?partial=items`: write the items that map, report the rest. */
  partial: boolean;
}

/**
 * All or nothing by default: a month with some of its notes would be computed wrong without a
 * word. `partial` writes what maps and reports the rest.
 */
export async function importNfe(ds: DataSource, services: Services, actor: Actor, options: NfeImportOptions): Promise<NfeImportSummary> {
  assertCanWriteFor(actor, 'Producer', options.producerId);
  const producer: { cnpj: string; establishments: string[] } | undefined = isId(options.producerId) ? (await ds.query(
    'SELECT cnpj, establishments::text[] AS establishments FROM producer WHERE id = $1', [options.producerId],
  ))[0] : undefined;
  if (!producer) throw new NotFoundError('Producer', options.producerId, 'producer');
  const own = new Set([producer.cnpj, ...producer.establishments]);
  const problems = new NfeProblems(options.read);
  const { documents } = options.read;
  const summary: NfeImportSummary = {
    files: options.read.files, notes: 0, purchases: 0, sales: 0, imports: 0, returns: 0, cancellations: 0, written: false, problems: problems.kept, problemCount: 0,
  };
  const result = await mutate(ds, actor, async (em) => {
    const planned = await plan(em, options.producerId, own, documents, problems);
    summary.notes = documents.filter((d) => d.document.type === 'note').length;
    if (problems.count > 0 && !options.partial) throw new NfeImportError(problems);
    const audit: AuditRecord[] = [];
    const write = async <I>(rows: Array<{ input: I; at: NfeProblem }>, run: (inputs: I[]) => Promise<{ result: unknown[]; audit: AuditRecord[] }>) => {
      if (rows.length === 0) return 0;
      try {
        const done = await run(rows.map((r) => r.input));
        // One by one: spread into push, a call's arguments go on the stack, and 128,700 items'
        // records overflowed it (RangeError, a 500).
        for (const record of done.audit) audit.push(record);
        return done.result.length;
      } catch (e) {
        throw located(e, rows.map((r) => r.at));
      }
    };
    summary.purchases = await write(planned.purchases, (inputs) => services.purchases.write(em, actor, inputs));
    summary.sales = await write(planned.sales, (inputs) => services.sales.write(em, actor, inputs));
    summary.imports = await write(planned.imports, (inputs) => services.imports.write(em, actor, inputs));
    const returns = await resolveReturns(em, options.producerId, planned.returns, problems, options.partial);
    // Thrown, not returned: the notes already written in this transaction are rolled back.
    if (returns === null) throw new NfeImportError(problems);
    summary.returns = await write(returns, (inputs) => services.recordReturns.write(em, actor, inputs));
    for (const c of planned.cancellations) {
      try {
        const done = await services.recordChanges.cancelWith(em, actor, c.key, options.producerId);
        for (const record of done.audit) audit.push(record);
        summary.cancellations++;
      } catch (e) {
        throw located(e, [c.at]);
      }
    }
    return { result: true, audit };
  });
  summary.written = result;
  summary.problemCount = problems.count;
  return summary;
}

/** After the upload's own notes are written: a return may follow its original in the same ZIP. */
async function resolveReturns(
  em: EntityManager, producerId: string, rows: Planned['returns'], problems: NfeProblems, partial: boolean,
): Promise<Planned['returns'] | null> {
  const resolved: Planned['returns'] = [];
  for (const row of rows) {
    const [, key, feedstock] = (row.input.saleId ?? row.input.purchaseId ?? '').split(':');
    const candidates: Array<{ id: string; item: number | null }> = row.input.saleId
      ? await em.query(`SELECT id::text FROM sale WHERE producer_id = $1 AND invoice_key = $2 AND state = 'ACTIVE'`, [producerId, key])
      : await em.query(`SELECT id::text, invoice_item AS item FROM purchase WHERE producer_id = $1 AND invoice_key = $2 AND feedstock = $3 AND state = 'ACTIVE' ORDER BY invoice_item, id`, [producerId, key, feedstock]);
    if (candidates.length === 0) {
      problems.push({ ...row.at, reason: row.input.saleId ? message('nfe.returnNoSale', { key }) : message('nfe.returnNoPurchase', { key, feedstock }) });
      continue;
    }
    // Several items of the feedstock in the note: the return's item number names the original's (docs/LAW.md, "Returns").
    const found = candidates.length === 1 ? candidates[0] : candidates.find((c) => c.item === row.at.item);
    if (!found) {
      problems.push({ ...row.at, reason: message('nfe.returnWhichItem', { key, feedstock, item: row.at.item ?? '—', items: candidates.map((c) => c.item ?? '—').join(', ') }) });
      continue;
    }
    resolved.push({ ...row, input: { ...row.input, saleId: row.input.saleId ? found.id : null, purchaseId: row.input.purchaseId ? found.id : null } });
  }
  return resolved.length < rows.length && !partial ? null : resolved;
}

function located(e: unknown, at: NfeProblem[]): unknown {
  if (!(e instanceof AppError)) return e;
  const field = (e.extensions() as { field?: string }).field ?? '';
  const index = /^input\[(\d+)\]/.exec(field);
  const where = index ? at[Number(index[1])] : at[0];
  const problems = new NfeProblems();
  problems.push({ ...where, reason: message('nfe.rule', { code: e.code, detail: e.text }) });
  return new NfeImportError(problems);
}

async function plan(em: EntityManager, producerId: string, own: Set<string>, documents: Array<{ file: string; document: NfeDocument }>, problems: NfeProblems): Promise<Planned> {
  const planned: Planned = { purchases: [], sales: [], imports: [], returns: [], cancellations: [] };
  const cpfs = new Set<string>();
  const cnpjs = new Set<string>();
  for (const { document: d } of documents) {
    if (d.type !== 'note') continue;
    for (const party of [d.issuer, d.recipient]) {
      if (party.document?.length === 11) cpfs.add(party.document);
      if (party.document?.length === 14) cnpjs.add(party.document);
    }
  }
  const farmers = new Map<string, string>((await em.query('SELECT cpf, id::text AS id FROM family_farmer WHERE cpf = ANY($1::text[])', [[...cpfs]]))
    .map((r: { cpf: string; id: string }) => [r.cpf, r.id]));
  const organizations = new Map<string, { id: string; kind: string }>((await em.query(
    'SELECT cnpj, id::text AS id, kind FROM family_farming_organization WHERE cnpj = ANY($1::text[])', [[...cnpjs]],
  )).map((r: { cnpj: string; id: string; kind: string }) => [r.cnpj, { id: r.id, kind: r.kind }]));

  for (const { file, document: d } of documents) {
    const at = (item: number | null, reason: Message = message('text.asIs', { text: '' })): NfeProblem => ({ file, key: d.key || null, item, reason });
    const problem = nfeKeyProblem(d.key);
    if (problem !== null) { problems.push(at(null, message(problem === 'shape' ? 'nfe.keyLayout' : problem === 'model' ? 'nfe.keyModel' : 'nfe.keyDigit'))); continue; }
    if (d.type === 'cancellation') {
      if (d.eventType !== '110111') { problems.push(at(null, message('nfe.notCancellation', { event: d.eventType }))); continue; }
      // Only an event SEFAZ registered cancels (135, or 155 out of time); a rejection (573…) cancels nothing.
      if (d.status === null || !REGISTERED.has(d.status)) { problems.push(at(null, message('nfe.eventNotRegistered', { cStat: d.status ?? '—' }))); continue; }
      planned.cancellations.push({ key: d.key, at: at(null) });
      continue;
    }
    // Only an authorized note has legal effect (MOC 4.00: cStat 100, or 150 authorized late); a
    // test note (tpAmb 2) or a bare NFe with no protocol documents no operation (docs/LAW.md).
    if (d.environment !== '1') { problems.push(at(null, message('nfe.homologation', { tpAmb: d.environment || '—' }))); continue; }
    if (d.protocolStatus === null) { problems.push(at(null, message('nfe.noProtocol'))); continue; }
    if (!AUTHORIZED.has(d.protocolStatus)) { problems.push(at(null, message('nfe.notAuthorized', { cStat: d.protocolStatus }))); continue; }
    const mismatch = keyMismatch(d);
    if (mismatch) { problems.push(at(null, message('nfe.keyMismatch', { fields: mismatch }))); continue; }
    const issued = own.has(nfeKeyIssuer(d.key));
    if (issued && !own.has(keyDocument(d.issuer.document))) { problems.push(at(null, message('nfe.issuerNotProducer'))); continue; }
    if (!issued && keyDocument(d.issuer.document) !== nfeKeyIssuer(d.key)) { problems.push(at(null, message('nfe.issuerNotKey', { keyIssuer: nfeKeyIssuer(d.key), issuer: d.issuer.document ?? '—' }))); continue; }
    if (!issued && !own.has(keyDocument(d.recipient.document))) { problems.push(at(null, message('nfe.notProducers'))); continue; }
    // A third party's entry note (tpNF 0) records what its issuer received: not goods the producer bought.
    if (!issued && d.direction === '0') { problems.push(at(null, message('nfe.thirdPartyEntry', { issuer: d.issuer.document ?? '—' }))); continue; }
    // The other party: the recipient of an exit note, the sender in an entry note the producer issued.
    const other = issued ? d.recipient : d.issuer;
    for (const bad of d.badItemNumbers) problems.push(at(null, message('nfe.badItemNumber', bad)));
    // A sale sums its note's items: with one unread it would be short (as with an item of no volume).
    if (d.badItemNumbers.length > 0 && issued && d.direction === '1') continue;
    if (d.purpose === '4') { planReturns(d, at, planned, problems); continue; }
    // Only the items sold make the sale; an exit of another CFOP is its item's problem (above).
    const biodiesel = d.items.filter((i) => i.ncm === BIODIESEL_NCM && saleMarketOf(i.cfop) !== null);
    for (const item of d.items) {
      if (item.ncm === BIODIESEL_NCM) {
        if (issued && d.direction === '0' && item.cfop.startsWith('3')) {
          const volume = cubicMetres(item);
          if (!volume) { problems.push(at(item.number, message('nfe.unitNotVolume', { unit: item.unit }))); continue; }
          const wide = outOfBounds(item, volume, 'm³');
          if (wide) { problems.push(at(item.number, wide)); continue; }
          if (!item.declaration?.number || !item.declaration.clearedOn) { problems.push(at(item.number, message('nfe.noDeclaration'))); continue; }
          planned.imports.push({ input: { producerId, clearedOn: item.declaration.clearedOn, volumeM3: volume, declarationNumber: item.declaration.number, invoiceKey: d.key }, at: at(item.number) });
        } else if (!issued || d.direction !== '1') {
          problems.push(at(item.number, message('nfe.biodieselNotSale')));
        } else if (saleMarketOf(item.cfop) === null) {
          problems.push(at(item.number, message('nfe.exitNotSale', { cfop: item.cfop })));
        }
        continue;
      }
      const feedstock = feedstockOf(item);
      if (feedstock === null) { problems.push(at(item.number, message('nfe.notFeedstock', { ncm: item.ncm, description: item.description }))); continue; }
      if (issued && d.direction === '1') { problems.push(at(item.number, message('nfe.rawMaterialOut'))); continue; }
      const kg = kilograms(item);
      if (!kg) { problems.push(at(item.number, message('nfe.unitNotWeight', { unit: item.unit }))); continue; }
      const wide = outOfBounds(item, kg, 'kg');
      if (wide) { problems.push(at(item.number, wide)); continue; }
      if (!other.municipalityCode) { problems.push(at(item.number, message('nfe.noMunicipality'))); continue; }
      const supplier = supplierOf(other.document, other.name, farmers, organizations);
      // A CST the note states must be a code of two digits (tables 4.3.3–4.3.4); a note without one leaves it unknown.
      const csts = [item.pisCofinsCst, item.cofinsCst];
      const unreadable = csts.find((t): t is string => t !== null && !/^\d{2}$/.test(t));
      if (unreadable !== undefined) { problems.push(at(item.number, message('nfe.unreadableCst', { cst: unreadable.slice(0, 20) }))); continue; }
      const [pisCst, cofinsCst] = csts;
      // The producer's own entry note states the buyer's entry CST (table 4.3.4, 50–99), recorded as it is: an exit CST there cannot be right.
      const exitCst = issued ? csts.find((c): c is string => c !== null && Number(c) < 50) : undefined;
      if (exitCst !== undefined) { problems.push(at(item.number, message('nfe.exitCstOnEntry', { cst: exitCst }))); continue; }
      if ('key' in supplier) { problems.push(at(item.number, supplier as Message)); continue; }
      planned.purchases.push({
        input: {
          producerId, purchasedOn: d.issuedOn, feedstock, quantityKg: kg, cost: netValue(item), ...supplier,
          originMunicipalityCode: other.municipalityCode, invoiceKey: d.key, invoiceItem: item.number, supplierDocument: other.document,
          // Each contribution's credit follows its own CST: the Cofins one is kept where it differs.
          pisCofinsCst: pisCst, cofinsCst: cofinsCst === pisCst ? null : cofinsCst,
          icmsValue: item.icmsValue === null ? null : new Decimal(item.icmsValue),
          cbsValue: item.cbsValue === null ? null : new Decimal(item.cbsValue),
        },
        at: at(item.number),
      });
    }
    // One sale per note of biodiesel sold: a key names one sale; its items add up.
    if (issued && d.direction === '1' && biodiesel.length > 0 && d.purpose !== '4') {
      const volumes = biodiesel.map(cubicMetres);
      const bad = biodiesel.find((_, i) => volumes[i] === null);
      if (bad) { problems.push(at(bad.number, message('nfe.unitNotVolume', { unit: bad.unit }))); continue; }
      const wide = biodiesel.map((item, i) => outOfBounds(item, volumes[i]!, 'm³'));
      const wideAt = wide.findIndex((w) => w !== null);
      if (wideAt >= 0) { problems.push(at(biodiesel[wideAt].number, wide[wideAt]!)); continue; }
      const exported = biodiesel.map((i) => saleMarketOf(i.cfop) === Market.EXPORT);
      if (new Set(exported).size > 1) { problems.push(at(biodiesel[0].number, message('nfe.mixedExport'))); continue; }
      planned.sales.push({
        input: {
          producerId, soldOn: d.issuedOn, volumeM3: volumes.reduce((a, v) => a!.plus(v!), new Decimal(0))!,
          revenue: biodiesel.reduce((a, i) => a.plus(netValue(i)), new Decimal(0)), market: exported[0] ? Market.EXPORT : Market.DOMESTIC, invoiceKey: d.key,
        },
        at: at(biodiesel[0].number),
      });
    }
  }
  planned.purchases = await unrecordedItems(em, planned.purchases, problems);
  planned.returns = await unrecordedReturns(em, producerId, planned.returns, problems);
  return planned;
}

/** The advisory-lock key of a return note's key (`k.key` in the statement that takes it). */
export const RETURN_NOTE_LOCK_KEY = `hashtextextended('nfe_return:' || k.key, 0)`;

/** A return note already recorded, or an item of one given twice in the upload, would take the goods back twice. */
async function unrecordedReturns(em: EntityManager, producerId: string, returns: Planned['returns'], problems: NfeProblems): Promise<Planned['returns']> {
  if (returns.length === 0) return returns;
  const keys = [...new Set(returns.map((r) => r.input.invoiceKey!))].sort();
  // No key of a return is unique (its note's items are not kept): two uploads of one note queue
  // here, in key order, and the second reads the first's returns once it has committed.
  await em.query(`SELECT pg_advisory_xact_lock(${RETURN_NOTE_LOCK_KEY}) FROM unnest($1::text[]) AS k(key)`, [keys]);
  const recorded = new Map<string, string>((await em.query(
    `SELECT invoice_key AS key, min(id)::text AS id FROM record_return WHERE producer_id = $1 AND state = 'ACTIVE' AND invoice_key = ANY($2::text[]) GROUP BY 1`,
    [producerId, keys],
  )).map((r: { key: string; id: string }) => [r.key, r.id]));
  return keptOnce(returns, (r) => `${r.input.invoiceKey}|${r.at.item}`, (r) => recorded.get(r.input.invoiceKey!), 'nfe.returnRecorded', problems);
}

/**
 * An NF-e item is one purchase (migration PurchaseInvoiceItem): an item already recorded, or given
 * twice in the upload (the same note in a ZIP twice), is a problem of the upload, not a second lot.
 */
async function unrecordedItems(em: EntityManager, purchases: Planned['purchases'], problems: NfeProblems): Promise<Planned['purchases']> {
  const recorded = await recordedItems(em, purchases.map((p) => p.input));
  const itemOf = (p: Planned['purchases'][number]) => itemKeyOf(p.input);
  return keptOnce(purchases, itemOf, (p) => recorded.get(itemOf(p)), 'nfe.itemRecorded', problems);
}

/** The rows not recorded (`recordedAs` the id of the record they already are) and not given before in the upload. */
function keptOnce<T extends { at: NfeProblem }>(rows: T[], itemOf: (r: T) => string, recordedAs: (r: T) => string | undefined, recordedKey: 'nfe.itemRecorded' | 'nfe.returnRecorded', problems: NfeProblems): T[] {
  const kept: T[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const item = itemOf(r);
    const id = recordedAs(r);
    if (id !== undefined) problems.push({ ...r.at, reason: message(recordedKey, { id }) });
    else if (seen.has(item)) problems.push({ ...r.at, reason: message('nfe.itemTwice') });
    else kept.push(r);
    seen.add(item);
  }
  return kept;
}

function supplierOf(
  document: string | null, name: string, farmers: Map<string, string>, organizations: Map<string, { id: string; kind: string }>,
): Pick<RecordPurchaseInput, 'supplierKind' | 'familyFarmerId' | 'organizationId' | 'supplierName' | 'creditSupplier'> | Message {
  if (document?.length === 11) {
    const id = farmers.get(document);
    return id ? { supplierKind: SupplierKind.FAMILY_FARMER, familyFarmerId: id } : message('nfe.farmerUnknown', { cpf: document });
  }
  if (document?.length === 14) {
    const org = organizations.get(document);
    if (org) return { supplierKind: org.kind as SupplierKind, organizationId: org.id };
    // A CNPJ names a legal entity domiciled in Brazil: the supplier the credit needs (Lei 10.637/2002, art. 3º § 3º I).
    return { supplierKind: SupplierKind.THIRD_PARTY, supplierName: name || document, creditSupplier: CreditSupplier.COMPANY };
  }
  return message('nfe.noSupplierDocument');
}

/** finNFe 4, in the month of the return (docs/LAW.md, "Returns"). */
function planReturns(d: NfeNote, at: (item: number | null, reason?: Message) => NfeProblem, planned: Planned, problems: NfeProblems): void {
  if (d.referenced.length !== 1) { problems.push(at(null, message('nfe.returnReference'))); return; }
  const originalKey = d.referenced[0];
  for (const item of d.items) {
    if (item.ncm === BIODIESEL_NCM) {
      const volume = cubicMetres(item);
      if (!volume) { problems.push(at(item.number, message('nfe.unitNotVolume', { unit: item.unit }))); continue; }
      const wide = outOfBounds(item, volume, 'm³');
      if (wide) { problems.push(at(item.number, wide)); continue; }
      planned.returns.push({ input: { originalKey, saleId: `key:${originalKey}`, returnedOn: d.issuedOn, quantity: volume, value: netValue(item), invoiceKey: d.key }, at: at(item.number) });
      continue;
    }
    const feedstock = feedstockOf(item);
    const kg = kilograms(item);
    if (feedstock === null || !kg) { problems.push(at(item.number, message('nfe.returnNoMatch', { ncm: item.ncm, unit: item.unit }))); continue; }
    const wide = outOfBounds(item, kg, 'kg');
    if (wide) { problems.push(at(item.number, wide)); continue; }
    planned.returns.push({ input: { originalKey, purchaseId: `key:${originalKey}:${feedstock}`, returnedOn: d.issuedOn, quantity: kg, value: netValue(item), invoiceKey: d.key }, at: at(item.number) });
  }
}
