import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { message, Message, translate } from '../../i18n';
import { brazilDateOf } from '../../law/dates';
import { Decimal, outOfInputBounds } from '../../law/decimal';
import { refusedText, TEXT_MAX } from '../../services/validation';

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

/** Why a file is not an NF-e this import reads; `key` and `item` place it in its note when known. */
export class NfeFileError extends Error {
  constructor(readonly text: Message, readonly key: string | null = null, readonly item: number | null = null) {
    super(translate(text));
  }
}

/** A text of the note that breaks the rules of every input's texts (docs/API.md, "Text lengths"), naming its field. */
class NfeTextError extends NfeFileError {
  /** The same, in note `key` and at item `item` (a place it names already is kept). */
  placed(key: string | null, item: number | null): NfeTextError {
    return new NfeTextError(this.text, this.key ?? key, this.item ?? item);
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
 * parsing), references are left as text and nesting is bounded. text0 reads the references XML 1.0
 * defines and refuses any other, naming it, where the parser's own processing would pass an unknown
 * one through as text or read HTML's. The XML signature is not verified; the access key is
 * (src/formats/nfe-key.ts).
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
  // Apart from the text beside it: a CDATA section is taken as written, its `&` no reference (text0).
  cdataPropName: '#cdata',
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
  const key = text0(inf['@Id'], 'infNFe/@Id').replace(/^NFe/, '');
  try {
    return note(root, inf, key);
  } catch (e) {
    throw e instanceof NfeTextError ? e.placed(key, null) : e;
  }
}

function note(root: XmlNode, inf: XmlNode, key: string): NfeNote {
  const protocolKey = root.nfeProc?.protNFe?.infProt?.chNFe;
  if (protocolKey !== undefined && text0(protocolKey, 'protNFe/infProt/chNFe') !== key) {
    throw new NfeFileError(message('nfe.protocolKey', { key, protocolKey: text0(protocolKey, 'protNFe/infProt/chNFe') }));
  }
  const ide = inf.ide ?? {};
  const badItemNumbers: NfeNote['badItemNumbers'] = [];
  const items: NfeItem[] = (inf.det ?? []).flatMap((det: XmlNode, index: number) => {
    // nItem is 1 to 990 (MOC 4.00, TnItem): anything else ("abc", "1.5", "3000000000") is that item's
    // problem, never a number the database is asked about.
    const nItem = text0(det['@nItem'], `det[${index + 1}]/@nItem`);
    if (!/^[1-9]\d{0,2}$/.test(nItem) || Number(nItem) > MAX_ITEMS) { badItemNumbers.push({ position: index + 1, value: nItem.slice(0, 40) }); return []; }
    const number = Number(nItem);
    try {
      return [item(det, number)];
    } catch (e) {
      throw e instanceof NfeTextError ? e.placed(null, number) : e;
    }
  });
  const dhEmi = ide.dhEmi === undefined && ide.dEmi !== undefined ? text0(ide.dEmi, 'ide/dEmi') : text0(ide.dhEmi, 'ide/dhEmi');
  return {
    type: 'note', key,
    direction: text0(ide.tpNF, 'ide/tpNF') === '0' ? '0' : '1',
    purpose: text0(ide.finNFe, 'ide/finNFe') || '1',
    // The tax month is Brazil's: dhEmi's instant on the calendar of America/Sao_Paulo.
    issuedOn: brazilDateOf(dhEmi),
    issuer: party(inf.emit, 'emit', 'enderEmit'),
    recipient: party(inf.dest, 'dest', 'enderDest'),
    referenced: (ide.NFref ?? []).map((r: XmlNode) => text0(r?.refNFe, 'ide/NFref/refNFe')).filter((k: string) => k !== ''),
    items,
    badItemNumbers,
    ide: {
      cUF: text0(ide.cUF, 'ide/cUF'), dhEmi, mod: text0(ide.mod, 'ide/mod'), serie: text0(ide.serie, 'ide/serie'),
      nNF: text0(ide.nNF, 'ide/nNF'), tpEmis: text0(ide.tpEmis, 'ide/tpEmis'), cNF: text0(ide.cNF, 'ide/cNF'), cDV: text0(ide.cDV, 'ide/cDV'),
    },
    environment: text0(ide.tpAmb, 'ide/tpAmb'),
    protocolStatus: root.nfeProc?.protNFe?.infProt?.cStat === undefined ? null : text0(root.nfeProc.protNFe.infProt.cStat, 'protNFe/infProt/cStat'),
  };
}

/** An item (det) numbered `number`; its texts' fields are named from det (prod/xProd). */
function item(det: XmlNode, number: number): NfeItem {
  const prod = det.prod ?? {};
  const [pis, cofins, icms] = [det.imposto?.PIS, det.imposto?.COFINS, det.imposto?.ICMS].map(taxGroup);
  const di = Array.isArray(prod.DI) ? prod.DI[0] : prod.DI;
  const cbs = det.imposto?.IBSCBS?.gIBSCBS?.gCBS?.vCBS;
  const value = decimalText(prod.vProd, 'vProd', number);
  return {
    number,
    code: text0(prod.cProd, 'prod/cProd'), description: text0(prod.xProd, 'prod/xProd', TEXT_MAX.long), ncm: text0(prod.NCM, 'prod/NCM'), cfop: text0(prod.CFOP, 'prod/CFOP'),
    unit: text0(prod.uCom, 'prod/uCom').toUpperCase(), quantity: decimalText(prod.qCom, 'qCom', number), value,
    pisCofinsCst: cstText(pis, 'imposto/PIS'), cofinsCst: cstText(cofins, 'imposto/COFINS'),
    icmsValue: icms === undefined ? null : icms.vICMS === undefined ? '0' : decimalText(icms.vICMS, 'vICMS', number),
    cbsValue: cbs === undefined ? null : decimalText(cbs, 'vCBS', number),
    declaration: di ? { number: text0(di.nDI, 'prod/DI/nDI'), clearedOn: di.dDesemb ? text0(di.dDesemb, 'prod/DI/dDesemb').slice(0, 10) : null } : null,
    discount: discountOf(prod.vDesc, value, number),
  };
}

function cancellation(proc: XmlNode): NfeCancellation {
  const inf = proc.evento?.infEvento ?? {};
  const answer = proc.retEvento?.infEvento?.cStat;
  return {
    type: 'cancellation', key: text0(inf.chNFe, 'evento/infEvento/chNFe'), eventType: text0(inf.tpEvento, 'evento/infEvento/tpEvento'),
    status: answer === undefined ? null : text0(answer, 'retEvento/infEvento/cStat'),
  };
}

/** emit or dest, and its address (enderEmit, enderDest). */
function party(node: XmlNode, name: 'emit' | 'dest', addressName: 'enderEmit' | 'enderDest'): NfeParty {
  const address = node?.[addressName];
  const document = node?.CNPJ === undefined ? node?.CPF === undefined ? undefined : text0(node.CPF, `${name}/CPF`) : text0(node.CNPJ, `${name}/CNPJ`);
  return {
    document: document ?? null,
    foreign: node?.idEstrangeiro !== undefined || (address?.cPais !== undefined && text0(address.cPais, `${name}/${addressName}/cPais`) !== '1058'),
    // The supplier's name of a purchase: a name, as `supplierName` (500).
    name: text0(node?.xNome, `${name}/xNome`, TEXT_MAX.name),
    municipalityCode: address?.cMun === undefined ? null : text0(address.cMun, `${name}/${addressName}/cMun`),
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
function cstText(group: Record<string, unknown> | undefined, tax: string): string | null {
  if (group?.CST === undefined) return null;
  return Array.isArray(group.CST) ? group.CST.map((cst) => text0(cst, `${tax}/CST`)).join(',') : text0(group.CST, `${tax}/CST`);
}

/** The layout's decimals (TDec_1104v, TDec_1302): digits, a point before the decimals; else the file is not an NF-e. */
function decimalText(value: unknown, field: string, item: number): string {
  const text = text0(value, field);
  if (!/^\d+(\.\d+)?$/.test(text) || outOfInputBounds(text)) throw new NfeFileError(message('nfe.badNumber', { item, field, value: text.slice(0, 40) }));
  return text;
}

/**
 * The text of an element or attribute read from the note, its references read (XML 1.0), refused
 * as the GraphQL input's texts are when it holds a control character or a direction override, or
 * is longer than `limit` (docs/API.md, "Text lengths"): `field` names it in the refusal.
 */
function text0(value: unknown, field: string, limit: number = TEXT_MAX.id): string {
  const text = cdataOf(value, field) ?? dereferenced(writtenText(value), field);
  const refused = refusedText(text, field, limit);
  if (refused) throw new NfeTextError(refused);
  return text;
}

function writtenText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return String((value as Record<string, unknown>)['#text'] ?? '').trim();
  return String(value).trim();
}

/** An element written as one CDATA section: its text as written. Text beside it, or a second one, would come out of the tree out of order. */
function cdataOf(value: unknown, field: string): string | null {
  const cdata = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)['#cdata'] : undefined;
  if (cdata === undefined) return null;
  if (typeof cdata !== 'string' || (value as Record<string, unknown>)['#text'] !== undefined) throw new NfeTextError(message('nfe.mixedCdata', { field }));
  return cdata.trim();
}

/** The predefined entities (XML 1.0, § 4.6): the only named references a document without a DTD may make. */
const PREDEFINED = new Map([['lt', '<'], ['gt', '>'], ['amp', '&'], ['apos', "'"], ['quot', '"']]);

/**
 * `text` with its references replaced (XML 1.0, § 4.1): the predefined entities, and character
 * references (`&#233;`, `&#xE9;`) to a character XML allows (§ 2.2: not NUL, not half of a
 * surrogate pair). Any other `&` makes no well-formed XML: a named entity needs a DOCTYPE, which
 * is refused unread (parseNfe), and a bare `&` is written `&amp;`.
 */
function dereferenced(text: string, field: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z_:][\w.:-]*)?;?/g, (reference: string, name: string | undefined) => {
    const character = name === undefined || !reference.endsWith(';') ? undefined
      : name.startsWith('#') ? xmlCharacter(name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10))
        : PREDEFINED.get(name);
    if (character === undefined) throw new NfeTextError(message('nfe.badReference', { field, reference: reference.slice(0, 20) }));
    return character;
  });
}

/** XML 1.0, § 2.2, Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
function xmlCharacter(code: number): string | undefined {
  const allowed = code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
  return allowed ? String.fromCodePoint(code) : undefined;
}
