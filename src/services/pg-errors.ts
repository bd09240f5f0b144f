import { QueryFailedError } from 'typeorm';
import { BadInputError, ConflictError } from './errors';
import { message } from '../i18n';

/** Unique constraints the API reports as CONFLICT/DUPLICATE, with the input field each guards. */
const UNIQUE_FIELDS: Record<string, string> = {
  producer_cnpj_key: 'cnpj',
  family_farmer_cpf_key: 'cpf',
  family_farming_organization_cnpj_key: 'cnpj',
  purchase_producer_id_external_id_key: 'externalId',
  purchase_invoice_item: 'invoiceKey',
  sale_producer_invoice_key: 'invoiceKey',
  regime_election_producer_id_effective_year_key: 'electedOn',
  seal_evaluation_producer_year: 'year',
};

/** A unique key refused the row (SQLSTATE 23505): another request wrote it first. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505';
}

/**
 * Translate a constraint violation that slipped past validation (a race between two requests)
 * into the error the caller would have got from validation. Others are rethrown untouched.
 */
export function translateDbError(error: unknown, fieldPrefix = 'input'): never {
  if (error instanceof QueryFailedError) {
    const d = error.driverError as { code?: string; constraint?: string; detail?: string };
    if (isUniqueViolation(error)) {
      const field = (d.constraint && Object.hasOwn(UNIQUE_FIELDS, d.constraint) ? UNIQUE_FIELDS[d.constraint] : undefined) ?? 'input';
      if (d.constraint === 'regime_election_producer_id_effective_year_key') {
        throw new ConflictError('REGIME_ALREADY_ELECTED', message('regime.alreadyElectedThatYear'), `${fieldPrefix}.${field}`);
      }
      throw new ConflictError('DUPLICATE', message('input.duplicate', { field }), `${fieldPrefix}.${field}`);
    }
    if (d.code === '23514' || d.code === '23503' || d.code === '22P02' || d.code === '22003') {
      throw new BadInputError(fieldPrefix, message('input.rejectedByDatabase', { detail: d.constraint ?? d.detail ?? 'invalid value' }));
    }
  }
  throw error;
}
