import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { message, Message, translate } from '../../i18n';
import { brazilDateOf } from '../../law/dates';
import { Decimal, outOfInputBounds } from '../../law/decimal';

/** One item (det) of an NF-e, as the layout writes it (MOC 4.00). */
export interface NfeItem {
  number: number;
  code: string;
  description: string;
  ncm: string;
  cfop: string;
  unit: string;
  quantity: string;
  value: string;
  /** The PIS/Pasep CST of the item (imposto/PIS/…/CST), read for the credits it decides. */
  pisCofinsCst: string | null;
  /** The Cofins CST of the item (imposto/COFINS/…/CST): the Cofins credit follows it, not the PIS/Pasep CST. */
  cofinsCst: string | null;
  /** The item's ICMS (imposto/ICMS/…/vICMS; 0 when its group states none), excluded from the credit's base (Lei 10.637/2002, art. 3º § 2º III); null without an ICMS group. */
  icmsValue: string | null;
  /** The item's CBS (imposto/IBSCBS/gIBSCBS/gCBS/vCBS, NT 2025.002), read for the credit of LC 214/2025, art. 47. */
  cbsValue: string | null;
  /** An import's declaration (prod/DI): its number and clearance date. */
  declaration: { number: string; clearedOn: string | null } | null;
  /** The item's unconditional discount (prod/vDesc; 0 without one), off its value (docs/LAW.md, "NF-e values"). */
  discount: string;
}

export interface NfeParty { document: string | null; foreign: boolean; name: string; municipalityCode: string | null }

export interface NfeNote {
  type: 'note';
  key: string;
  /** 0 entry, 1 exit (ide/tpNF). */
  direction: '0' | '1';
  /** 1 normal … 4 return (ide/finNFe). */
  purpose: string;
  issuedOn: string;
  issuer: NfeParty;
  recipient: NfeParty;
  referenced: string[];
  items: NfeItem[];
  /** The items (det) whose nItem is no item number: each that item's problem, the item not read. */
  badItemNumbers: Array<{ position: number; value: string }>;
  /** The ide fields the access key repeats (Ajuste SINIEF 07/2005, cl. 3ª), as written; '' when absent. */
  ide: { cUF: string; dhEmi: string; mod: string; serie: string; nNF: string; tpEmis: string; cNF: string; cDV: string };
  /** ide/tpAmb: 1 production, 2 homologation (a test note, of no legal effect). */
  environment: string;
  /** The authorization protocol's status (nfeProc/protNFe/infProt/cStat); null for a bare NFe with none. */
  protocolStatus: string | null;
}

export interface NfeCancellation {
  type: 'cancellation'; key: string; eventType: string;
  /** SEFAZ's answer to the event (retEvento/infEvento/cStat); null with none. */
  status: string | null;
}

export type NfeDocument = NfeNote | NfeCancellation;

/** Why a file is not an NF-e this import reads. */
export class NfeFileError extends Error {
  constructor(readonly text: Message) {
    super(translate(text));
  }
}

const MAX_NESTED_TAGS = 32;

/** An NF-e has at most 990 items (det/@nItem 1–990, MOC 4.00). */
const MAX_ITEMS = 990;

/** Items closed so far in the parse under way (parsing is synchronous: one at a time). */
let itemsRead = 0;

/** The items (det) the last parseNfe read, its note's or not (an upload's items are capped, archive.ts). */
export function itemsOfLastParse(): number {
  return itemsRead;
}

class TooManyItems extends Error {}

/**
 * fast-xml-parser with entity expansion off: no DOCTYPE is accepted at all (it is refused before
 * parsing), entities are left as text, and nesting is bounded. The XML signature is not verified;
 * the access key is (src/formats/nfe-key.ts).
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  htmlEntities: false,
  maxNestedTags: MAX_NESTED_TAGS,
  isArray: (name) => name === 'det' || name === 'NFref',
  // Called as each element closes: a file of more items than an NF-e has stops here, its items
  // past the 990th neither parsed nor built (a 2 MiB file of 20,000 items took 300 ms whole).
  updateTag: (name) => {
    if (name === 'det' && ++itemsRead > MAX_ITEMS) throw new TooManyItems();
    return name;
  },
});

/** The parser's tree, untyped: read only through the accessors below. */
type XmlNode = ReturnType<XMLParser['parse']>;

/**
 * The tree; whatever the validator or the parser refuses is the file's fault, never the server's: a
 * nesting deeper than any NF-e's (the validator does not bound it), a tag the parser will not build
 * because its name would reach an object's prototype (`__proto__`, `constructor`: "[SECURITY]").
 */
function parseTree(text: string): XmlNode {
  try {
    const valid = XMLValidator.validate(text);
    if (valid !== true) throw new NfeFileError(message('nfe.malformed', { detail: valid.err.msg, line: valid.err.line }));
    return parser.parse(text) as XmlNode;
  } catch (e) {
    if (e instanceof NfeFileError) throw e;
    if (e instanceof TooManyItems) throw new NfeFileError(message('nfe.tooManyItems', { max: MAX_ITEMS }));
    if (e instanceof Error && /nested tags/i.test(e.message)) throw new NfeFileError(message('nfe.tooDeep', { max: MAX_NESTED_TAGS }));
    throw new NfeFileError(message('nfe.unreadable', { detail: (e instanceof Error ? e.message : String(e)).slice(0, 200) }));
  }
}

export function parseNfe(bytes: Buffer): NfeDocument {
  itemsRead = 0;
  const text = bytes.toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new NfeFileError(message('nfe.doctype'));
  const root = parseTree(text);
  if (root.procEventoNFe) return cancellation(root.procEventoNFe);
  const nfe = root.nfeProc?.NFe ?? root.NFe;
  const inf = nfe?.infNFe;
  if (!inf) throw new NfeFileError(message('nfe.notNfe'));
  const key = String(inf['@Id'] ?? '').replace(/^NFe/, '');
  const protocolKey = root.nfeProc?.protNFe?.infProt?.chNFe;
  if (protocolKey !== undefined && String(protocolKey) !== key) throw new NfeFileError(message('nfe.protocolKey', { key, protocolKey: String(protocolKey) }));
  const ide = inf.ide ?? {};
  const badItemNumbers: NfeNote['badItemNumbers'] = [];
  const items: NfeItem[] = (inf.det ?? []).flatMap((det: XmlNode, index: number) => {
    // nItem is 1 to 990 (MOC 4.00, TnItem): anything else ("abc", "1.5", "3000000000") is that item's
    // problem, never a number the database is asked about.
    const nItem = String(det['@nItem'] ?? '').trim();
    if (!/^[1-9]\d{0,2}$/.test(nItem) || Number(nItem) > MAX_ITEMS) { badItemNumbers.push({ position: index + 1, value: nItem.slice(0, 40) }); return []; }
    const number = Number(nItem);
    const prod = det.prod ?? {};
    const [pis, cofins, icms] = [det.imposto?.PIS, det.imposto?.COFINS, det.imposto?.ICMS].map(taxGroup);
    const di = Array.isArray(prod.DI) ? prod.DI[0] : prod.DI;
    const cbs = det.imposto?.IBSCBS?.gIBSCBS?.gCBS?.vCBS;
    const value = decimalText(prod.vProd, 'vProd', number);
    return [{
      number,
      code: text0(prod.cProd), description: text0(prod.xProd), ncm: text0(prod.NCM), cfop: text0(prod.CFOP),
      unit: text0(prod.uCom).toUpperCase(), quantity: decimalText(prod.qCom, 'qCom', number), value,
      pisCofinsCst: cstText(pis), cofinsCst: cstText(cofins),
      icmsValue: icms === undefined ? null : icms.vICMS === undefined ? '0' : decimalText(icms.vICMS, 'vICMS', number),
      cbsValue: cbs === undefined ? null : decimalText(cbs, 'vCBS', number),
      declaration: di ? { number: text0(di.nDI), clearedOn: di.dDesemb ? text0(di.dDesemb).slice(0, 10) : null } : null,
      discount: discountOf(prod.vDesc, value, number),
    }];
  });
  return {
    type: 'note', key,
    direction: text0(ide.tpNF) === '0' ? '0' : '1',
    purpose: text0(ide.finNFe) || '1',
    // The tax month is Brazil's: dhEmi's instant on the calendar of America/Sao_Paulo.
    issuedOn: brazilDateOf(text0(ide.dhEmi ?? ide.dEmi)),
    issuer: party(inf.emit, inf.emit?.enderEmit),
    recipient: party(inf.dest, inf.dest?.enderDest),
    referenced: (ide.NFref ?? []).map((r: XmlNode) => text0(r.refNFe)).filter((k: string) => k !== ''),
    items,
    badItemNumbers,
    ide: {
      cUF: text0(ide.cUF), dhEmi: text0(ide.dhEmi ?? ide.dEmi), mod: text0(ide.mod), serie: text0(ide.serie),
      nNF: text0(ide.nNF), tpEmis: text0(ide.tpEmis), cNF: text0(ide.cNF), cDV: text0(ide.cDV),
    },
    environment: text0(ide.tpAmb),
    protocolStatus: root.nfeProc?.protNFe?.infProt?.cStat === undefined ? null : text0(root.nfeProc.protNFe.infProt.cStat),
  };
}

function cancellation(proc: XmlNode): NfeCancellation {
  const inf = proc.evento?.infEvento ?? {};
  const answer = proc.retEvento?.infEvento?.cStat;
  return { type: 'cancellation', key: text0(inf.chNFe), eventType: text0(inf.tpEvento), status: answer === undefined ? null : text0(answer) };
}

function party(node: XmlNode, address: XmlNode): NfeParty {
  const document = node?.CNPJ ?? node?.CPF;
  return {
    document: document === undefined ? null : text0(document),
    foreign: node?.idEstrangeiro !== undefined || (address?.cPais !== undefined && text0(address.cPais) !== '1058'),
    name: text0(node?.xNome),
    municipalityCode: address?.cMun === undefined ? null : text0(address.cMun),
  };
}

/** An item's vDesc; one past its vProd would make a value below zero, which no NF-e states. */
function discountOf(vDesc: unknown, value: string, item: number): string {
  if (vDesc === undefined) return '0';
  const discount = decimalText(vDesc, 'vDesc', item);
  if (new Decimal(discount).gt(value)) throw new NfeFileError(message('nfe.discountOverValue', { item, discount, value }));
  return discount;
}

/** A tax's group of an item (PIS: PISAliq, PISOutr…; ICMS: ICMS00…), the one the item states. */
function taxGroup(tax: unknown): Record<string, unknown> | undefined {
  return tax && typeof tax === 'object' ? Object.values(tax)[0] as Record<string, unknown> | undefined : undefined;
}

/** A group's CST as written; one stated twice is no code, its texts kept for the importer to refuse. */
function cstText(group: Record<string, unknown> | undefined): string | null {
  if (group?.CST === undefined) return null;
  return Array.isArray(group.CST) ? group.CST.map(text0).join(',') : text0(group.CST);
}

/** The layout's decimals (TDec_1104v, TDec_1302): digits, a point before the decimals; else the file is not an NF-e. */
function decimalText(value: unknown, field: string, item: number): string {
  const text = text0(value);
  if (!/^\d+(\.\d+)?$/.test(text) || outOfInputBounds(text)) throw new NfeFileError(message('nfe.badNumber', { item, field, value: text.slice(0, 40) }));
  return text;
}

function text0(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return String((value as Record<string, unknown>)['#text'] ?? '');
  return String(value).trim();
}
