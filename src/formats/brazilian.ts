import { cnpj as cnpjLib, cpf as cpfLib } from 'cpf-cnpj-validator';
import type { Locale } from '../i18n';
import { Decimal } from '../law/decimal';
import { isIsoDate } from '../law/dates';
import {
  BiodieselOrigin, Feedstock, FomentoKind, Market, PurchasePurpose, RateCategory, RegistrationKind, SupplierKind, TaxPeriodStatus, TaxRegime,
} from '../law/types';
import { CreditProduct, CreditSupplier, RevenueGroup } from '../law/credits/types';

/** Notations only: no legal figure is decided here. */

/** Also the languages of the messages. */
export type { Locale } from '../i18n';

/** `auto` or blank → null (detect); unknown → undefined. */
export function parseLocale(value: string | null | undefined): Locale | null | undefined {
  const v = (value ?? '').trim().toLowerCase().replace('_', '-');
  if (v === '' || v === 'auto') return null;
  if (v === 'pt' || v === 'pt-br') return 'pt-BR';
  if (v === 'en' || v.startsWith('en-')) return 'en';
  return undefined;
}

/** A CPF (11 digits) or CNPJ (14, the alphanumeric form of IN RFB 2.229/2024 included) without punctuation, or null when its check digits fail. */
export function taxpayerDocument(value: string): string | null {
  const bare = value.trim().replace(/[./\-\s]/g, '').toUpperCase();
  if (/^\d{11}$/.test(bare)) return cpfLib.isValid(bare) ? bare : null;
  return /^[0-9A-Z]{12}[0-9]{2}$/.test(bare) && cnpjLib.isValid(bare) ? bare : null;
}

// ---------------------------------------------------------------------------------------------
// Numbers

export const EN_DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const PT_DECIMAL = /^[+-]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?$/;
/** Readable both ways with different values (12.500). */
const AMBIGUOUS = /^[+-]?\d{1,3}\.\d{3}$/;

function stripCurrency(text: string): string {
  return text.replace(/^R\$[\s\u00a0]*/i, '').replace(/[\s\u00a0]/g, '');
}

export type NumberNotation = 'both' | 'en' | 'pt-BR' | 'ambiguous' | 'neither';

export function numberNotation(text: string): NumberNotation {
  const t = stripCurrency(text);
  if (/^[+-]?\d+$/.test(t)) return 'both';
  if (AMBIGUOUS.test(t)) return 'ambiguous';
  const en = EN_DECIMAL.test(t) && t === text;
  const pt = PT_DECIMAL.test(t);
  if (en) return 'en';
  return pt ? 'pt-BR' : 'neither';
}

export function readNumber(text: string, locale: Locale): string | null {
  if (locale === 'en') return EN_DECIMAL.test(text) ? text : null;
  const t = stripCurrency(text);
  if (!PT_DECIMAL.test(t)) return null;
  return t.replace(/\./g, '').replace(',', '.');
}

export function brazilianNumber(value: Decimal, places: number): string {
  return value.toFixed(places, Decimal.ROUND_HALF_EVEN).replace('.', ',');
}

// ---------------------------------------------------------------------------------------------
// Dates

const PT_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T]0{1,2}:00(?::00)?)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export type DateNotation = 'iso' | 'pt-BR' | 'neither';

export function dateNotation(text: string): DateNotation {
  if (ISO_DATE.test(text)) return 'iso';
  return PT_DATE.test(text) ? 'pt-BR' : 'neither';
}

export function readDate(text: string, locale: Locale): string | null {
  if (ISO_DATE.test(text)) return isIsoDate(text) ? text : null;
  if (locale !== 'pt-BR') return null;
  const m = PT_DATE.exec(text);
  if (!m) return null;
  const iso = `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

export function brazilianDate(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

// ---------------------------------------------------------------------------------------------
// Names of the enumerations

/** As tax teams write them; the first is the one shown. */
export const PORTUGUESE_NAMES: Record<string, Record<string, string[]>> = {
  Feedstock: {
    [Feedstock.SOYBEAN]: ['SOJA', 'GRAO_DE_SOJA'],
    [Feedstock.CASTOR_BEAN]: ['MAMONA'],
    [Feedstock.PALM]: ['PALMA', 'DENDE', 'OLEO_DE_PALMA'],
    [Feedstock.COTTONSEED]: ['ALGODAO', 'CAROCO_DE_ALGODAO'],
    [Feedstock.SUNFLOWER]: ['GIRASSOL'],
    [Feedstock.CANOLA]: ['CANOLA'],
    [Feedstock.PEANUT]: ['AMENDOIM'],
    [Feedstock.MACAUBA]: ['MACAÚBA'],
    [Feedstock.BEEF_TALLOW]: ['SEBO_BOVINO', 'SEBO'],
    [Feedstock.USED_COOKING_OIL]: ['ÓLEO_DE_FRITURA', 'OLEO_DE_COZINHA_USADO', 'OGR'],
    [Feedstock.SOYBEAN_OIL]: ['ÓLEO_DE_SOJA'],
    [Feedstock.LIVE_ANIMALS]: ['ANIMAIS_VIVOS', 'ANIMAL_VIVO'],
    [Feedstock.OTHER]: ['OUTRO', 'OUTROS', 'OUTRA'],
  },
  SupplierKind: {
    [SupplierKind.FAMILY_FARMER]: ['AGRICULTOR_FAMILIAR', 'AGRICULTURA_FAMILIAR'],
    [SupplierKind.COOPERATIVE]: ['COOPERATIVA'],
    [SupplierKind.ASSOCIATION]: ['ASSOCIAÇÃO'],
    [SupplierKind.THIRD_PARTY]: ['TERCEIRO', 'TERCEIROS'],
    [SupplierKind.OWN_PRODUCTION]: ['PRODUÇÃO_PRÓPRIA'],
  },
  PurchasePurpose: {
    [PurchasePurpose.BIODIESEL_FEEDSTOCK]: ['MATÉRIA_PRIMA', 'MATÉRIA_PRIMA_PARA_BIODIESEL', 'MATÉRIA_PRIMA_DE_BIODIESEL'],
    [PurchasePurpose.OTHER_PRODUCT]: ['OUTRO_PRODUTO', 'OUTROS_PRODUTOS'],
  },
  BiodieselOrigin: {
    [BiodieselOrigin.OWN_PRODUCTION]: ['PRODUÇÃO_PRÓPRIA'],
    [BiodieselOrigin.IMPORTED]: ['IMPORTADO', 'IMPORTAÇÃO'],
  },
  Market: {
    [Market.DOMESTIC]: ['MERCADO_INTERNO', 'INTERNO', 'NACIONAL'],
    [Market.EXPORT]: ['EXPORTAÇÃO', 'MERCADO_EXTERNO', 'EXTERNO'],
  },
  RegistrationKind: { [RegistrationKind.DAP]: ['DAP'], [RegistrationKind.CAF]: ['CAF'] },
  RateCategory: {
    [RateCategory.GENERAL]: ['GERAL'],
    [RateCategory.CASTOR_PALM_PRIORITY_REGION]: ['MAMONA_PALMA_REGIÃO_PRIORITÁRIA'],
    [RateCategory.FAMILY_FARMING]: ['AGRICULTURA_FAMILIAR'],
    [RateCategory.FAMILY_FARMING_PRIORITY_REGION]: ['AGRICULTURA_FAMILIAR_REGIÃO_PRIORITÁRIA'],
  },
  TaxRegime: { [TaxRegime.AD_VALOREM]: ['AD_VALOREM'], [TaxRegime.SPECIAL_PER_M3]: ['ESPECIAL_POR_M3'] },
  TaxPeriodStatus: { [TaxPeriodStatus.OPEN]: ['ABERTO'], [TaxPeriodStatus.CLOSED]: ['FECHADO'] },
  FomentoKind: {
    [FomentoKind.TECHNICAL_ASSISTANCE]: ['ASSISTÊNCIA_TÉCNICA', 'ATER'],
    [FomentoKind.DONATION]: ['DOAÇÃO'],
    [FomentoKind.INVESTMENT]: ['INVESTIMENTO'],
    [FomentoKind.OTHER]: ['OUTRO'],
  },
  CreditSupplier: {
    [CreditSupplier.NATURAL_PERSON]: ['PESSOA_FÍSICA'],
    [CreditSupplier.COOPERATIVE]: ['COOPERATIVA'],
    [CreditSupplier.COMPANY]: ['PESSOA_JURÍDICA', 'EMPRESA'],
    [CreditSupplier.ABROAD]: ['EXTERIOR', 'DOMICILIADO_NO_EXTERIOR'],
  },
  CreditProduct: {
    [CreditProduct.IN_NATURA]: ['IN_NATURA'],
    [CreditProduct.SOYBEAN]: ['SOJA_EM_GRÃO', 'SOJA'],
    [CreditProduct.VEGETABLE_OIL]: ['ÓLEO_VEGETAL'],
    [CreditProduct.ANIMAL_FAT]: ['GORDURA_ANIMAL'],
    [CreditProduct.INPUT]: ['INSUMO'],
    [CreditProduct.FUEL_INPUT]: ['COMBUSTÍVEL_INSUMO', 'COMBUSTÍVEL'],
    [CreditProduct.B100_FOR_RESALE]: ['B100_PARA_REVENDA'],
  },
  RevenueGroup: {
    [RevenueGroup.TAXED_DOMESTIC]: ['MERCADO_INTERNO_TRIBUTADO'],
    [RevenueGroup.UNTAXED_DOMESTIC]: ['MERCADO_INTERNO_NÃO_TRIBUTADO'],
    [RevenueGroup.EXPORT]: ['EXPORTAÇÃO'],
  },
};

export function nameKey(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export interface EnumNames {
  name: string;
  values: string[];
  read(text: string): string | undefined;
  portuguese(value: string): string;
}

export function enumNames(name: keyof typeof PORTUGUESE_NAMES, values: Record<string, string>): EnumNames {
  const portuguese = PORTUGUESE_NAMES[name] ?? {};
  const byKey = new Map<string, string>();
  for (const v of Object.values(values)) byKey.set(nameKey(v), v);
  for (const [v, names] of Object.entries(portuguese)) for (const n of names) if (!byKey.has(nameKey(n))) byKey.set(nameKey(n), v);
  // A file repeats a handful of them on every line.
  const seen = new Map<string, string>();
  return {
    name,
    values: Object.values(values),
    read: (text) => {
      let value = seen.get(text);
      if (value !== undefined) return value;
      value = byKey.get(nameKey(text));
      if (value !== undefined && seen.size < 1024) seen.set(text, value);
      return value;
    },
    portuguese: (v) => portuguese[v]?.[0] ?? v,
  };
}

export const ENUMS = {
  Feedstock: enumNames('Feedstock', Feedstock),
  SupplierKind: enumNames('SupplierKind', SupplierKind),
  PurchasePurpose: enumNames('PurchasePurpose', PurchasePurpose),
  BiodieselOrigin: enumNames('BiodieselOrigin', BiodieselOrigin),
  Market: enumNames('Market', Market),
  RegistrationKind: enumNames('RegistrationKind', RegistrationKind),
  RateCategory: enumNames('RateCategory', RateCategory),
  TaxRegime: enumNames('TaxRegime', TaxRegime),
  TaxPeriodStatus: enumNames('TaxPeriodStatus', TaxPeriodStatus),
  FomentoKind: enumNames('FomentoKind', FomentoKind),
  CreditSupplier: enumNames('CreditSupplier', CreditSupplier),
  CreditProduct: enumNames('CreditProduct', CreditProduct),
  RevenueGroup: enumNames('RevenueGroup', RevenueGroup),
};
