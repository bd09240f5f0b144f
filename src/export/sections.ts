import { Producer } from '../domain';
import { Locale } from '../formats/brazilian';
import { findingMessage } from '../i18n/finding-message';
import { Finding } from '../law/findings';
import { label, Labels, Section } from './document';

/** The producer a document is about: name, CNPJ, id. */
export function producerLine(producer: Producer): Labels {
  return label(`${producer.legalName} — CNPJ ${producer.cnpj} (producer ${producer.id})`, `${producer.legalName} — CNPJ ${producer.cnpj} (produtor ${producer.id})`);
}

/** Findings as a table: their code, what they say and the provision they cite. */
export function findingsSection(findings: readonly Finding[], locale: Locale, key = 'findings', title = label('Findings', 'Constatações')): Section {
  return {
    kind: 'table', key, title,
    columns: [
      { key: 'code', label: label('Code', 'Código'), type: 'text' },
      { key: 'message', label: label('Finding', 'Constatação'), type: 'text' },
      { key: 'legalBasis', label: label('Legal basis', 'Fundamento legal'), type: 'text' },
    ],
    rows: findings.map((f) => [f.code, findingMessage(f, locale), f.legalBasis]),
  };
}
