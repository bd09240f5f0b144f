import { closeDrawing, drawFile, MAX_ROWS } from '../../src/export/drawing';
import { ExportDocument, label } from '../../src/export/document';
import { Decimal } from '../../src/law/decimal';
import { BadInputError, TooManyRequestsError } from '../../src/services/errors';
import { pdfText } from '../support/pdf-text';

/**
 * Export files are written in a worker thread, a bounded number at a time, and no longer than a
 * bound per format: a statement of thousands of excluded items must not stop the API answering others.
 */
const PDF_MAX_ROWS = MAX_ROWS.pdf;
const toPdf = (doc: ExportDocument, locale: 'en' | 'pt-BR') => drawFile('pdf', doc, locale);

/** A statement of `rows` rows of five columns, the last a sentence as the findings are. */
function statement(rows: number, first = 0): ExportDocument {
  return {
    name: 'long', title: label('Excluded items', 'Itens excluídos'), subtitle: [label(`${rows} rows`, `${rows} linhas`)],
    sections: [{
      kind: 'table', key: 'excluded', title: label('Excluded', 'Excluídos'),
      columns: [
        { key: 'id', label: label('Id', 'Id'), type: 'text' },
        { key: 'on', label: label('On', 'Em'), type: 'date' },
        { key: 'amount', label: label('Amount', 'Valor'), type: 'money' },
        { key: 'counts', label: label('Counts', 'Conta'), type: 'boolean' },
        { key: 'message', label: label('Finding', 'Constatação'), type: 'text' },
      ],
      rows: Array.from({ length: rows }, (_, i) => [`P-${first + i}`, '2025-03-01', String(1000 + first + i), false, 'No valid registration of the supplier on the purchase date (Portaria MDA nº 28/2024)']),
    }],
  };
}

afterAll(() => closeDrawing());

test(`a PDF of ${PDF_MAX_ROWS + 1} rows is refused before any drawing, the CSV named`, async () => {
  const refused = await toPdf(statement(PDF_MAX_ROWS + 1), 'pt-BR').catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(BadInputError);
  expect((refused as Error).message).toMatch(/format=csv/);
  expect(refused).toMatchObject({ code: 'BAD_USER_INPUT', field: 'format', text: { key: 'export.tooLong', params: { format: 'pdf', rows: PDF_MAX_ROWS + 1, max: PDF_MAX_ROWS } } });
  // Fields count as rows too: one field more than the bound is refused as well.
  const withFields: ExportDocument = { ...statement(PDF_MAX_ROWS), sections: [...statement(PDF_MAX_ROWS).sections, { kind: 'fields', key: 'f', title: label('F', 'F'), fields: [{ key: 'x', label: label('X', 'X'), type: 'text', value: 'x' }] }] };
  await expect(toPdf(withFields, 'en')).rejects.toBeInstanceOf(BadInputError);
});

test(`a PDF of exactly ${PDF_MAX_ROWS} rows is drawn in a worker while the event loop goes on turning`, async () => {
  let turns = 0;
  let drawing = true;
  const turn = () => { turns += 1; if (drawing) setImmediate(turn); };
  setImmediate(turn);
  const pdf = await toPdf(statement(PDF_MAX_ROWS), 'en').finally(() => { drawing = false; });
  // Drawn on this thread, the loop would turn a handful of times in seconds of layout.
  expect(turns).toBeGreaterThan(1000);
  const text = await pdfText(pdf);
  expect(text).toContain('P-0');
  expect(text).toContain(`P-${PDF_MAX_ROWS - 1}`);
  expect(text).toMatch(/Page 1 of \d+/);
}, 60_000);

test('statements beyond those waiting are refused as TOO_MANY_REQUESTS; the others are drawn, and later ones again', async () => {
  const asked = Array.from({ length: 16 }, (_, i) => toPdf(statement(20, i * 100), 'pt-BR'));
  const settled = await Promise.allSettled(asked);
  const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason);
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.every((e) => e instanceof TooManyRequestsError && e.code === 'TOO_MANY_REQUESTS')).toBe(true);
  const drawn = settled.filter((s): s is PromiseFulfilledResult<Buffer> => s.status === 'fulfilled');
  expect(drawn.length).toBeGreaterThanOrEqual(8);
  // Each drawn statement is its own: its first row is the one it was asked with.
  for (const [i, s] of settled.entries()) if (s.status === 'fulfilled') expect(await pdfText(s.value)).toContain(`P-${i * 100}`);
  expect((await pdfText(await toPdf(statement(3, 7000), 'pt-BR')))).toMatch(/P-7002[\s\S]*Página 1 de 1/);
}, 60_000);

test(`a workbook of ${MAX_ROWS.xlsx + 1} rows is refused; the same rows as CSV are written, each figure as the CSV writes it`, async () => {
  const long = statement(MAX_ROWS.xlsx + 1);
  await expect(drawFile('xlsx', long, 'en')).rejects.toMatchObject({ code: 'BAD_USER_INPUT', field: 'format', text: { params: { format: 'xlsx', max: MAX_ROWS.xlsx } } });
  // Decimals cross to the worker as text and come back with the column's decimals, half-even.
  (long.sections[0] as { rows: unknown[][] }).rows[MAX_ROWS.xlsx] = ['P-last', '2025-12-31', new Decimal('30120.505'), true, 'x'];
  const csv = (await drawFile('csv', long, 'pt-BR')).toString('utf8');
  const lines = csv.trimEnd().split(/\r?\n/);
  expect(lines.at(-1)).toBe('P-last;31/12/2025;30120,50;sim;x');
  expect(lines.filter((l) => l.startsWith('P-')).length).toBe(MAX_ROWS.xlsx + 1);
}, 60_000);
