import express from 'express';
import { DataSource } from 'typeorm';
import { actorFromAuthorization, TokenVerifier } from '../graphql/auth/token';
import { ImportLineError } from '../import/import-error';
import { importCsv } from '../import/importer';
import { IMPORT_KINDS } from '../import/kinds';
import { currentRequestId } from '../request-context';
import { AppError } from '../services/errors';
import { Role } from '../law/types';
import { Logger } from '../logger';

const STATUS: Record<string, number> = { BAD_USER_INPUT: 400, UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409 };

/**
 * `POST /import/<kind>?producer=ID` with a `text/csv` body and a bearer token: the CSV imports of
 * `npm run import` for partners, streamed through the same code (all or nothing, errors with the
 * line and column), scoped like the API (DESIGN §4): a PRODUCER imports only for its own
 * producer (its token's producer when `producer` is omitted), an AUDITOR imports nothing, the
 * municipalities only an ADMIN. Answers `{ import: summary }` or `{ error: { code, message, line, column, reason } }`.
 */
export function mountImport(app: express.Express, { dataSource, verifier, logger }: { dataSource: DataSource; verifier: TokenVerifier; logger: Logger }): void {
  app.post('/import/:kind', async (req, res) => {
    const requestId = currentRequestId() ?? null;
    const fail = (status: number, error: Record<string, unknown>) => {
      req.resume();
      res.status(status).json({ error: { ...error, requestId } });
    };
    try {
      const actor = await actorFromAuthorization(req.headers.authorization, verifier, requestId);
      const kind = String(req.params.kind);
      if (!(kind in IMPORT_KINDS)) return fail(404, { code: 'NOT_FOUND', message: `Unknown import "${kind}": one of ${Object.keys(IMPORT_KINDS).join(', ')}` });
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (type !== 'text/csv') return fail(415, { code: 'BAD_REQUEST', message: 'The body must be a CSV file with Content-Type: text/csv' });
      const given = typeof req.query.producer === 'string' ? req.query.producer : null;
      const producerId = given ?? (actor.role === Role.PRODUCER && IMPORT_KINDS[kind as keyof typeof IMPORT_KINDS].producerScoped ? actor.producerId : null);
      const delimiter = typeof req.query.delimiter === 'string' && [',', ';', '\t'].includes(req.query.delimiter) ? req.query.delimiter : ',';
      const summary = await importCsv(dataSource, actor, { kind, producerId, input: req, delimiter });
      res.json({ import: summary });
    } catch (e) {
      if (e instanceof AppError) {
        const extra = e instanceof ImportLineError ? { line: e.line, column: e.column, ...(e.reason ? { reason: e.reason } : {}) } : e.extensions();
        return fail(STATUS[e.code] ?? 400, { code: e.code, message: e.message, ...extra });
      }
      logger.error({ err: e instanceof Error ? e.stack : String(e), requestId }, 'import failed');
      fail(500, { code: 'INTERNAL_SERVER_ERROR', message: `The import failed unexpectedly (request ${requestId ?? 'unknown'}); nothing was written` });
    }
  });
}
