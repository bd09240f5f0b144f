import { Locale } from '../formats/brazilian';
import { findingMessage } from '../i18n/finding-message';
import { ProgramYear } from '../services/program-overview.service';
import { CellType, CellValue, Column, ExportDocument, label, Labels, Section } from './document';

const col = (key: string, en: string, pt: string, type: CellType): Column => ({ key, label: label(en, pt), type });

const SPLIT_COLUMNS = [
  col('actual', 'Actual (R$)', 'Efetivo (R$)', 'money'),
  col('weighted', 'Weighted (R$)', 'Ponderado (R$)', 'money'),
  col('count', 'Records', 'Registros', 'integer'),
];

function table(key: string, title: Labels, columns: Column[], rows: CellValue[][]): Section {
  return { kind: 'table', key, title, columns, rows };
}

/**
 * The program's year (programOverview, same service, same figures) as tables: the totals, the
 * producers by standing and verdict, the spending by alínea, region, state and product, the
 * families served, the standing changes and every producer's own figures.
 */
export function programDocument(y: ProgramYear, locale: Locale): ExportDocument {
  const t = y.totals;
  const f = y.families;
  const field = (key: string, en: string, pt: string, type: CellType, value: CellValue) => ({ key, label: label(en, pt), type, value });
  return {
    name: `selo-programa-${y.year}`,
    title: label(`Selo Biocombustível Social — the program in ${y.year}`, `Selo Biocombustível Social — o programa em ${y.year}`),
    subtitle: [label('Decreto 10.527/2020, arts. 2º–4º; Portaria MDA nº 28/2024', 'Decreto 10.527/2020, arts. 2º–4º; Portaria MDA nº 28/2024')],
    sections: [
      {
        kind: 'fields', key: 'year', title: label('The year', 'O ano'), fields: [
          field('year', 'Year', 'Ano', 'integer', y.year),
          field('asKnownOn', 'Law as known on', 'Legislação conhecida em', 'date', y.asKnownOn),
          field('on', 'Standing on', 'Situação em', 'date', y.on),
          field('producerCount', 'Producers', 'Produtores', 'integer', y.producers.length),
          field('salesRevenue', 'Revenue of own biodiesel sold (R$)', 'Receita do biodiesel próprio vendido (R$)', 'money', t.salesRevenue),
          field('base', 'Base (R$)', 'Base (R$)', 'money', t.base),
          field('familyFarmingAcquisitions', 'Family-farming raw material counted (R$)', 'Matéria-prima da agricultura familiar computada (R$)', 'money', t.familyFarmingAcquisitions),
          field('otherProductAcquisitions', 'Other family-farming products counted (R$)', 'Outros produtos da agricultura familiar computados (R$)', 'money', t.otherProductAcquisitions),
          field('fomento', 'Fomento counted (R$)', 'Fomento computado (R$)', 'money', t.fomento),
          field('actualTotal', 'Total counted, before weighting (R$)', 'Total computado, antes da ponderação (R$)', 'money', t.actualTotal),
          field('weightedTotal', 'Weighted total (R$)', 'Total ponderado (R$)', 'money', t.countedTotal),
          field('priorityRegionAmount', 'Spending in the priority region (R$)', 'Gasto na região prioritária (R$)', 'money', t.priorityRegionAmount),
          field('priorityRegionShare', 'Share of spending in the priority region', 'Parcela do gasto na região prioritária', 'share', t.priorityRegionShare),
          field('familyFarmers', 'Family farmers served directly', 'Agricultores familiares atendidos diretamente', 'integer', f.familyFarmers),
          field('organizations', 'Organizations sold through', 'Organizações fornecedoras', 'integer', f.organizations),
          field('organizationFamilyFarmerMembers', 'Their family-farmer members (declared)', 'Seus associados agricultores familiares (declarados)', 'integer', f.organizationFamilyFarmerMembers),
        ],
      },
      table('byStanding', label('Producers by Selo standing on 31 December', 'Produtores por situação do Selo em 31 de dezembro'),
        [col('standing', 'Standing', 'Situação', 'text'), col('producers', 'Producers', 'Produtores', 'integer')], y.byStanding.map((s) => [s.standing, s.producers])),
      table('byCompliance', label('Producers by verdict of the year', 'Produtores por resultado do ano'),
        [col('compliance', 'Verdict', 'Resultado', 'text'), col('producers', 'Producers', 'Produtores', 'integer')], y.byCompliance.map((s) => [s.compliance, s.producers])),
      table('byKind', label('Spending by alínea (art. 3º §2 I)', 'Gasto por alínea (art. 3º §2 I)'), [col('kind', 'Kind', 'Tipo', 'text'), ...SPLIT_COLUMNS],
        y.byKind.map((s) => [s.key, s.actual, s.weighted, s.count])),
      table('byRegion', label('Spending by region', 'Gasto por região'), [col('region', 'Region', 'Região', 'text'), ...SPLIT_COLUMNS],
        y.byRegion.map((s) => [s.key, s.actual, s.weighted, s.count])),
      table('byState', label('Spending by state, as spent', 'Gasto por UF, efetivo'),
        [col('state', 'State', 'UF', 'text'), col('region', 'Region', 'Região', 'text'), col('actual', 'Actual (R$)', 'Efetivo (R$)', 'money'), col('count', 'Records', 'Registros', 'integer')],
        y.byState.map((s) => [s.state, s.region, s.actual, s.count])),
      table('byFeedstock', label('Spending by product', 'Gasto por produto'), [col('feedstock', 'Product', 'Produto', 'text'), ...SPLIT_COLUMNS],
        y.byFeedstock.map((s) => [s.key ?? 'FOMENTO', s.actual, s.weighted, s.count])),
      table('familiesByMunicipality', label('Family farmers served, by municipality', 'Agricultores familiares atendidos, por município'),
        [col('state', 'State', 'UF', 'text'), col('ibgeCode', 'IBGE code', 'Código IBGE', 'text'), col('name', 'Municipality', 'Município', 'text'), col('familyFarmers', 'Family farmers', 'Agricultores familiares', 'integer')],
        f.byMunicipality.map((m) => [m.state, m.ibgeCode, m.name, m.familyFarmers])),
      table('standingChanges', label('Standing changed since 31 December of the year before', 'Situação alterada desde 31 de dezembro do ano anterior'),
        [col('producer', 'Producer', 'Produtor', 'text'), col('legalName', 'Name', 'Razão social', 'text'), col('before', 'Before', 'Antes', 'text'), col('after', 'After', 'Depois', 'text'), col('message', 'Why', 'Por quê', 'text')],
        y.standingChanges.map((c) => [c.producer.id, c.producer.legalName, c.before, c.after, findingMessage(c.reason, locale)])),
      table('producers', label('Producers', 'Produtores'),
        [col('producer', 'Producer', 'Produtor', 'text'), col('legalName', 'Name', 'Razão social', 'text'), col('standing', 'Standing', 'Situação', 'text'),
          col('status', 'Verdict', 'Resultado', 'text'), col('base', 'Base (R$)', 'Base (R$)', 'money'), col('actualTotal', 'Actual (R$)', 'Efetivo (R$)', 'money'),
          col('countedTotal', 'Weighted (R$)', 'Ponderado (R$)', 'money'), col('priorityRegionAmount', 'Priority region (R$)', 'Região prioritária (R$)', 'money')],
        y.producers.map((p) => [p.producer.id, p.producer.legalName, p.standing, p.report.status, p.report.base, p.report.actualTotal, p.report.countedTotal, p.report.priorityRegionAmount])),
    ],
  };
}
