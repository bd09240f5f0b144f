import { nfeKeyDigit, nfeKeyProblem } from '../formats/nfe-key';
import { message } from '../i18n';
import { BadInputError } from './errors';

/** An NF-e key as given (trimmed), or BAD_USER_INPUT at `field` naming its shape, model or digit. */
export function checkedNfeKey(given: string, field: string): string {
  const key = given.trim();
  // The message names the argument as the caller wrote it: invoiceKey, originalKey, key.
  const name = field.slice(field.lastIndexOf('.') + 1);
  switch (nfeKeyProblem(key)) {
    case 'shape': throw new BadInputError(field, message('sale.invoiceKey', { field: name }));
    case 'model': throw new BadInputError(field, message('sale.invoiceKeyModel', { field: name, model: key.slice(20, 22) }));
    case 'digit': throw new BadInputError(field, message('sale.invoiceKeyDigit', { field: name, given: key[43], expected: String(nfeKeyDigit(key.slice(0, 43))) }));
    default: return key;
  }
}
