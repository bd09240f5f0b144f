import express from 'express';
import { Exporter, ExportFile, requireAsKnownOn, requireEfdFormat, requireFormat, requireIncidence, requireInt } from '../export/exporter';
import { Locale, parseLocale } from '../formats/brazilian';
import { message, translate } from '../i18n';
import { actorFromAuthorization, TokenVerifier } from '../graphql/auth/token';
import { isDatabaseBusy, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../graphql/errors';
import { NoRuleInForceError } from '../law/errors';
import { Logger } from '../logger';
import { currentLocale, currentRequestId } from '../request-context';
import { Actor } from '../services/actor';
import { AppError, BadInputError } from '../services/errors';

const STATUS: Record<string, number> = {
  BAD_USER_INPUT: 400, UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409, NO_RULE_IN_FORCE: 422, TOO_MANY_REQUESTS: 429,
};

/** A query parameter given once (a repeated one is refused, never half-read). */
function single(req: express.Request, name: string, required = true): string | null {
  const v = req.query[name];
  if (v === undefined || v === '') {
    if (required) throw new BadInputError(name, message('export.required', { field: name }));
    return null;
  }
  if (typeof v !== 'string') throw new BadInputError(name, message('import.parameterOnce', { field: name }));
  return v;
}

/** The labels' language: `?locale=`, else English when Accept-Language prefers it to Portuguese, else pt-BR (the files are Brazilian: `;`, 30120,50, 03/11/2026). */
function localeOf(req: express.Request): Locale {
  const given = single(req, 'locale', false);
  if (given !== null) {
    const locale = parseLocale(given);
    if (!locale) throw new BadInputError('locale', message('import.locale', { field: 'locale', value: given }));
    return locale;
  }
  return req.acceptsLanguages('pt-BR', 'pt', 'en') === 'en' ? 'en' : 'pt-BR';
}

/** ASCII name for the header, the UTF-8 one beside it (RFC 6266). */
function disposition(filename: string): string {
  return `attachment; filename="${filename.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * `GET /export/…`: the API's figures as CSV, XLSX, PDF or the EFD file, bearer token and scope as in
 * the API; errors as `{ error: { code, message, field, requestId } }`. All written in-process.
 */
export function mountExport(app: express.Express, { exporter, verifier, logger }: { exporter: Exporter; verifier: TokenVerifier; logger: Logger }): void {
  const route = (path: string, run: (actor: Actor, req: express.Request) => Promise<ExportFile>) => {
    app.get(path, async (req, res) => {
      const requestId = currentRequestId() ?? null;
      try {
        const actor = await actorFromAuthorization(req.headers.authorization, verifier, requestId);
        const file = await run(actor, req);
        res.setHeader('content-type', file.contentType);
        res.setHeader('content-disposition', disposition(file.filename));
        res.setHeader('cache-control', 'no-store');
        if (file.page) {
          res.setHeader('x-page-has-next-page', String(file.page.hasNextPage));
          if (file.page.endCursor) res.setHeader('x-page-end-cursor', file.page.endCursor);
        }
        res.end(file.body);
      } catch (e) {
        if (e instanceof AppError || e instanceof NoRuleInForceError) {
          const extra = e instanceof AppError ? e.extensions() : { legalBasis: e.legalBasis };
          if (e.code === 'TOO_MANY_REQUESTS') res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
          res.status(STATUS[e.code] ?? 400).json({ error: { code: e.code, message: translate(e.text, currentLocale()), ...extra, requestId } });
          return;
        }
        if (isDatabaseUnavailable(e)) {
          res.status(503).setHeader('retry-after', '5').json({ error: { code: 'DATABASE_UNAVAILABLE', message: translate(message('http.databaseUnavailable', { requestId: requestId ?? 'unknown' }), currentLocale()), requestId } });
          return;
        }
        if (isDatabaseBusy(e)) {
          res.status(503).setHeader('retry-after', String(RETRY_AFTER_SECONDS)).json({ error: { code: 'DATABASE_BUSY', message: translate(message('http.databaseBusy', { requestId: requestId ?? 'unknown' }), currentLocale()), requestId } });
          return;
        }
        logger.error({ err: e instanceof Error ? e.stack : String(e), requestId }, 'export failed');
        res.status(500).json({ error: { code: 'INTERNAL_SERVER_ERROR', message: translate(message('export.failed', { requestId: requestId ?? 'unknown' }), currentLocale()), requestId } });
      }
    });
  };

  route('/export/tax-period', (actor, req) => exporter.taxPeriod(actor, {
    producerId: single(req, 'producer')!, year: requireInt(single(req, 'year'), 'year'), month: requireInt(single(req, 'month'), 'month'), asKnownOn: requireAsKnownOn(single(req, 'asKnownOn', false)),
  }, requireFormat(single(req, 'format', false) ?? 'csv'), localeOf(req)));

  route('/export/seal-compliance', (actor, req) => exporter.sealCompliance(actor, {
    producerId: single(req, 'producer')!, year: requireInt(single(req, 'year'), 'year'), asKnownOn: requireAsKnownOn(single(req, 'asKnownOn', false)),
  }, requireFormat(single(req, 'format', false) ?? 'csv'), localeOf(req)));

  route('/export/program', (actor, req) => exporter.program(actor, {
    year: requireInt(single(req, 'year'), 'year'), asKnownOn: requireAsKnownOn(single(req, 'asKnownOn', false)),
  }, requireFormat(single(req, 'format', false) ?? 'csv'), localeOf(req)));

  route('/export/purchases', (actor, req) => {
    const first = single(req, 'first', false);
    return exporter.purchases(actor, {
      producerId: single(req, 'producer')!, first: first === null ? null : requireInt(first, 'first'), after: single(req, 'after', false),
      from: single(req, 'from', false), to: single(req, 'to', false),
    }, requireFormat(single(req, 'format', false) ?? 'csv'), localeOf(req));
  });

  route('/export/efd', (actor, req) => exporter.efd(actor, {
    producerId: single(req, 'producer')!, year: requireInt(single(req, 'year'), 'year'), month: requireInt(single(req, 'month'), 'month'),
    format: requireEfdFormat(single(req, 'format', false)), incidence: requireIncidence(single(req, 'incidence', false)),
  }));
}
