import { Locale } from '../formats/brazilian';
import { Decimal } from '../law/decimal';
import { findingMessage } from '../i18n/finding-message';
import type { SealComplianceReport } from '../services/seal-compliance/compliance.service';
import { CellType, CellValue, ExportDocument, label, Labels, Section } from './document';
import { findingsSection, producerLine } from './sections';

/** The figures of a compliance year the document names, in order, with their labels and types. */
const FIELDS: Array<[key: string, labels: Labels, type: CellType]> = [
  ['year', label('Year', 'Ano'), 'integer'],
  ['asKnownOn', label('Law as known on', 'Legislação conhecida em'), 'date'],
  ['model', label('Model (FLAT or WEIGHTED)', 'Modelo (FLAT plano ou WEIGHTED ponderado)'), 'text'],
  ['modelLegalBasis', label('Legal basis of the model', 'Fundamento do modelo'), 'text'],
  ['salesRevenue', label('Revenue of own biodiesel sold (R$)', 'Receita do biodiesel próprio vendido (R$)'), 'money'],
  ['exportedValue', label('Value proportional to the exported volume (R$)', 'Valor proporcional ao volume exportado (R$)'), 'money'],
  ['base', label('Base (R$)', 'Base (R$)'), 'money'],
  ['familyFarmingAcquisitions', label('Family-farming raw material counted (R$)', 'Matéria-prima da agricultura familiar computada (R$)'), 'money'],
  ['otherProductAcquisitions', label('Other family-farming products counted (R$)', 'Outros produtos da agricultura familiar computados (R$)'), 'money'],
  ['fomento', label('Fomento counted (R$)', 'Fomento computado (R$)'), 'money'],
  ['actualTotal', label('Total counted, before weighting (R$)', 'Total computado, antes da ponderação (R$)'), 'money'],
  ['countedTotal', label('Total counted (R$)', 'Total computado (R$)'), 'money'],
  ['weightedTotal', label('Weighted total (R$)', 'Total ponderado (R$)'), 'money'],
  ['priorityRegionAmount', label('Spending in the priority region (R$)', 'Gasto na região prioritária (R$)'), 'money'],
  ['achievedShare', label('Share achieved', 'Percentual atingido'), 'share'],
  ['requiredShare', label('Share required', 'Percentual exigido'), 'share'],
  ['requiredShareLegalBasis', label('Legal basis of the share required', 'Fundamento do percentual exigido'), 'text'],
  ['shortfall', label('Shortfall (R$)', 'Falta (R$)'), 'money'],
  ['minimumShareMet', label('Minimum share met', 'Percentual mínimo atendido'), 'boolean'],
  ['priorityRegionShare', label('Share of spending in the priority region', 'Parcela do gasto na região prioritária'), 'share'],
  ['requiredPriorityRegionShare', label('Priority-region share required', 'Parcela exigida na região prioritária'), 'share'],
  ['requiredPriorityRegionShareLegalBasis', label('Legal basis of the priority-region share', 'Fundamento da parcela na região prioritária'), 'text'],
  ['priorityRegionShareMet', label('Priority-region share met', 'Parcela na região prioritária atendida'), 'boolean'],
  ['compliant', label('Compliant', 'Em conformidade'), 'boolean'],
  ['status', label('Verdict (COMPLIANT, NOT_COMPLIANT, NOT_ESTABLISHED)', 'Situação (COMPLIANT, NOT_COMPLIANT, NOT_ESTABLISHED)'), 'text'],
];

/** How an unnamed figure of the report is shown: Decimals as they are, the rest as text. */
function fallbackType(value: unknown): CellType {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'integer';
  if (value instanceof Decimal) return 'figure';
  return 'text';
}

/**
 * `sealCompliance` as tables: the year, every exclusion with its findings, the findings; figures
 * not named here are listed after, so nothing the API shows is left out.
 */
export function sealComplianceDocument(report: SealComplianceReport, locale: Locale): ExportDocument {
  const r = report as unknown as Record<string, unknown>;
  const named = new Set(FIELDS.map(([k]) => k));
  const fields = FIELDS.filter(([key]) => key in r).map(([key, l, type]) => ({ key, label: l, type, value: r[key] as CellValue }));
  for (const [key, value] of Object.entries(r)) {
    if (named.has(key) || key === 'producer') continue;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value) || value instanceof Decimal) {
      fields.push({ key, label: label(key, key), type: fallbackType(value), value: value as CellValue });
    }
  }
  const excluded = report.excluded;
  const sections: Section[] = [
    { kind: 'fields', key: 'year', title: label('The year', 'O ano'), fields },
    {
      kind: 'table', key: 'spending', title: label('Items counted, each factor applied', 'Itens computados, cada fator aplicado'),
      columns: [
        { key: 'source', label: label('Source', 'Origem'), type: 'text' },
        { key: 'kind', label: label('Kind', 'Tipo'), type: 'text' },
        { key: 'count', label: label('Records', 'Registros'), type: 'integer' },
        { key: 'region', label: label('Region', 'Região'), type: 'text' },
        { key: 'product', label: label('Product', 'Produto'), type: 'text' },
        { key: 'actual', label: label('Actual (R$)', 'Efetivo (R$)'), type: 'money' },
        { key: 'factors', label: label('Factors (alínea × figure)', 'Fatores (alínea × valor)'), type: 'text' },
        { key: 'weighted', label: label('Weighted (R$)', 'Ponderado (R$)'), type: 'money' },
      ],
      rows: report.spending.map((i) => [i.source, i.kind, i.count, i.semiarid ? `${i.region} (semiárido)` : i.region, i.product ?? '', i.actual,
        i.factors.map((f) => `${f.alinea} × ${f.value?.toFixed() ?? '?'}`).join(', '), i.weighted]),
    },
    {
      kind: 'table', key: 'excluded', title: label('Items that do not count, and why', 'Itens não computados, e por quê'),
      columns: [
        { key: 'source', label: label('Source', 'Origem'), type: 'text' },
        { key: 'id', label: label('Id', 'Id'), type: 'text' },
        { key: 'amount', label: label('Amount (R$)', 'Valor (R$)'), type: 'money' },
        { key: 'codes', label: label('Findings', 'Constatações'), type: 'text' },
        { key: 'messages', label: label('Why', 'Por quê'), type: 'text' },
        { key: 'legalBases', label: label('Legal basis', 'Fundamento legal'), type: 'text' },
      ],
      rows: excluded.map((e) => [e.source, e.id, e.amount, e.findings.map((f) => f.code).join(', '), e.findings.map((f) => findingMessage(f, locale)).join(' | '),
        [...new Set(e.findings.map((f) => f.legalBasis).filter(Boolean))].join('; ')]),
    },
    findingsSection(report.findings, locale),
  ];
  return {
    name: `selo-${report.year}-producer-${report.producer.id}`,
    title: label(`Selo Biocombustível Social — compliance of ${report.year}`, `Selo Biocombustível Social — cumprimento de ${report.year}`),
    subtitle: [producerLine(report.producer), label('Decreto 10.527/2020, arts. 2º–4º', 'Decreto 10.527/2020, arts. 2º–4º')],
    sections,
  };
}
