import { ENUMS, Locale } from '../formats/brazilian';
import { message, translate } from '../i18n';
import { findingMessage } from '../i18n/finding-message';
import { lastDayOfMonth } from '../law/dates';
import type { FuelTaxFigures, ImportContributionsFigures } from '../law/tax-period';
import type { TaxPeriodView } from '../services/tax-period.service';
import type { MonthCreditsView } from '../services/credit.service';
import { CellValue, Column, ExportDocument, label, Labels, Section } from './document';
import { findingsSection, producerLine } from './sections';

const col = (key: string, en: string, pt: string, type: Column['type']): Column => ({ key, label: label(en, pt), type });

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * `taxPeriod` as tables: figures, segments and mixes, the imports' PIS/Cofins-Importação, from 2027
 * the single-phase taxes on fuels (the CBS), findings, a closed month's record and drift, and with
 * credits the net and balances — the sections of the GraphQL answer, under the law of the month.
 */
export function taxPeriodDocument(view: TaxPeriodView, locale: Locale, credits: MonthCreditsView | null = null): ExportDocument {
  // A closed month's net and balances are what it filed: their drift is part of what recomputing would change.
  const differences = [...view.differences, ...(credits?.differences ?? [])];
  const period = `${view.year}-${pad(view.month)}`;
  const fields: Array<[string, Labels, Column['type'], CellValue]> = [
    ['producer', label('Producer', 'Produtor'), 'text', view.producer.legalName],
    ['cnpj', label('CNPJ', 'CNPJ'), 'text', view.producer.cnpj],
    ['year', label('Year', 'Ano'), 'integer', view.year],
    ['month', label('Month', 'Mês'), 'integer', view.month],
    ['status', label('Status', 'Situação'), 'text', view.status],
    ['asKnownOn', label('Law as known on', 'Legislação conhecida em'), 'date', view.asKnownOn],
    ['regime', label('Regime', 'Regime'), 'text', view.regime],
    ['regimeBasis', label('Why this regime', 'Fundamento do regime'), 'text', view.regimeBasis],
    ['feedstockCost', label('Raw material used: valued cost (R$)', 'Matéria-prima utilizada: custo valorado (R$)'), 'money', view.feedstockCost],
    ['ownProductionPricePerKg', label('Own production valued at (R$/kg)', 'Produção própria valorada a (R$/kg)'), 'share', view.ownProductionPricePerKg],
    ['domesticVolumeM3', label('Own biodiesel sold, domestic market (m³)', 'Biodiesel próprio vendido no mercado interno (m³)'), 'quantity', view.domesticVolumeM3],
    ['importedVolumeM3', label('Imported biodiesel sold, domestic market (m³)', 'Biodiesel importado vendido no mercado interno (m³)'), 'quantity', view.importedVolumeM3],
    ['exportedVolumeM3', label('Biodiesel exported (m³)', 'Biodiesel exportado (m³)'), 'quantity', view.exportedVolumeM3],
    ['pisDue', label('PIS/Pasep due (R$)', 'PIS/Pasep devido (R$)'), 'money', view.pisDue],
    ['cofinsDue', label('Cofins due (R$)', 'Cofins devida (R$)'), 'money', view.cofinsDue],
    ['totalDue', label('Total due (R$)', 'Total devido (R$)'), 'money', view.totalDue],
    ...importFields(view.imports),
    ['fingerprint', label('Fingerprint of the inputs (sha256)', 'Impressão digital das entradas (sha256)'), 'text', view.fingerprint],
  ];
  if (view.status === 'CLOSED') {
    fields.push(
      ['closedAt', label('Closed at', 'Fechado em'), 'text', view.closedAt ? view.closedAt.toISOString() : null],
      ['closedBy', label('Closed by', 'Fechado por'), 'text', view.closedBy],
      ['recomputedDiffers', label('Recomputing now would differ', 'Recalcular hoje daria outro resultado'), 'boolean', view.recomputedDiffers || differences.length > 0],
      ['recomputedAsKnownOn', label('Recomputed as known on', 'Recalculado com a legislação conhecida em'), 'date', view.recomputedAsKnownOn],
    );
  }
  if (view.reopenReason) fields.push(['reopenReason', label('Reason of the latest reopening', 'Motivo da última reabertura'), 'text', view.reopenReason]);

  const segmentColumns = [
    col('from', 'From', 'De', 'date'), col('to', 'To', 'Até', 'date'),
    col('sealRegular', 'Selo in regular standing', 'Selo regular', 'boolean'), col('sealStanding', 'Selo standing', 'Situação do Selo', 'text'),
    col('ownProductionVolumeM3', 'Own volume, domestic (m³)', 'Volume próprio, mercado interno (m³)', 'quantity'),
    col('importedVolumeM3', 'Imported volume, domestic (m³)', 'Volume importado, mercado interno (m³)', 'quantity'),
    col('exportedVolumeM3', 'Exported volume (m³)', 'Volume exportado (m³)', 'quantity'),
    col('domesticRevenue', 'Domestic revenue (R$)', 'Receita no mercado interno (R$)', 'money'),
    col('blendedPisPerM3', 'Blended PIS/Pasep (R$/m³)', 'PIS/Pasep ponderado (R$/m³)', 'share'),
    col('blendedCofinsPerM3', 'Blended Cofins (R$/m³)', 'Cofins ponderada (R$/m³)', 'share'),
    col('pisRate', 'PIS/Pasep rate on revenue', 'Alíquota de PIS/Pasep sobre a receita', 'figure'),
    col('cofinsRate', 'Cofins rate on revenue', 'Alíquota de Cofins sobre a receita', 'figure'),
    col('pisDue', 'PIS/Pasep due (R$)', 'PIS/Pasep devido (R$)', 'money'), col('cofinsDue', 'Cofins due (R$)', 'Cofins devida (R$)', 'money'),
    col('legalBasis', 'Legal basis', 'Fundamento legal', 'text'),
  ];
  const mixColumns = [
    col('from', 'Segment from', 'Segmento de', 'date'), col('to', 'Segment to', 'Segmento até', 'date'),
    col('category', 'Category', 'Categoria', 'text'), col('categoryPt', 'Category (pt)', 'Categoria (pt)', 'text'),
    col('cost', 'Weight: valued cost (R$)', 'Peso: custo valorado (R$)', 'money'), col('quantityKg', 'Raw material (kg)', 'Matéria-prima (kg)', 'quantity'),
    col('share', 'Share', 'Participação', 'share'), col('coefficient', 'Coefficient', 'Coeficiente', 'figure'),
    col('pisPerM3', 'PIS/Pasep (R$/m³)', 'PIS/Pasep (R$/m³)', 'figure'), col('cofinsPerM3', 'Cofins (R$/m³)', 'Cofins (R$/m³)', 'figure'),
    col('legalBasis', 'Legal basis', 'Fundamento legal', 'text'),
  ];
  const sections: Section[] = [
    { kind: 'fields', key: 'month', title: label('The month', 'O mês'), fields: fields.map(([key, l, type, value]) => ({ key, label: l, type, value })) },
    {
      kind: 'table', key: 'segments', title: label('Segments', 'Segmentos'), columns: segmentColumns,
      rows: view.segments.map((s) => [s.from, s.to, s.sealRegular, s.sealStanding ? findingMessage(s.sealStanding, locale) : null, s.ownProductionVolumeM3, s.importedVolumeM3, s.exportedVolumeM3,
        s.domesticRevenue, s.blendedPisPerM3, s.blendedCofinsPerM3, s.pisRate ?? null, s.cofinsRate ?? null, s.pisDue, s.cofinsDue, s.legalBasis ?? null]),
    },
    {
      kind: 'table', key: 'mix', title: label('Mix of rate categories (Decreto 10.527/2020, art. 6º §3º)', 'Composição por categoria (Decreto 10.527/2020, art. 6º §3º)'), columns: mixColumns,
      rows: view.segments.flatMap((s) => s.mix.map((m) => [s.from, s.to, m.category, ENUMS.RateCategory.portuguese(m.category), m.cost, m.quantityKg, m.share, m.coefficient, m.pisPerM3, m.cofinsPerM3, m.legalBasis])),
    },
    ...importSections(view.imports),
    ...fuelTaxSections(view.fuelTaxes ?? [], view.asKnownOn, locale),
    ...(credits ? creditSections(credits) : []),
    findingsSection(view.warnings, locale),
  ];
  if (view.history.length) {
    sections.push({
      kind: 'table', key: 'history', title: label('Closing record', 'Registro de fechamento'),
      columns: [col('action', 'Action', 'Ação', 'text'), col('at', 'At', 'Em', 'text'), col('by', 'By', 'Por', 'text'), col('reason', 'Reason', 'Motivo', 'text'), col('fingerprint', 'Fingerprint', 'Impressão digital', 'text')],
      rows: view.history.map((h) => [h.action, h.at, h.by, h.reason ?? null, h.fingerprint ?? null]),
    });
  }
  if (differences.length) {
    sections.push({
      kind: 'table', key: 'differences', title: label('What recomputing now would change', 'O que recalcular hoje mudaria'),
      columns: [col('field', 'Figure', 'Valor', 'text'), col('closed', 'Closed', 'No fechamento', 'text'), col('recomputed', 'Recomputed', 'Recalculado', 'text')],
      rows: differences.map((d) => [d.field, d.closed, d.recomputed]),
    });
  }
  const law = lawOfMonth(view);
  return {
    name: `pis-cofins-${period}-producer-${view.producer.id}`,
    title: label(`${law.taxes.en} on biodiesel — ${period}`, `${law.taxes.pt} sobre biodiesel — ${pad(view.month)}/${view.year}`),
    subtitle: [producerLine(view.producer), label(
      `${law.acts}. ${view.status === 'CLOSED' ? 'Closed month: the snapshot taken at the close.' : 'Open month: computed live.'}`,
      `${law.acts}. ${view.status === 'CLOSED' ? 'Mês fechado: o registro tomado no fechamento.' : 'Mês aberto: calculado agora.'}`,
    )],
    sections,
  };
}

/** Decreto 10.527/2020 is in force from its publication (art. 10), revoking Decreto 7.768/2012 (art. 9º III). */
const DECRETO_10527_FROM = '2020-10-23';

/**
 * The taxes and acts the month is computed under: PIS/Pasep and Cofins (Lei 11.116/2005 with the
 * decree of its days) while any of its days has them, and the single-phase taxes on fuels
 * (LC 214/2025, arts. 172–175) once levied — from 2027, PIS/Cofins extinct (EC 132/2023).
 */
function lawOfMonth(view: TaxPeriodView): { taxes: { en: string; pt: string }; acts: string } {
  const first = `${view.year}-${pad(view.month)}-01`;
  const last = lastDayOfMonth(view.year, view.month);
  const pisCofins = view.segments.some((s) => s.pisCofinsInForce !== false);
  const fuel = (view.fuelTaxes ?? []).map((t) => t.tax);
  const decrees = last < DECRETO_10527_FROM ? ['Decreto 7.768/2012']
    : first < DECRETO_10527_FROM ? ['Decreto 7.768/2012 (to 2020-10-22)', 'Decreto 10.527/2020, arts. 5º–6º'] : ['Decreto 10.527/2020, arts. 5º–6º'];
  const acts = [
    ...(pisCofins ? ['Lei 11.116/2005, arts. 3º–5º', ...decrees] : ['EC 132/2023, ADCT art. 126 (PIS/Pasep and Cofins extinct)']),
    ...(fuel.length ? ['Lei Complementar 214/2025, arts. 172–175'] : []),
  ];
  const names = [...(pisCofins ? ['PIS/Pasep', 'Cofins'] : []), ...fuel];
  const join = (and: string) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} ${and} ${names[names.length - 1]}` : names[0] ?? 'PIS/Pasep and Cofins');
  return { taxes: { en: join('and'), pt: join('e') }, acts: acts.join('; ') };
}

/** The month's imports (Decreto 10.527/2020, art. 5º §1º): apart from the domestic sales' total due. */
function importFields(imports: ImportContributionsFigures | undefined): Array<[string, Labels, Column['type'], CellValue]> {
  if (!imports?.imports.length) return [];
  return [
    ['importedClearedVolumeM3', label('Biodiesel imported, cleared in the month (m³)', 'Biodiesel importado, desembaraçado no mês (m³)'), 'quantity', imports.volumeM3],
    ['importPisDue', label('PIS/Pasep-Importação due (R$)', 'PIS/Pasep-Importação devido (R$)'), 'money', imports.pisDue],
    ['importCofinsDue', label('Cofins-Importação due (R$)', 'Cofins-Importação devida (R$)'), 'money', imports.cofinsDue],
    ['importTotalDue', label('Total due on imports (R$)', 'Total devido nas importações (R$)'), 'money', imports.totalDue],
  ];
}

/** Each declaration: volume × the general amounts in force on its clearance, rounded on its own. */
function importSections(imports: ImportContributionsFigures | undefined): Section[] {
  if (!imports?.imports.length) return [];
  return [{
    kind: 'table', key: 'imports',
    title: label('Imports: PIS/Pasep-Importação and Cofins-Importação (Decreto 10.527/2020, art. 5º §1º)', 'Importações: PIS/Pasep-Importação e Cofins-Importação (Decreto 10.527/2020, art. 5º §1º)'),
    columns: [
      col('declarationNumber', 'Declaration (DI/DUIMP)', 'Declaração (DI/DUIMP)', 'text'), col('clearedOn', 'Cleared on', 'Desembaraço', 'date'),
      col('volumeM3', 'Volume (m³)', 'Volume (m³)', 'quantity'),
      col('pisPerM3', 'PIS/Pasep-Importação (R$/m³)', 'PIS/Pasep-Importação (R$/m³)', 'figure'), col('cofinsPerM3', 'Cofins-Importação (R$/m³)', 'Cofins-Importação (R$/m³)', 'figure'),
      col('pisDue', 'PIS/Pasep-Importação due (R$)', 'PIS/Pasep-Importação devido (R$)', 'money'), col('cofinsDue', 'Cofins-Importação due (R$)', 'Cofins-Importação devida (R$)', 'money'),
      col('legalBasis', 'Legal basis', 'Fundamento legal', 'text'),
    ],
    rows: imports.imports.map((i) => [i.declarationNumber, i.clearedOn, i.volumeM3, i.pisPerM3, i.cofinsPerM3, i.pisDue, i.cofinsDue, i.legalBasis]),
  }];
}

/**
 * The single-phase taxes on fuels (LC 214/2025, arts. 172–175): each tax over the month, then its
 * runs of days with one rate — volumes, rate, amount and legal basis, or why the amount is not
 * determinable while no rate is published.
 */
function fuelTaxSections(taxes: readonly FuelTaxFigures[], asKnownOn: string, locale: Locale): Section[] {
  if (!taxes.length) return [];
  const why = (due: unknown) => (due === null ? translate(message('export.fuelTaxNotDeterminable', { asKnownOn }), locale) : null);
  const amounts = [
    col('ownProductionVolumeM3', 'Own production sold, domestic market (m³)', 'Produção própria vendida no mercado interno (m³)', 'quantity'),
    col('importedVolumeM3', 'Imported, cleared (m³)', 'Importado, desembaraçado (m³)', 'quantity'),
    col('volumeM3', 'Base (m³)', 'Base (m³)', 'quantity'),
    col('ratePerM3', 'Rate (R$/m³)', 'Alíquota (R$/m³)', 'figure'),
    col('due', 'Amount (R$)', 'Valor (R$)', 'money'),
    col('notDeterminable', 'Amount not determinable because', 'Valor não determinável porque', 'text'),
    col('legalBasis', 'Legal basis', 'Fundamento legal', 'text'),
  ];
  return [
    {
      kind: 'table', key: 'fuelTaxes', title: label('Single-phase taxes on fuels (Lei Complementar 214/2025, arts. 172–175)', 'Tributos monofásicos sobre combustíveis (Lei Complementar 214/2025, arts. 172–175)'),
      columns: [col('tax', 'Tax', 'Tributo', 'text'), col('status', 'Status', 'Situação', 'text'), ...amounts, { ...col('formula', 'Formula', 'Fórmula', 'text'), filesOnly: true }],
      rows: taxes.map((t) => [t.tax, t.status, t.ownProductionVolumeM3, t.importedVolumeM3, t.volumeM3, t.ratePerM3, t.due, why(t.due), t.legalBasis, t.formula]),
    },
    {
      kind: 'table', key: 'fuelTaxRuns', title: label('Single-phase taxes: runs of days with one rate', 'Tributos monofásicos: períodos com uma alíquota'),
      columns: [col('tax', 'Tax', 'Tributo', 'text'), col('from', 'From', 'De', 'date'), col('to', 'To', 'Até', 'date'), col('status', 'Status', 'Situação', 'text'), ...amounts],
      rows: taxes.flatMap((t) => t.segments.map((s) => [t.tax, s.from, s.to, s.status, s.ownProductionVolumeM3, s.importedVolumeM3, s.volumeM3, s.ratePerM3, s.due, why(s.due), s.legalBasis])),
    },
  ];
}

/** The month's net, credits by COD_CRED, each purchase's credit and the balances (Lei 10.637/2002 and Lei 10.833/2003, art. 3º). */
function creditSections(c: MonthCreditsView): Section[] {
  const n = c.net;
  const net: Array<[string, Labels, Column['type'], CellValue]> = [
    ['pisDebit', label('PIS/Pasep debit (R$)', 'Débito de PIS/Pasep (R$)'), 'money', n.pisDebit],
    ['pisCreditsOfMonthDeducted', label('PIS/Pasep: credits of the month deducted (R$)', 'PIS/Pasep: créditos do mês descontados (R$)'), 'money', n.pisCreditsOfMonthDeducted],
    ['pisEarlierDeducted', label('PIS/Pasep: earlier balances deducted (R$)', 'PIS/Pasep: saldos anteriores descontados (R$)'), 'money', n.pisEarlierDeducted],
    ['pisNetDue', label('PIS/Pasep payable (R$)', 'PIS/Pasep a recolher (R$)'), 'money', n.pisDue],
    ['cofinsDebit', label('Cofins debit (R$)', 'Débito de Cofins (R$)'), 'money', n.cofinsDebit],
    ['cofinsCreditsOfMonthDeducted', label('Cofins: credits of the month deducted (R$)', 'Cofins: créditos do mês descontados (R$)'), 'money', n.cofinsCreditsOfMonthDeducted],
    ['cofinsEarlierDeducted', label('Cofins: earlier balances deducted (R$)', 'Cofins: saldos anteriores descontados (R$)'), 'money', n.cofinsEarlierDeducted],
    ['cofinsNetDue', label('Cofins payable (R$)', 'Cofins a recolher (R$)'), 'money', n.cofinsDue],
    ['cbsDue', label('CBS before offsets (R$)', 'CBS antes das compensações (R$)'), 'money', n.cbsDue],
    ['cbsCredits', label('CBS credits of the month (R$, LC 214/2025, arts. 47 and 168)', 'Créditos de CBS do mês (R$, LC 214/2025, arts. 47 e 168)'), 'money', n.cbsCredits],
    ['cbsCreditsDeducted', label('CBS credits deducted, of the month and carried (R$)', 'Créditos de CBS descontados, do mês e anteriores (R$)'), 'money', n.cbsCreditsDeducted],
    ['cbsOffset', label('Balances offset against the CBS (R$, LC 214/2025, art. 378)', 'Saldos compensados com a CBS (R$, LC 214/2025, art. 378)'), 'money', n.cbsOffset],
    ['cbsNetDue', label('CBS payable (R$)', 'CBS a recolher (R$)'), 'money', n.cbsNetDue],
    ['cbsCreditBalance', label('CBS credits carried (R$)', 'Créditos de CBS a transportar (R$)'), 'money', n.cbsCreditBalance],
    ['pisRefundable', label('PIS/Pasep refundable or offsettable (R$)', 'PIS/Pasep ressarcível ou compensável (R$)'), 'money', n.pisRefundable],
    ['cofinsRefundable', label('Cofins refundable or offsettable (R$)', 'Cofins ressarcível ou compensável (R$)'), 'money', n.cofinsRefundable],
    ['awaiting', label('Amounts awaiting a fact, a parameter or the election', 'Valores que aguardam um dado, um parâmetro ou a opção'), 'text', c.awaiting.join('; ') || null],
  ];
  return [
    { kind: 'fields', key: 'net', title: label('The month\'s net', 'Apuração líquida do mês'), fields: net.map(([key, l, type, value]) => ({ key, label: l, type, value })) },
    {
      kind: 'table', key: 'credits', title: label('Credits of the month by COD_CRED (table 4.3.6)', 'Créditos do mês por COD_CRED (tabela 4.3.6)'),
      columns: [col('codCred', 'COD_CRED', 'COD_CRED', 'text'), col('group', 'Revenue', 'Receita', 'text'), col('base', 'Base (R$)', 'Base (R$)', 'money'),
        col('pisRate', 'PIS/Pasep rate', 'Alíquota de PIS/Pasep', 'figure'), col('cofinsRate', 'Cofins rate', 'Alíquota de Cofins', 'figure'),
        col('pis', 'PIS/Pasep credit (R$)', 'Crédito de PIS/Pasep (R$)', 'money'), col('cofins', 'Cofins credit (R$)', 'Crédito de Cofins (R$)', 'money'), col('legalBasis', 'Legal basis', 'Fundamento legal', 'text')],
      rows: c.lines.map((l) => [l.codCred, l.group, l.base, l.pisRate, l.cofinsRate, l.pis, l.cofins, l.legalBasis]),
    },
    {
      kind: 'table', key: 'purchaseCredits', title: label('Credit of each purchase', 'Crédito de cada aquisição'),
      columns: [col('purchaseId', 'Purchase', 'Aquisição', 'text'), col('status', 'Status', 'Situação', 'text'), col('reason', 'Reason or awaited', 'Motivo ou pendência', 'text'),
        col('base', 'Base (R$)', 'Base (R$)', 'money'), col('pis', 'PIS/Pasep (R$)', 'PIS/Pasep (R$)', 'money'), col('cofins', 'Cofins (R$)', 'Cofins (R$)', 'money'), col('legalBasis', 'Legal basis', 'Fundamento legal', 'text')],
      rows: c.purchases.map((p) => [p.purchaseId, p.status, p.awaiting ?? p.reason, p.base, p.pis, p.cofins, p.legalBasis]),
    },
    ...(c.cbs.length === 0 ? [] : [{
      kind: 'table' as const, key: 'cbsPurchaseCredits', title: label('CBS credit of each purchase (LC 214/2025, arts. 47, 168 and 180)', 'Crédito de CBS de cada aquisição (LC 214/2025, arts. 47, 168 e 180)'),
      columns: [col('purchaseId', 'Purchase', 'Aquisição', 'text'), col('on', 'Day', 'Dia', 'date'), col('status', 'Status', 'Situação', 'text'),
        col('reason', 'Reason or awaited', 'Motivo ou pendência', 'text'), col('base', 'Base (R$)', 'Base (R$)', 'money'), col('rate', 'Presumed rate', 'Percentual presumido', 'figure'),
        col('amount', 'CBS credit (R$)', 'Crédito de CBS (R$)', 'money'), col('legalBasis', 'Legal basis', 'Fundamento legal', 'text')],
      rows: c.cbs.map((p) => [p.purchaseId, p.on, p.status, p.awaiting ?? p.reason, p.base, p.rate, p.amount, p.legalBasis]),
    }]),
    {
      kind: 'table', key: 'balances', title: label('Balances after the month (registers 1100/1500)', 'Saldos após o mês (registros 1100/1500)'),
      columns: [col('tax', 'Tax', 'Tributo', 'text'), col('origin', 'Month of origin', 'Mês de origem', 'text'), col('codCred', 'COD_CRED', 'COD_CRED', 'text'),
        col('original', 'Credit (R$)', 'Crédito (R$)', 'money'), col('deducted', 'Deducted (R$)', 'Descontado (R$)', 'money'), col('claimed', 'Claimed (R$)', 'Pedido (R$)', 'money'),
        col('offsetAgainstCbs', 'Offset against the CBS (R$)', 'Compensado com a CBS (R$)', 'money'), col('reversed', 'Reversed (R$)', 'Estornado (R$)', 'money'),
        col('remaining', 'Balance (R$)', 'Saldo (R$)', 'money'),
        col('refundableFrom', 'Refundable from', 'Ressarcível a partir de', 'date')],
      rows: c.balances.map((b) => [b.tax, `${b.originYear}-${pad(b.originMonth)}`, b.codCred, b.original, b.deducted, b.claimed, b.offsetAgainstCbs, b.reversed, b.remaining, b.refundableFrom]),
    },
  ];
}
