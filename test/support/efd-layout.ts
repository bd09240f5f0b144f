import { Decimal } from '../../src/law/decimal';

/**
 * An EFD-Contribuições file checked against the layout of the Guia Prático da EFD-Contribuições
 * v1.35 (18/06/2021), written from the Guia's register tables and independent of the writer: the
 * registers this system may write, each with its level, parent, occurrence and fields (type C or N,
 * size — `*` exact —, decimals, required), then the file's cross-checks (CST and COD_CONT against
 * the rates, M210 from the C-level records — quantity × rate per m³, base × rate / 100 ad valorem —,
 * M200 from the M210s, the block and file counts).
 * `efdProblems` returns every problem found; an empty list is a file that passes.
 */

type Spec = string; // NAME TYPE SIZE DEC REQ, e.g. 'CNPJ N 14* - S'
interface Register { level: number; parent: string | null; once?: boolean; fields: Spec[] }

const OPEN = (_reg: string): Spec[] => [`REG C 4* - S`, `IND_MOV N 1* - S`];
const CLOSE = [`REG C 4* - S`, `QTD_LIN N - - S`];

/** The Guia's registers (v1.35), in the Guia's order; the order of this table is the order of the file. */
export const LAYOUT: Array<[string, Register]> = [
  ['0000', { level: 0, parent: null, once: true, fields: ['REG C 4* - S', 'COD_VER N 3* - S', 'TIPO_ESCRIT N 1* - S', 'IND_SIT_ESP N 1* - N', 'NUM_REC_ANTERIOR C 41* - N',
    'DT_INI D 8* - S', 'DT_FIN D 8* - S', 'NOME C 100 - S', 'CNPJ N 14* - S', 'UF C 2* - S', 'COD_MUN N 7* - S', 'SUFRAMA C 9* - N', 'IND_NAT_PJ N 2* - N', 'IND_ATIV N 1 - S'] }],
  ['0001', { level: 1, parent: '0000', once: true, fields: OPEN('0001') }],
  ['0100', { level: 2, parent: '0001', fields: ['REG C 4* - S', 'NOME C 100 - S', 'CPF N 11* - S', 'CRC C 15 - S', 'CNPJ N 14* - N', 'CEP N 8* - N', 'END C 60 - N', 'NUM C - - N',
    'COMPL C 60 - N', 'BAIRRO C 60 - N', 'FONE C 11 - N', 'FAX C 11 - N', 'EMAIL C - - N', 'COD_MUN N 7* - N'] }],
  ['0110', { level: 2, parent: '0001', once: true, fields: ['REG C 4* - S', 'COD_INC_TRIB N 1* - S', 'IND_APRO_CRED N 1* - N', 'COD_TIPO_CONT N 1* - N', 'IND_REG_CUM N 1* - N'] }],
  ['0111', { level: 3, parent: '0110', once: true, fields: ['REG C 4* - S', 'REC_BRU_NCUM_TRIB_MI N - 2 S', 'REC_BRU_NCUM_NT_MI N - 2 S', 'REC_BRU_NCUM_EXP N - 2 S', 'REC_BRU_CUM N - 2 S', 'REC_BRU_TOTAL N - 2 S'] }],
  ['0140', { level: 2, parent: '0001', fields: ['REG C 4* - S', 'COD_EST C 60 - N', 'NOME C 100 - S', 'CNPJ N 14* - S', 'UF C 2* - S', 'IE C 14 - N', 'COD_MUN N 7* - S', 'IM C - - N', 'SUFRAMA C 9* - N'] }],
  ['0150', { level: 3, parent: '0140', fields: ['REG C 4* - S', 'COD_PART C 60 - S', 'NOME C 100 - S', 'COD_PAIS N 5 - S', 'CNPJ N 14* - N', 'CPF N 11* - N', 'IE C 14 - N', 'COD_MUN N 7* - N',
    'SUFRAMA C 9* - N', 'END C 60 - N', 'NUM C - - N', 'COMPL C 60 - N', 'BAIRRO C 60 - N'] }],
  ['0190', { level: 3, parent: '0140', fields: ['REG C 4* - S', 'UNID C 6 - S', 'DESCR C - - S'] }],
  ['0200', { level: 3, parent: '0140', fields: ['REG C 4* - S', 'COD_ITEM C 60 - S', 'DESCR_ITEM C - - S', 'COD_BARRA C - - N', 'COD_ANT_ITEM C 60 - N', 'UNID_INV C 6 - N', 'TIPO_ITEM N 2* - S',
    'COD_NCM C 8 - N', 'EX_IPI C 3 - N', 'COD_GEN N 2* - N', 'COD_LST N 4 - N', 'ALIQ_ICMS N 6 2 N'] }],
  ['0990', { level: 1, parent: '0000', once: true, fields: CLOSE }],
  ['A001', { level: 1, parent: '0000', once: true, fields: OPEN('A001') }],
  ['A990', { level: 1, parent: '0000', once: true, fields: CLOSE }],
  ['C001', { level: 1, parent: '0000', once: true, fields: OPEN('C001') }],
  ['C010', { level: 2, parent: 'C001', fields: ['REG C 4* - S', 'CNPJ N 14* - S', 'IND_ESCRI N 1* - N'] }],
  ['C100', { level: 3, parent: 'C010', fields: [] }],
  ['C180', { level: 3, parent: 'C010', fields: ['REG C 4* - S', 'COD_MOD C 2* - S', 'DT_DOC_INI D 8* - S', 'DT_DOC_FIN D 8* - S', 'COD_ITEM C 60 - S', 'COD_NCM C 8* - N', 'EX_IPI C 3 - N', 'VL_TOT_ITEM N - 2 S'] }],
  ['C181', { level: 4, parent: 'C180', fields: ['REG C 4* - S', 'CST_PIS N 2* - S', 'CFOP N 4* - S', 'VL_ITEM N - 2 S', 'VL_DESC N - 2 N', 'VL_BC_PIS N - 2 N', 'ALIQ_PIS N 8 4 N',
    'QUANT_BC_PIS N - 3 N', 'ALIQ_PIS_QUANT N - 4 N', 'VL_PIS N - 2 N', 'COD_CTA C 255 - N'] }],
  ['C185', { level: 4, parent: 'C180', fields: ['REG C 4* - S', 'CST_COFINS N 2* - S', 'CFOP N 4* - S', 'VL_ITEM N - 2 S', 'VL_DESC N - 2 N', 'VL_BC_COFINS N - 2 N', 'ALIQ_COFINS N 8 4 N',
    'QUANT_BC_COFINS N - 3 N', 'ALIQ_COFINS_QUANT N - 4 N', 'VL_COFINS N - 2 N', 'COD_CTA C 255 - N'] }],
  ['C190', { level: 3, parent: 'C010', fields: ['REG C 4* - S', 'COD_MOD C 2* - S', 'DT_REF_INI D 8* - S', 'DT_REF_FIN D 8* - S', 'COD_ITEM C 60 - S', 'COD_NCM C 8* - N', 'EX_IPI C 3 - N', 'VL_TOT_ITEM N - 2 S'] }],
  ['C191', { level: 4, parent: 'C190', fields: ['REG C 4* - S', 'CNPJ_CPF_PART C 14 - N', 'CST_PIS N 2* - S', 'CFOP N 4* - S', 'VL_ITEM N - 2 S', 'VL_DESC N - 2 N', 'VL_BC_PIS N - 2 N', 'ALIQ_PIS N 8 4 N',
    'QUANT_BC_PIS N - 3 N', 'ALIQ_PIS_QUANT N - 4 N', 'VL_PIS N - 2 N', 'COD_CTA C 255 - N'] }],
  ['C195', { level: 4, parent: 'C190', fields: ['REG C 4* - S', 'CNPJ_CPF_PART C 14 - N', 'CST_COFINS N 2* - S', 'CFOP N 4* - S', 'VL_ITEM N - 2 S', 'VL_DESC N - 2 N', 'VL_BC_COFINS N - 2 N', 'ALIQ_COFINS N 8 4 N',
    'QUANT_BC_COFINS N - 3 N', 'ALIQ_COFINS_QUANT N - 4 N', 'VL_COFINS N - 2 N', 'COD_CTA C 255 - N'] }],
  ['C990', { level: 1, parent: '0000', once: true, fields: CLOSE }],
  ['D001', { level: 1, parent: '0000', once: true, fields: OPEN('D001') }],
  ['D990', { level: 1, parent: '0000', once: true, fields: CLOSE }],
  ['F001', { level: 1, parent: '0000', once: true, fields: OPEN('F001') }],
  ['F990', { level: 1, parent: '0000', once: true, fields: CLOSE }],
  ['I001', { level: 1, parent: '0000', once: true, fields: OPEN('I001') }],
  ['I990', { level: 1, parent: '0000', once: true, fields: CLOSE }],
  ['M001', { level: 1, parent: '0000', once: true, fields: OPEN('M001') }],
  ['M100', { level: 2, parent: 'M001', fields: ['REG C 4* - S', 'COD_CRED C 3* - S', 'IND_CRED_ORI N 1* - S', 'VL_BC_PIS N - 2 N', 'ALIQ_PIS N 8 4 N', 'QUANT_BC_PIS N - 3 N',
    'ALIQ_PIS_QUANT N - 4 N', 'VL_CRED N - 2 S', 'VL_AJUS_ACRES N - 2 S', 'VL_AJUS_REDUC N - 2 S', 'VL_CRED_DIF N - 2 S', 'VL_CRED_DISP N - 2 S', 'IND_DESC_CRED C 1* - S',
    'VL_CRED_DESC N - 2 N', 'SLD_CRED N - 2 S'] }],
  ['M105', { level: 3, parent: 'M100', fields: ['REG C 4* - S', 'NAT_BC_CRED C 2* - S', 'CST_PIS N 2* - S', 'VL_BC_PIS_TOT N - 2 N', 'VL_BC_PIS_CUM N - 2 N',
    'VL_BC_PIS_NC N - 2 N', 'VL_BC_PIS N - 2 N', 'QUANT_BC_PIS_TOT N - 3 N', 'QUANT_BC_PIS N - 3 N', 'DESC_CRED C 60 - N'] }],
  ['M110', { level: 3, parent: 'M100', fields: ['REG C 4* - S', 'IND_AJ C 1* - S', 'VL_AJ N - 2 S', 'COD_AJ C 2* - S', 'NUM_DOC C - - N', 'DESCR_AJ C - - N', 'DT_REF D 8* - N'] }],
  ['M200', { level: 2, parent: 'M001', once: true, fields: ['REG C 4* - S', ...['VL_TOT_CONT_NC_PER', 'VL_TOT_CRED_DESC', 'VL_TOT_CRED_DESC_ANT', 'VL_TOT_CONT_NC_DEV', 'VL_RET_NC', 'VL_OUT_DED_NC',
    'VL_CONT_NC_REC', 'VL_TOT_CONT_CUM_PER', 'VL_RET_CUM', 'VL_OUT_DED_CUM', 'VL_CONT_CUM_REC', 'VL_TOT_CONT_REC'].map((f) => `${f} N - 2 S`)] }],
  ['M205', { level: 3, parent: 'M200', fields: ['REG C 4* - S', 'NUM_CAMPO C 2* - S', 'COD_REC C 6* - S', 'VL_DEBITO N - 2 S'] }],
  ['M210', { level: 3, parent: 'M200', fields: ['REG C 4* - S', 'COD_CONT C 2* - S', 'VL_REC_BRT N - 2 S', 'VL_BC_CONT N - 2 S', 'VL_AJUS_ACRES_BC_PIS N - 2 S', 'VL_AJUS_REDUC_BC_PIS N - 2 S',
    'VL_BC_CONT_AJUS N - 2 S', 'ALIQ_PIS N 8 4 N', 'QUANT_BC_PIS N - 3 N', 'ALIQ_PIS_QUANT N - 4 N', 'VL_CONT_APUR N - 2 S', 'VL_AJUS_ACRES N - 2 S', 'VL_AJUS_REDUC N - 2 S',
    'VL_CONT_DIFER N - 2 N', 'VL_CONT_DIFER_ANT N - 2 N', 'VL_CONT_PER N - 2 S'] }],
  ['M220', { level: 4, parent: 'M210', fields: ['REG C 4* - S', 'IND_AJ C 1* - S', 'VL_AJ N - 2 S', 'COD_AJ C 2* - S', 'NUM_DOC C - - N', 'DESCR_AJ C - - N', 'DT_REF D 8* - N'] }],
  ['M400', { level: 2, parent: 'M001', fields: ['REG C 4* - S', 'CST_PIS C 2* - S', 'VL_TOT_REC N - 2 S', 'COD_CTA C 255 - N', 'DESC_COMPL C - - N'] }],
  ['M410', { level: 3, parent: 'M400', fields: ['REG C 4* - S', 'NAT_REC C 3* - S', 'VL_REC N - 2 S', 'COD_CTA C 255 - N', 'DESC_COMPL C - - N'] }],
  ['M500', { level: 2, parent: 'M001', fields: ['REG C 4* - S', 'COD_CRED C 3* - S', 'IND_CRED_ORI N 1* - S', 'VL_BC_COFINS N - 2 N', 'ALIQ_COFINS N 8 4 N', 'QUANT_BC_COFINS N - 3 N',
    'ALIQ_COFINS_QUANT N - 4 N', 'VL_CRED N - 2 S', 'VL_AJUS_ACRES N - 2 S', 'VL_AJUS_REDUC N - 2 S', 'VL_CRED_DIF N - 2 S', 'VL_CRED_DISP N - 2 S', 'IND_DESC_CRED C 1* - S',
    'VL_CRED_DESC N - 2 N', 'SLD_CRED N - 2 S'] }],
  ['M505', { level: 3, parent: 'M500', fields: ['REG C 4* - S', 'NAT_BC_CRED C 2* - S', 'CST_COFINS N 2* - S', 'VL_BC_COFINS_TOT N - 2 N', 'VL_BC_COFINS_CUM N - 2 N',
    'VL_BC_COFINS_NC N - 2 N', 'VL_BC_COFINS N - 2 N', 'QUANT_BC_COFINS_TOT N - 3 N', 'QUANT_BC_COFINS N - 3 N', 'DESC_CRED C 60 - N'] }],
  ['M510', { level: 3, parent: 'M500', fields: ['REG C 4* - S', 'IND_AJ C 1* - S', 'VL_AJ N - 2 S', 'COD_AJ C 2* - S', 'NUM_DOC C - - N', 'DESCR_AJ C - - N', 'DT_REF D 8* - N'] }],
  ['M600', { level: 2, parent: 'M001', once: true, fields: ['REG C 4* - S', ...['VL_TOT_CONT_NC_PER', 'VL_TOT_CRED_DESC', 'VL_TOT_CRED_DESC_ANT', 'VL_TOT_CONT_NC_DEV', 'VL_RET_NC', 'VL_OUT_DED_NC',
    'VL_CONT_NC_REC', 'VL_TOT_CONT_CUM_PER', 'VL_RET_CUM', 'VL_OUT_DED_CUM', 'VL_CONT_CUM_REC', 'VL_TOT_CONT_REC'].map((f) => `${f} N - 2 S`)] }],
  ['M605', { level: 3, parent: 'M600', fields: ['REG C 4* - S', 'NUM_CAMPO C 2* - S', 'COD_REC C 6* - S', 'VL_DEBITO N - 2 S'] }],
  ['M610', { level: 3, parent: 'M600', fields: ['REG C 4* - S', 'COD_CONT C 2* - S', 'VL_REC_BRT N - 2 S', 'VL_BC_CONT N - 2 S', 'VL_AJUS_ACRES_BC_COFINS N - 2 S', 'VL_AJUS_REDUC_BC_COFINS N - 2 S',
    'VL_BC_CONT_AJUS N - 2 S', 'ALIQ_COFINS N 8 4 N', 'QUANT_BC_COFINS N - 3 N', 'ALIQ_COFINS_QUANT N - 4 N', 'VL_CONT_APUR N - 2 S', 'VL_AJUS_ACRES N - 2 S', 'VL_AJUS_REDUC N - 2 S',
    'VL_CONT_DIFER N - 2 N', 'VL_CONT_DIFER_ANT N - 2 N', 'VL_CONT_PER N - 2 S'] }],
  ['M620', { level: 4, parent: 'M610', fields: ['REG C 4* - S', 'IND_AJ C 1* - S', 'VL_AJ N - 2 S', 'COD_AJ C 2* - S', 'NUM_DOC C - - N', 'DESCR_AJ C - - N', 'DT_REF D 8* - N'] }],
  ['M800', { level: 2, parent: 'M001', fields: ['REG C 4* - S', 'CST_COFINS C 2* - S', 'VL_TOT_REC N - 2 S', 'COD_CTA C 255 - N', 'DESC_COMPL C - - N'] }],
  ['M810', { level: 3, parent: 'M800', fields: ['REG C 4* - S', 'NAT_REC C 3* - S', 'VL_REC N - 2 S', 'COD_CTA C 255 - N', 'DESC_COMPL C - - N'] }],
  ['M990', { level: 1, parent: '0000', once: true, fields: CLOSE }],
  ['1001', { level: 1, parent: '0000', once: true, fields: OPEN('1001') }],
  ['1100', { level: 2, parent: '1001', fields: ['REG C 4* - S', 'PER_APU_CRED N 6 - S', 'ORIG_CRED N 2* - S', 'CNPJ_SUC N 14* - N', 'COD_CRED N 3* - S', 'VL_CRED_APU N - 2 S',
    'VL_CRED_EXT_APU N - 2 N', 'VL_TOT_CRED_APU N - 2 S', 'VL_CRED_DESC_PA_ANT N - 2 S', 'VL_CRED_PER_PA_ANT N - 2 N', 'VL_CRED_DCOMP_PA_ANT N - 2 N', 'SD_CRED_DISP_EFD N - 2 S',
    'VL_CRED_DESC_EFD N - 2 N', 'VL_CRED_PER_EFD N - 2 N', 'VL_CRED_DCOMP_EFD N - 2 N', 'VL_CRED_TRANS N - 2 N', 'VL_CRED_OUT N - 2 N', 'SLD_CRED_FIM N - 2 N'] }],
  ['1500', { level: 2, parent: '1001', fields: ['REG C 4* - S', 'PER_APU_CRED N 6 - S', 'ORIG_CRED N 2* - S', 'CNPJ_SUC N 14* - N', 'COD_CRED N 3* - S', 'VL_CRED_APU N - 2 S',
    'VL_CRED_EXT_APU N - 2 N', 'VL_TOT_CRED_APU N - 2 S', 'VL_CRED_DESC_PA_ANT N - 2 S', 'VL_CRED_PER_PA_ANT N - 2 N', 'VL_CRED_DCOMP_PA_ANT N - 2 N', 'SD_CRED_DISP_EFD N - 2 S',
    'VL_CRED_DESC_EFD N - 2 N', 'VL_CRED_PER_EFD N - 2 N', 'VL_CRED_DCOMP_EFD N - 2 N', 'VL_CRED_TRANS N - 2 N', 'VL_CRED_OUT N - 2 N', 'SLD_CRED_FIM N - 2 N'] }],
  ['1990', { level: 1, parent: '0000', once: true, fields: CLOSE }],
  ['9001', { level: 1, parent: '0000', once: true, fields: OPEN('9001') }],
  ['9900', { level: 2, parent: '9001', fields: ['REG C 4* - S', 'REG_BLC C 4* - S', 'QTD_REG_BLC N - - S'] }],
  ['9990', { level: 1, parent: '0000', once: true, fields: CLOSE }],
  ['9999', { level: 0, parent: null, once: true, fields: CLOSE }],
];
const REGISTERS = new Map(LAYOUT);
const RANK = new Map(LAYOUT.map(([r], i) => [r, i]));
/** Blocks whose opening and closing records every file carries (the Guia, 2.4: block P only for the CPRB). */
const MANDATORY = ['0000', '0001', '0100', '0110', '0140', '0990', 'A001', 'A990', 'C001', 'C990', 'D001', 'D990', 'F001', 'F990', 'I001', 'I990', 'M001', 'M990', '1001', '1990', '9001', '9900', '9990', '9999'];

const num = (t: string) => new Decimal(t.replace(',', '.'));
const validDate = (t: string) => {
  if (!/^\d{8}$/.test(t)) return false;
  const d = new Date(Date.UTC(+t.slice(4), +t.slice(2, 4) - 1, +t.slice(0, 2)));
  return d.getUTCDate() === +t.slice(0, 2) && d.getUTCMonth() === +t.slice(2, 4) - 1;
};

function fieldProblem(spec: Spec, value: string): string | null {
  const [name, type, size, dec, req] = spec.split(' ');
  if (value === '') return req === 'S' ? `${name} is required` : null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f|]/.test(value)) return `${name} holds a control character or a pipe`;
  if (size !== '-') {
    const n = Number(size.replace('*', ''));
    if (size.endsWith('*') ? value.length !== n : value.length > n) return `${name} "${value}" is not ${size.endsWith('*') ? 'exactly' : 'at most'} ${n} characters`;
  }
  if (type === 'D' && !validDate(value)) return `${name} "${value}" is no date DDMMAAAA`;
  if (type === 'N') {
    const re = dec === '-' ? /^\d+$/ : new RegExp(`^-?\\d+(,\\d{1,${dec}})?$`);
    if (!re.test(value)) return `${name} "${value}" is no number with ${dec === '-' ? 'no' : `up to ${dec}`} decimals (decimal comma)`;
  }
  return null;
}

export interface EfdRecord { line: number; reg: string; f: string[]; parent: EfdRecord | null }

/** The file's records, each with its parent by the Guia's hierarchy (null where the hierarchy is broken). */
export function efdRecords(text: string): EfdRecord[] {
  const lines = text.split('\r\n');
  lines.pop();
  const stack: EfdRecord[] = [];
  return lines.map((l, i) => {
    const f = l.split('|').slice(1, -1);
    const reg = f[0];
    const spec = REGISTERS.get(reg);
    while (spec && stack.length && REGISTERS.get(stack[stack.length - 1].reg)!.level >= spec.level) stack.pop();
    const top = stack[stack.length - 1] ?? null;
    const rec = { line: i + 1, reg, f, parent: spec?.parent && top?.reg === spec.parent ? top : null };
    if (spec) stack.push(rec);
    return rec;
  });
}

/** Every layout problem of an EFD-Contribuições file (bytes as the PVA reads them: ISO-8859-1). */
export function efdProblems(body: Buffer): string[] {
  const problems: string[] = [];
  const text = body.toString('latin1');
  if (!text.endsWith('\r\n')) problems.push('the file does not end with CRLF');
  if (/\r(?!\n)|(?<!\r)\n/.test(text)) problems.push('a line break other than CRLF');
  const records = efdRecords(text);
  const by = (reg: string) => records.filter((r) => r.reg === reg);
  let lastRank = -1;
  for (const r of records) {
    const at = `line ${r.line} (${r.reg})`;
    const raw = text.split('\r\n')[r.line - 1];
    if (!raw.startsWith('|') || !raw.endsWith('|')) problems.push(`${at}: not a |-delimited record`);
    const spec = REGISTERS.get(r.reg);
    if (!spec) { problems.push(`${at}: unknown register`); continue; }
    if (spec.parent && !r.parent) problems.push(`${at}: not under ${spec.parent}`);
    const rank = RANK.get(r.reg)!;
    // The Guia's order: a register never follows one of a later rank, except a child's sequence restarting under a new parent.
    if (rank < lastRank && !(spec.level >= 2 && records[r.line - 2] && REGISTERS.get(records[r.line - 2].reg)!.level >= spec.level)) problems.push(`${at}: out of the Guia's order`);
    lastRank = rank;
    if (r.f.length !== spec.fields.length) { problems.push(`${at}: ${r.f.length} fields, the layout has ${spec.fields.length}`); continue; }
    spec.fields.forEach((s, i) => {
      // A revenue-nature code not found in a source is left empty, and DESC_COMPL says so (docs/LAW.md).
      if ((r.reg === 'M410' || r.reg === 'M810') && i === 1 && r.f[1] === '' && r.f[4].startsWith('NAT_REC EM ABERTO')) return;
      const p = fieldProblem(s, r.f[i]);
      if (p) problems.push(`${at}: field ${String(i + 1).padStart(2, '0')} ${p}`);
    });
  }
  // 0000 field 08: "serão aceitos apenas os seguintes caracteres" (letters without accents, digits, space and /,.-@:&*+_<>()!?'$%).
  const nome = by('0000')[0]?.f[7];
  if (nome !== undefined && !/^[a-zA-Z0-9 /,.\-@:&*+_<>()!?'$%]*$/.test(nome)) problems.push(`0000 NOME "${nome}" holds a character its validation refuses`);
  for (const [reg, spec] of LAYOUT) if (spec.once && by(reg).length > 1) problems.push(`${reg} occurs ${by(reg).length} times, once per file`);
  for (const reg of MANDATORY) if (!by(reg).length) problems.push(`${reg} is missing`);
  if (records[0]?.reg !== '0000') problems.push('the first record is not 0000');
  if (records[records.length - 1]?.reg !== '9999') problems.push('the last record is not 9999');
  if (problems.length) return problems;

  // Block counts: X990 = lines of its block; 9900 = the records of each register; 9999 = the file's lines.
  for (const close of records.filter((r) => /^.990$/.test(r.reg))) {
    const block = close.reg[0];
    // The Guia (9990 field 02): 9999 counts in block 9.
    const lines = records.filter((r) => r.reg[0] === block).length;
    if (Number(close.f[1]) !== lines) problems.push(`${close.reg} says ${close.f[1]} lines, the block has ${lines}`);
  }
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.reg, (counts.get(r.reg) ?? 0) + 1);
  const told = new Map(by('9900').map((r) => [r.f[1], Number(r.f[2])]));
  for (const [reg, n] of counts) if (told.get(reg) !== n) problems.push(`9900 of ${reg} says ${told.get(reg)}, the file has ${n}`);
  for (const reg of told.keys()) if (!counts.has(reg)) problems.push(`9900 of ${reg}, which the file does not hold`);
  if (Number(by('9999')[0].f[1]) !== records.length) problems.push(`9999 says ${by('9999')[0].f[1]}, the file has ${records.length} lines`);
  for (const open of records.filter((r) => /^.001$/.test(r.reg))) {
    const inBlock = records.filter((r) => r.reg[0] === open.reg[0] && !/^.(001|990)$/.test(r.reg) && r.reg !== '9999').length;
    if ((open.f[1] === '1') !== (inBlock === 0)) problems.push(`${open.reg} IND_MOV ${open.f[1]} with ${inBlock} records in the block`);
  }

  // Contributions: CST and COD_CONT against the rates, M210 rebuilt from the C-level records, M200 from the M210s.
  // Table 4.3.5: 03/53 per unit of product, 02/52 differentiated percentage rates (the ad valorem regime, CST 02).
  const incidence = by('0110')[0].f[1];
  const codCont = incidence === '2' ? '53' : '03';
  const codContAdValorem = incidence === '2' ? '52' : '02';
  const pct = (base: string, rate: string) => num(base).times(num(rate)).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
  for (const [c, m, total, adj, zero, zeroDetail, rev] of [['C181', 'M210', 'M200', 'M220', 'M400', 'M410', 'PIS'], ['C185', 'M610', 'M600', 'M620', 'M800', 'M810', 'COFINS']]) {
    const cLines = by(c);
    for (const l of cLines) {
      const [cst, , item, desc, bc, aliq, q, rate, value] = l.f.slice(1);
      const at = `line ${l.line} (${c})`;
      if (cst === '03' && !(q && rate && num(rate).gt(0))) problems.push(`${at}: CST 03 without a quantity and a rate above zero`);
      if (cst === '03' && (bc !== '' || aliq !== '')) problems.push(`${at}: CST 03 with a value base or a percentage rate`);
      if (cst === '06' && !(rate === '' || num(rate).isZero())) problems.push(`${at}: CST 06 with a rate above zero`);
      if (cst === '08' && (q !== '' || rate !== '' || bc !== '' || aliq !== '' || !num(value || '0').isZero())) problems.push(`${at}: CST 08 with a base, rate or contribution`);
      if (!['02', '03', '06', '08'].includes(cst)) problems.push(`${at}: CST ${cst} is not one of this file's (02, 03, 06, 08)`);
      if (cst === '03' && !num(value).eq(num(q).times(num(rate)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN))) problems.push(`${at}: VL_${rev} is not quantity × rate`);
      if (cst === '02') {
        // Differentiated percentage rates: a value base and a rate in percent, no quantity; VL = VL_BC × ALIQ / 100.
        if (!(bc && aliq && num(aliq).gt(0)) || q !== '' || rate !== '') problems.push(`${at}: CST 02 without a value base and a percentage rate above zero, or with a quantity`);
        else if (!num(value).eq(pct(bc, aliq))) problems.push(`${at}: VL_${rev} is not VL_BC × ALIQ / 100`);
        if (bc && !num(bc).eq(num(item).minus(num(desc || '0')))) problems.push(`${at}: VL_BC_${rev} is not VL_ITEM − VL_DESC`);
      }
    }
    // One regime per month (Lei 11.116/2005, art. 4º §1º: the election governs the calendar year): never CST 02 beside CST 03.
    if (cLines.some((x) => x.f[1] === '02') && cLines.some((x) => x.f[1] === '03')) problems.push(`${c}: CST 02 (ad valorem) and CST 03 (per m³) in one month`);
    // C181/C185: one record per CST, CFOP and rate under its C180 (the Guia: "detalhamento por CST, CFOP e Alíquotas").
    const keys = new Set<string>();
    for (const l of cLines) {
      const k = [l.parent?.line, l.f[1], l.f[2], l.f[6], l.f[8]].join('|');
      if (keys.has(k)) problems.push(`line ${l.line} (${c}): a second record of CST ${l.f[1]}, CFOP ${l.f[2]} and rate ${l.f[8] || l.f[6]} under its C180`);
      keys.add(k);
    }
    const mLines = by(m);
    for (const l of mLines) {
      const at = `line ${l.line} (${m})`;
      const [cod, revenue, bc, bcUp, bcDown, bcAdj, aliq, q, rate, apur, up, down, difer, diferAnt, per] = l.f.slice(1);
      if (aliq !== '') {
        // Ad valorem (COD_CONT 02/52): VL_BC_CONT and VL_REC_BRT the C-level sums of CST 02 at its rate; 07 = 04 + 05 − 06; 11 = 07 × 08 / 100.
        if (cod !== codContAdValorem) problems.push(`${at}: COD_CONT ${cod} with a percentage rate, the 0110 regime asks ${codContAdValorem}`);
        if (!num(aliq).gt(0) || q !== '' || rate !== '') problems.push(`${at}: COD_CONT ${cod} needs a percentage rate above zero and no quantity`);
        const same = cLines.filter((x) => x.f[1] === '02' && x.f[6] && num(x.f[6]).eq(num(aliq)));
        const sumBc = same.reduce((s, x) => s.plus(num(x.f[5])), new Decimal(0));
        if (!sumBc.eq(num(bc))) problems.push(`${at}: VL_BC_CONT ${bc}, the ${c} records of CST 02 at ${aliq} sum ${sumBc.toFixed(2)}`);
        const sumRev = same.reduce((s, x) => s.plus(num(x.f[3])), new Decimal(0));
        if (!sumRev.eq(num(revenue))) problems.push(`${at}: VL_REC_BRT ${revenue}, the ${c} records sum ${sumRev.toFixed(2)}`);
        if (!num(bcAdj).eq(num(bc).plus(num(bcUp)).minus(num(bcDown)))) problems.push(`${at}: VL_BC_CONT_AJUS is not 04 + 05 − 06`);
        if (!num(apur).eq(pct(bcAdj, aliq))) problems.push(`${at}: VL_CONT_APUR is not VL_BC_CONT_AJUS × ALIQ / 100`);
      } else {
        if (cod !== codCont) problems.push(`${at}: COD_CONT ${cod}, the 0110 regime asks ${codCont}`);
        if (!(rate && num(rate).gt(0))) problems.push(`${at}: COD_CONT ${cod} needs a per-unit rate above zero`);
        const same = cLines.filter((x) => x.f[1] === '03' && x.f[8] && num(x.f[8]).eq(num(rate)));
        const sumQ = same.reduce((s, x) => s.plus(num(x.f[7])), new Decimal(0));
        if (!sumQ.eq(num(q))) problems.push(`${at}: quantity ${q}, the ${c} records of CST 03 at ${rate} sum ${sumQ.toFixed(3)}`);
        const sumRev = same.reduce((s, x) => s.plus(num(x.f[3])), new Decimal(0));
        if (!sumRev.eq(num(revenue))) problems.push(`${at}: VL_REC_BRT ${revenue}, the ${c} records sum ${sumRev.toFixed(2)}`);
        if (!num(apur).eq(num(q).times(num(rate)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN))) problems.push(`${at}: VL_CONT_APUR is not quantity × rate`);
      }
      if (!num(per).eq(num(apur).plus(num(up)).minus(num(down)).minus(num(difer || '0')).plus(num(diferAnt || '0')))) problems.push(`${at}: VL_CONT_PER is not 11 + 12 − 13 − 14 + 15`);
      const adjusts = records.filter((x) => x.reg === adj && x.parent === l);
      const sumAdj = (ind: string) => adjusts.filter((x) => x.f[1] === ind).reduce((s, x) => s.plus(num(x.f[2])), new Decimal(0));
      if (!sumAdj('1').eq(num(up)) || !sumAdj('0').eq(num(down))) problems.push(`${at}: the adjustments are not its ${adj} records`);
    }
    const rates = cLines.filter((x) => x.f[1] === '03').map((x) => num(x.f[8]).toFixed(4));
    for (const r of new Set(rates)) if (!mLines.some((l) => l.f[9] !== '' && num(l.f[9]).toFixed(4) === r)) problems.push(`${m}: no record for the ${c} rate ${r}`);
    const percents = cLines.filter((x) => x.f[1] === '02' && x.f[6]).map((x) => num(x.f[6]).toFixed(4));
    for (const r of new Set(percents)) if (!mLines.some((l) => l.f[7] !== '' && num(l.f[7]).toFixed(4) === r)) problems.push(`${m}: no record for the ${c} rate ${r} %`);
    const t = by(total)[0].f.slice(1).map(num);
    const sumM = mLines.reduce((s, l) => s.plus(num(l.f[15])), new Decimal(0));
    const [nc, , , ncDev, , , ncRec, cum, , , cumRec, all] = t;
    if (!(incidence === '2' ? cum : nc).eq(sumM) || !(incidence === '2' ? nc : cum).isZero()) problems.push(`${total}: the ${incidence === '2' ? 'cumulative' : 'non-cumulative'} total is not the ${m} sum ${sumM.toFixed(2)}`);
    if (!ncDev.eq(nc.minus(t[1]).minus(t[2])) || !ncRec.eq(ncDev.minus(t[4]).minus(t[5])) || !cumRec.eq(cum.minus(t[8]).minus(t[9])) || !all.eq(ncRec.plus(cumRec))) problems.push(`${total}: its fields do not add up`);
    const detail = records.filter((x) => x.reg === `${total.slice(0, 2)}05`);
    for (const [field, value] of [['08', ncRec], ['12', cumRec]] as const) {
      const d = detail.filter((x) => x.f[1] === field).reduce((s, x) => s.plus(num(x.f[3])), new Decimal(0));
      if (!d.eq(value)) problems.push(`${total.slice(0, 2)}05 of field ${field}: ${d.toFixed(2)}, ${total} says ${value.toFixed(2)}`);
    }
    for (const z of by(zero)) {
      const fromC = cLines.filter((x) => x.f[1] === z.f[1]).reduce((s, x) => s.plus(num(x.f[3])), new Decimal(0));
      if (!fromC.eq(num(z.f[2]))) problems.push(`line ${z.line} (${zero}): CST ${z.f[1]} revenue ${z.f[2]}, the ${c} records sum ${fromC.toFixed(2)}`);
      const kids = records.filter((x) => x.reg === zeroDetail && x.parent === z);
      if (!kids.reduce((s, x) => s.plus(num(x.f[2])), new Decimal(0)).eq(num(z.f[2]))) problems.push(`line ${z.line} (${zero}): its ${zeroDetail} records do not sum its revenue`);
    }
    for (const cst of new Set(cLines.map((x) => x.f[1]).filter((x) => x !== '03' && x !== '02'))) if (!by(zero).some((z) => z.f[1] === cst)) problems.push(`${zero}: no record for CST ${cst}`);
  }
  // Credits: M100/M500 fields add up, M105/M505 carry their base, M200/M600 field 03 is the M100/M500 field 14 sum; 1100/1500 fields add up, Σ field 13 is M200/M600 field 04
  // (earlier periods), and the period's own line carries its M100/M500 field 14 in field 09 with field 13 zero.
  for (const [credit, detail, total, control, adjust] of [['M100', 'M105', 'M200', '1100', 'M110'], ['M500', 'M505', 'M600', '1500', 'M510']]) {
    for (const l of by(credit)) {
      const [, , bc, , , , cred, up, down, dif, disp, ind, desc, sld] = l.f.slice(1);
      const at = `line ${l.line} (${credit})`;
      // Fields 09 and 10 are the sums of its M110/M510 of IND_AJ 1 and 0.
      const adjusts = records.filter((x) => x.reg === adjust && x.parent === l);
      const sumAdj = (i: string) => adjusts.filter((x) => x.f[1] === i).reduce((t, x) => t.plus(num(x.f[2])), new Decimal(0));
      if (!sumAdj('1').eq(num(up)) || !sumAdj('0').eq(num(down))) problems.push(`${at}: VL_AJUS_ACRES/VL_AJUS_REDUC are not its ${adjust} records`);
      if (!num(disp).eq(num(cred).plus(num(up)).minus(num(down)).minus(num(dif)))) problems.push(`${at}: VL_CRED_DISP is not 08 + 09 − 10 − 11`);
      if (!num(sld).eq(num(disp).minus(num(desc || '0')))) problems.push(`${at}: SLD_CRED is not 12 − 14`);
      // Field 08 is the base × the rate in percent (Guia, M100 field 08), rounded once; an import's (no rate) the contributions paid.
      const aliq = l.f[4];
      if (aliq && !num(cred).eq(num(bc).times(num(aliq)).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN))) problems.push(`${at}: VL_CRED is not VL_BC × ALIQ / 100`);
      if ((ind === '0') !== num(desc || '0').eq(num(disp))) problems.push(`${at}: IND_DESC_CRED ${ind} with ${desc} of ${disp}`);
      const kids = records.filter((x) => x.reg === detail && x.parent === l);
      if (kids.length === 0) problems.push(`${at}: no ${detail}`);
      if (!kids.reduce((s, x) => s.plus(num(x.f[6] || '0')), new Decimal(0)).eq(num(bc || '0'))) problems.push(`${at}: its ${detail} records do not sum VL_BC`);
    }
    const t = by(total)[0]?.f.slice(1).map(num);
    const ofMonth = by(credit).reduce((s, x) => s.plus(num(x.f[13] || '0')), new Decimal(0));
    if (t && !t[1].eq(ofMonth)) problems.push(`${total}: VL_TOT_CRED_DESC ${t[1].toFixed(2)}, the ${credit} records deduct ${ofMonth.toFixed(2)}`);
    const period = by('0000')[0].f[5].slice(2);
    let earlier = new Decimal(0);
    for (const l of by(control)) {
      const v = l.f.slice(1).map((x) => (x === '' ? new Decimal(0) : num(x)));
      const at = `line ${l.line} (${control})`;
      // v[i] is field i + 2: 08 = 06 + 07; 12 = 08 − 09 − 10 − 11; 18 = 12 − 13 − 14 − 15 − 16 − 17.
      if (!v[6].eq(v[4].plus(v[5])) || !v[10].eq(v[6].minus(v[7]).minus(v[8]).minus(v[9])) || !v[16].eq(v[10].minus(v[11]).minus(v[12]).minus(v[13]).minus(v[14]).minus(v[15]))) problems.push(`${at}: its fields do not add up`);
      earlier = earlier.plus(v[11]);
      if (l.f[1] !== period) continue;
      // The period's own credit: its deduction in the period is M200/M600 field 03's share of its COD_CRED (the M100/M500 field 14),
      // written in field 09; field 13 is the earlier periods' (M200/M600 field 04), so zero here.
      if (!v[11].isZero()) problems.push(`${at}: VL_CRED_DESC_EFD ${l.f[12]} on the period's own credit (field 13 is M200/M600 field 04, earlier periods)`);
      const own = by(credit).filter((x) => x.f[1] === l.f[4]).reduce((s, x) => s.plus(num(x.f[13] || '0')), new Decimal(0));
      if (!v[7].eq(own)) problems.push(`${at}: VL_CRED_DESC_PA_ANT ${l.f[8]} of the period's own credit, its ${credit} records deduct ${own.toFixed(2)}`);
    }
    if (t && !t[2].eq(earlier)) problems.push(`${total}: VL_TOT_CRED_DESC_ANT ${t[2].toFixed(2)}, the ${control} records deduct ${earlier.toFixed(2)} (field 13)`);
  }
  // Acquisitions (C190–C195): each C191/C195 names its participant (blank only from abroad, CFOP 3xxx), a CST of credit (or 70–75, an
  // entry without credit, with no base, rate or value) and an entry CFOP generating credit, VL_BC = VL_ITEM − VL_DESC and VL = VL_BC × ALIQ; C190 sums its items; every COD_ITEM is in 0200; and M105/M505 of
  // NAT_BC_CRED 01 (resale, CFOP x102) or 02 (inputs, x101) is the sum of the C191/C195 bases of its CFOP, CST and rate (the PVA
  // rebuilds it from them: Guia, C191 field 07).
  const items = new Set(by('0200').map((r) => r.f[1]));
  for (const c of by('C190')) if (!items.has(c.f[4])) problems.push(`line ${c.line} (C190): COD_ITEM ${c.f[4]} is not in 0200`);
  for (const [c, m, credit] of [['C191', 'M105', 'M100'], ['C195', 'M505', 'M500']]) {
    const sums = new Map<string, Decimal>();
    for (const l of by(c)) {
      const [part, cst, cfop, item, desc, bc, aliq, , , vl] = l.f.slice(1);
      const at = `line ${l.line} (${c})`;
      if (cfop.startsWith('3') ? part !== '' : !/^(\d{11}|[0-9A-Z]{12}\d{2})$/.test(part)) problems.push(`${at}: CNPJ_CPF_PART "${part}" with CFOP ${cfop}`);
      if (!['1101', '1102', '2101', '2102', '3101', '3102'].includes(cfop)) problems.push(`${at}: CFOP ${cfop} is no entry generating credit`);
      // Table 4.3.4: 70–75 an acquisition without the right to credit (one contribution of an item may have it and the other not:
      // Lei 10.637/2002 and Lei 10.833/2003, each art. 3º § 2º II): no base, rate or credit, and nothing in M105/M505.
      if (/^7[0-5]$/.test(cst)) {
        if (bc !== '' || aliq !== '' || !num(vl || '0').isZero()) problems.push(`${at}: CST ${cst} (no credit) with a credit base, rate or value`);
        continue;
      }
      if (!/^5[0-6]$/.test(cst)) problems.push(`${at}: CST ${cst} is no acquisition with credit (50–56) nor without (70–75)`);
      if (!num(bc).eq(num(item).minus(num(desc || '0')))) problems.push(`${at}: VL_BC is not VL_ITEM − VL_DESC`);
      if (aliq && !num(vl).eq(num(bc).times(num(aliq)).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN))) problems.push(`${at}: VL is not VL_BC × ALIQ / 100`);
      // NAT_BC_CRED by the entry (table 4.3.7): 01 goods bought for resale (CFOP x102), 02 inputs (x101).
      const key = `${cfop.endsWith('2') ? '01' : '02'}|${cst}|${aliq ? num(aliq).toFixed(4) : ''}`;
      sums.set(key, (sums.get(key) ?? new Decimal(0)).plus(num(bc)));
    }
    for (const head of by('C190')) {
      const kids = records.filter((x) => x.reg === c && x.parent === head);
      if (!kids.reduce((t, x) => t.plus(num(x.f[4])), new Decimal(0)).eq(num(head.f[7]))) problems.push(`line ${head.line} (C190): VL_TOT_ITEM is not the sum of its ${c}`);
    }
    const told = new Map<string, Decimal>();
    for (const d of by(m).filter((x) => x.f[1] === '01' || x.f[1] === '02')) {
      const key = `${d.f[1]}|${d.f[2]}|${d.parent?.f[4] ? num(d.parent.f[4]).toFixed(4) : ''}`;
      told.set(key, (told.get(key) ?? new Decimal(0)).plus(num(d.f[3])));
    }
    for (const key of new Set([...sums.keys(), ...told.keys()])) {
      const [a, b] = [sums.get(key) ?? new Decimal(0), told.get(key) ?? new Decimal(0)];
      if (!a.eq(b)) problems.push(`${m} of NAT_BC_CRED, CST and rate ${key}: ${b.toFixed(2)}, the ${c} bases sum ${a.toFixed(2)} (under ${credit})`);
    }
  }
  // 0110 IND_APRO_CRED 2 (the revenue ratio) asks its 0111, whose total adds up; 1 asks none.
  const r0111 = by('0111');
  if ((by('0110')[0].f[2] === '2') !== (r0111.length === 1)) problems.push(`0110 IND_APRO_CRED ${by('0110')[0].f[2]} with ${r0111.length} 0111`);
  for (const r of r0111) if (!num(r.f[5]).eq(num(r.f[1]).plus(num(r.f[2])).plus(num(r.f[3])).plus(num(r.f[4])))) problems.push(`line ${r.line} (0111): REC_BRU_TOTAL is not the sum`);
  const cod = by('0110')[0].f[3];
  if ((cod === '2') !== (by('M210').length + by('M610').length > 0)) problems.push(`0110 COD_TIPO_CONT ${cod || 'empty'} with ${by('M210').length + by('M610').length} per-unit M210/M610`);
  return problems;
}
