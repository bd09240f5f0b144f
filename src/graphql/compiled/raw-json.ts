import type { FormattedExecutionResult } from 'graphql';

/**
 * JSON text written by the database (a compiled read's `data`), sent as it is: parsing 170 KB
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
 * The server's `stringifyResult`: Apollo's own (JSON.stringify and a newline), with a RawJson
 * `data` written as its text.
 */
export function stringifyResult(value: FormattedExecutionResult): string {
  if (value.data instanceof RawJson && value.errors === undefined && value.extensions === undefined) return `{"data":${value.data.text}}\n`;
  return `${JSON.stringify(value)}\n`;
}
