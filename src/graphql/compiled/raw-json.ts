import type { FormattedExecutionResult } from 'graphql';

/**
 * JSON text written by the database (a compiled read's value), sent as it is: parsing 170 KB
 * only to serialise it again cost a page more than its SQL did.
 */
export class RawJson {
  constructor(readonly text: string) {}

  /** Whatever else serialises the response gets the same value. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * The server's `stringifyResult`: Apollo's own (JSON.stringify and a newline), with the RawJson
 * values of `data`'s root fields written as their text, in one string.
 */
export function stringifyResult(value: FormattedExecutionResult): string {
  const data = value.data;
  if (!data || !Object.values(data).some((v) => v instanceof RawJson)) return `${JSON.stringify(value)}\n`;
  const parts: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (key !== 'data') {
      parts.push(`${JSON.stringify(key)}:${JSON.stringify(v)}`);
      continue;
    }
    const fields = Object.entries(data).map(([k, d]) => `${JSON.stringify(k)}:${d instanceof RawJson ? d.text : JSON.stringify(d)}`);
    parts.push(`"data":{${fields.join(',')}}`);
  }
  return `{${parts.join(',')}}\n`;
}
