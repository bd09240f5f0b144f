import { Purchase, Sale } from '../domain';
import { Locale } from '../formats/brazilian';
import { IsoDate, today } from '../law/dates';
import { RateCategory, RecordState, TaxPeriodStatus, TaxRegime } from '../law/types';
import { Actor } from '../services/actor';
import { message } from '../i18n';
import { BadInputError } from '../services/errors';
import { requireDate } from '../services/record-batch';
import type { Services } from '../services';
import { Connection } from '../services/pagination';
import { closeDrawing, drawFile } from './drawing';
import { ExportDocument } from './document';
import { efdDraft } from './efd';
import { EfdFile, efdFile, EfdUncoveredReturnError } from './efd-file';
import { Incidence } from '../law/efd-contribuicoes';
import { programDocument } from './program.document';
import { purchasesDocument } from './purchases.document';
import { sealComplianceDocument } from './seal-compliance.document';
import { taxPeriodDocument } from './tax-period.document';

export type ExportFormat = 'csv' | 'xlsx' | 'pdf';
/** The EFD's two forms: the whole file for the PVA (`sped`), or the annotated reading copy (`draft`). */
export type EfdFormat = 'sped' | 'draft';

/** `format` of the EFD export: sped (default) or draft. */
export function requireEfdFormat(value: unknown): EfdFormat {
  if (value === null || value === undefined || value === 'sped' || value === 'draft') return (value ?? 'sped') as EfdFormat;
  throw new BadInputError('format', message('export.format', { field: 'format', formats: 'sped, draft' }));
}

/** `incidence` of the EFD export (0110 COD_INC_TRIB 1 or 2); absent: the regime recorded for the year. */
export function requireIncidence(value: unknown): Incidence | undefined {
  if (value === null || value === undefined) return undefined;
  if (value === 'non-cumulative') return 'NON_CUMULATIVE';
  if (value === 'cumulative') return 'CUMULATIVE';
  throw new BadInputError('incidence', message('export.format', { field: 'incidence', formats: 'non-cumulative, cumulative' }));
}
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'xlsx', 'pdf'];

/** A file to hand over: its bytes, content type and name. */
export interface ExportFile {
  body: Buffer;
  contentType: string;
  filename: string;
  /** For a page: the cursor of its last row and whether more follow (the API's pageInfo). */
  page?: { endCursor: string | null; hasNextPage: boolean };
}

const CONTENT_TYPES: Record<ExportFormat | 'efd', string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  efd: 'text/plain; charset=iso-8859-1',
};

/** Checks of the exports' own parameters (the services check the rest, as for the API). */
export function requireFormat(value: unknown, allowed: readonly ExportFormat[] = EXPORT_FORMATS): ExportFormat {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as ExportFormat;
  throw new BadInputError('format', message('export.format', { field: 'format', formats: allowed.join(', ') }));
}

/** An export's `asKnownOn`, checked and defaulted once where the request is read: a calendar date, or today in Brazil. */
export function requireAsKnownOn(value: string | null | undefined): IsoDate {
  return value == null ? today() : requireDate(value, 'asKnownOn');
}

export function requireInt(value: unknown, field: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,4}$/.test(text)) throw new BadInputError(field, message('export.wholeNumber', { field }));
  return Number(text);
}

/**
 * The API's figures as files, each through the service method of the GraphQL field it mirrors,
 * with the caller's scope and the same figures.
 */
export class Exporter {
  constructor(private readonly services: Services) {}

  /** The services an actor's reads run on: an AUDITOR's (and the program view's) on the read replica when it serves. */
  private on(actor: Actor, wholeProgram = false): Promise<Services> {
    return this.services.forReads(actor, wholeProgram);
  }

  private async file(doc: ExportDocument, format: ExportFormat, locale: Locale): Promise<ExportFile> {
    const body = await drawFile(format, doc, locale);
    return { body, contentType: CONTENT_TYPES[format], filename: `${doc.name}.${format}` };
  }

  /** Producer.taxPeriod / taxPeriod(producerId, year, month, asKnownOn). */
  async taxPeriod(actor: Actor, p: { producerId: string; year: number; month: number; asKnownOn: IsoDate }, format: ExportFormat, locale: Locale): Promise<ExportFile> {
    const services = await this.on(actor);
    const view = await services.taxPeriods.forProducer(actor, p.producerId, p.year, p.month, p.asKnownOn);
    const credits = await services.credits.ofMonth(view.producer, view.year, view.month, view.recomputedAsKnownOn ?? view.asKnownOn);
    return this.file(taxPeriodDocument(view, locale, credits), format, locale);
  }

  /** sealCompliance(producerId, year, asKnownOn), with every excluded item and its findings. */
  async sealCompliance(actor: Actor, p: { producerId: string; year: number; asKnownOn: IsoDate }, format: ExportFormat, locale: Locale): Promise<ExportFile> {
    const services = await this.on(actor);
    const report = await services.sealCompliance.forProducer(actor, p.producerId, p.year, p.asKnownOn);
    return this.file(sealComplianceDocument(report, locale), format, locale);
  }

  /** programOverview(year, asKnownOn): the program as a whole, ADMIN and AUDITOR (a PRODUCER is FORBIDDEN). */
  async program(actor: Actor, p: { year: number; asKnownOn: IsoDate }, format: ExportFormat, locale: Locale): Promise<ExportFile> {
    const services = await this.on(actor, true);
    const year = await services.programOverview.overview(actor, p.year, p.asKnownOn);
    return this.file(programDocument(year, locale), format, locale);
  }

  /** Producer.purchases(first, after, from, to): one page, as the API gives it. */
  async purchases(actor: Actor, p: { producerId: string; first?: number | null; after?: string | null; from?: string | null; to?: string | null }, format: ExportFormat, locale: Locale): Promise<ExportFile> {
    const services = await this.on(actor);
    const producer = await services.producers.get(actor, p.producerId);
    const [page] = await services.purchases.pagesByProducer(actor, [{ producerId: producer.id, args: { first: p.first ?? null, after: p.after ?? null, from: p.from ?? null, to: p.to ?? null }, withPrevious: false }]);
    if (page instanceof Error) throw page;
    const file = await this.file(purchasesDocument(producer, page as Connection<Purchase>, { from: p.from ?? null, to: p.to ?? null }), format, locale);
    return { ...file, page: { endCursor: page.pageInfo.endCursor, hasNextPage: page.pageInfo.hasNextPage } };
  }

  /**
   * A CLOSED month's snapshot, under either regime of Lei 11.116/2005 (art. 3º ad valorem, art. 4º per m³; the draft
   * reads the per-m³ regime only). 0110 follows the year's election (non-cumulative when none); an `incidence` asked
   * that disagrees is BAD_USER_INPUT.
   */
  async efd(actor: Actor, p: { producerId: string; year: number; month: number; format?: EfdFormat; incidence?: Incidence }): Promise<ExportFile> {
    const services = await this.on(actor);
    const view = await services.taxPeriods.forProducer(actor, p.producerId, p.year, p.month, today());
    const period = `${p.year}-${String(p.month).padStart(2, '0')}`;
    if (view.status !== TaxPeriodStatus.CLOSED) {
      throw new BadInputError('month', message('export.efdOpenMonth', { period }));
    }
    const special = view.regime === TaxRegime.SPECIAL_PER_M3;
    if (p.format === 'draft' && !special) {
      throw new BadInputError('format', message('export.efdDraftNotSpecial', { period, regime: view.regime }));
    }
    const law = await services.law.lawBook();
    const general = special ? view.segments.map((s) => {
      const rule = law.coefficientRules(s.from, view.asKnownOn)[RateCategory.GENERAL];
      return { pisPerM3: rule.value.pisPerM3, cofinsPerM3: rule.value.cofinsPerM3 };
    }) : [];
    // Ad valorem (Lei 11.116/2005, art. 3º): the rates the closed month applied to each segment (the law's, for a snapshot without them).
    const adValorem = special ? null : view.segments.map((s) => (s.pisRate && s.cofinsRate ? { pis: s.pisRate, cofins: s.cofinsRate } : law.adValoremRates(s.from, view.asKnownOn).value));
    const sales = await this.monthSales(actor, view.producer.id, view.segments[0].from, view.segments[view.segments.length - 1].to);
    if (p.format === 'draft') {
      const draft = efdDraft({ view, sales, general });
      return { body: Buffer.from(draft.text, 'utf8'), contentType: 'text/plain; charset=utf-8', filename: `efd-contribuicoes-rascunho-${period}-producer-${view.producer.id}.txt` };
    }
    const recorded = await services.credits.incidenceOf(view.producer.id, view.year);
    if (p.incidence && recorded && p.incidence !== recorded) {
      throw new BadInputError('incidence', message('export.efdIncidence', { year: view.year, regime: recorded }));
    }
    const incidence: Incidence = recorded ?? p.incidence ?? 'NON_CUMULATIVE';
    const credits = incidence === 'NON_CUMULATIVE' ? await services.credits.efdCredits(view.producer, view.year, view.month, view.asKnownOn) : null;
    // 0110 IND_APRO_CRED (required under the non-cumulative regime) has only 1 (direct allocation) and 2 (revenue ratio): while the
    // year's method is not elected the month's common credits are in no line (Lei 10.637/2002, art. 3º §§ 8º–9º), and a file
    // declaring either method would pay them as if there were none. The file waits for the election, as taxPeriod does.
    if (credits?.awaitingElection) throw new BadInputError('month', message('export.efdAwaitingElection', { period, year: view.year }));
    // C191/C195 field 02 is required but for a participant abroad: the file waits for the supplier's CNPJ/CPF, never guesses it.
    const unknown = [...new Set((credits?.acquisitions ?? []).filter((a) => a.document === null && !a.abroad).map((a) => a.part.purchaseId))];
    if (unknown.length) throw new BadInputError('month', message('export.efdSupplierDocument', { period, purchases: unknown.slice(0, 20).join(', ') }));
    const returns = (await services.recordReturns.saleReturnsIn(view.producer.id, view.segments[0].from, view.segments[view.segments.length - 1].to))
      .map(({ returned, sale }) => ({ id: returned.id, returnedOn: returned.returnedOn, volumeM3: returned.quantity, revenue: returned.value, sale }));
    let file: EfdFile;
    try {
      file = efdFile({ view, sales, general, adValorem, incidence, returns, credits });
    } catch (e) {
      // A negative contribution has no EFD form: the file waits for the credit of the returns (docs/LAW.md).
      if (!(e instanceof EfdUncoveredReturnError)) throw e;
      const named = e.returns.slice(0, 20).map((r) => `${r.id ?? '?'} (${r.returnedOn}, ${r.volumeM3.toFixed(3)} m³, R$ ${r.revenue.toFixed(2)}; ${r.sale.id}, ${r.sale.soldOn})`).join(', ');
      throw new BadInputError('month', message('export.efdUncoveredReturn', { period, returns: named, pisDue: e.pisDue.toFixed(2), cofinsDue: e.cofinsDue.toFixed(2) }));
    }
    return { body: Buffer.from(file.text, 'latin1'), contentType: CONTENT_TYPES.efd, filename: `efd-contribuicoes-${period}-producer-${view.producer.id}.txt` };
  }

  /** Every sale of a producer between two dates, through the API's pages (100 at a time). */
  private async monthSales(actor: Actor, producerId: string, from: string, to: string): Promise<Sale[]> {
    const services = await this.on(actor);
    const sales: Sale[] = [];
    let after: string | null = null;
    for (;;) {
      const [page] = await services.sales.pagesByProducer(actor, [{ producerId, args: { first: 100, after, from, to }, withTotal: false, withPrevious: false }]);
      if (page instanceof Error) throw page;
      // A cancelled note's sales are kept on record but are no document of the month (as in taxPeriod).
      sales.push(...page.edges.map((e) => e.node).filter((s) => s.state === RecordState.ACTIVE));
      if (!page.pageInfo.hasNextPage) return sales;
      after = page.pageInfo.endCursor;
    }
  }

  /** Ends the files' worker once the files it was given are written. */
  close(): Promise<void> {
    return closeDrawing();
  }
}
