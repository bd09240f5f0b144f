import express from 'express';
import { DataSource } from 'typeorm';
import { actorFromAuthorization, TokenVerifier } from '../graphql/auth/token';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../graphql/errors';
import { ImportLineError } from '../import/import-error';
import { importCsv, importKind, importTarget } from '../import/importer';
import { IMPORT_KINDS } from '../import/kinds';
import { currentLocale, currentRequestId } from '../request-context';
import { Actor } from '../services/actor';
import { AppError, BadInputError } from '../services/errors';
import { Role } from '../law/types';
import { Logger } from '../logger';
import { IMPORT_CONCURRENCY, ImportConcurrency, ImportSlots, NoImportSlot } from './import-slots';
import { receiveBody, SpooledBody, UPLOAD_LIMITS, UploadError, UploadLimits } from './upload';
import { message, Message, translate } from '../i18n';

const STATUS: Record<string, number> = { BAD_USER_INPUT: 400, UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409 };

const DELIMITERS = new Set([',', ';', '\t']);
const PARAMETERS = new Set(['producer', 'delimiter']);

/** A query parameter given at most once, as text (`?producer=1&producer=2` is refused, not half-read). */
function queryParameter(req: express.Request, name: string): string | null {
  const value = req.query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new BadInputError(name, message('import.parameterOnce', { field: name }));
  return value;
}

/** Whose imports count together against IMPORT_CONCURRENCY.perCaller: one token's subject, role and producer. */
function callerKey(actor: Actor): string {
  return JSON.stringify([actor.role, actor.producerId, actor.sub]);
}

export interface ImportRouteOptions {
  dataSource: DataSource;
  verifier: TokenVerifier;
  logger: Logger;
  upload?: UploadLimits;
  concurrency?: ImportConcurrency;
}

/**
 * `POST /import/<kind>?producer=ID` with a `text/csv` body and a bearer token: the CSV imports of
 * `npm run import` for partners, through the same code (all or nothing, errors with the line and
 * column), scoped like the API (DESIGN §4): a PRODUCER imports only for its own producer (its
 * token's producer when `producer` is omitted), an AUDITOR imports nothing, the municipalities only
 * an ADMIN. Answers `{ import: summary }` or `{ error: { code, message, line, column, reason } }`.
 *
 * In three steps: what needs neither file nor database (token, kind, producer, role) is checked
 * first; then the whole file is received (`receiveBody`: size cap, minimum rate, spooled), holding
 * no database connection; only then is it parsed and written in one transaction. Imports are
 * bounded per caller and in all (ImportSlots).
 */
export function mountImport(app: express.Express, options: ImportRouteOptions): void {
  const { dataSource, verifier, logger } = options;
  const slots = new ImportSlots(options.concurrency ?? IMPORT_CONCURRENCY);
  const limits = options.upload ?? UPLOAD_LIMITS;
  app.post('/import/:kind', async (req, res) => {
    const requestId = currentRequestId() ?? null;
    const say = (text: Message) => translate(text, currentLocale());
    const fail = (status: number, error: Record<string, unknown>, retryAfter = false) => {
      if (!req.readableEnded) req.resume();
      if (retryAfter) res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
      res.status(status).json({ error: { ...error, requestId } });
    };
    let release: (() => void) | null = null;
    let body: SpooledBody | null = null;
    try {
      const actor = await actorFromAuthorization(req.headers.authorization, verifier, requestId);
      const kindName = String(req.params.kind);
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const unknown = Object.keys(req.query).find((name) => !PARAMETERS.has(name));
      if (unknown !== undefined) throw new BadInputError(unknown, message('import.unknownParameter', { name: JSON.stringify(unknown) }));
      const given = queryParameter(req, 'producer');
      const delimiter = queryParameter(req, 'delimiter') ?? ',';
      if (!DELIMITERS.has(delimiter)) throw new BadInputError('delimiter', message('import.delimiter', { field: 'delimiter' }));
      if (!Object.hasOwn(IMPORT_KINDS, kindName)) return fail(404, { code: 'NOT_FOUND', message: say(message('import.unknownKind', { kind: kindName, kinds: Object.keys(IMPORT_KINDS).join(', ') })) });
      if (type !== 'text/csv') return fail(415, { code: 'BAD_REQUEST', message: say(message('import.contentType')) });
      const producerId = given ?? (actor.role === Role.PRODUCER && importKind(kindName).producerScoped ? actor.producerId : null);
      const target = importTarget(actor, kindName, producerId);
      release = slots.take(callerKey(actor));
      body = await receiveBody(req, limits);
      const summary = await importCsv(dataSource, actor, { kind: target.kind.name, producerId: target.producerId, input: body.stream(), delimiter });
      res.json({ import: summary });
    } catch (e) {
      if (e instanceof UploadError) {
        res.setHeader('connection', 'close');
        return fail(e.status, { code: e.code, message: say(e.text) });
      }
      if (e instanceof NoImportSlot) return fail(e.status, { code: 'TOO_MANY_REQUESTS', message: say(e.text) }, true);
      if (e instanceof AppError) {
        const extra = e instanceof ImportLineError ? { line: e.line, column: e.column, ...(e.reason ? { reason: e.reason } : {}) } : e.extensions();
        return fail(STATUS[e.code] ?? 400, { code: e.code, message: say(e.text), ...extra });
      }
      if (isDatabaseUnavailable(e)) {
        logger.error({ err: e instanceof Error ? e.message : String(e), requestId }, 'database unavailable');
        return fail(503, { code: 'DATABASE_UNAVAILABLE', message: say(message('import.databaseUnavailable')) }, true);
      }
      logger.error({ err: e instanceof Error ? e.stack : String(e), requestId }, 'import failed');
      fail(500, { code: 'INTERNAL_SERVER_ERROR', message: say(message('import.failed', { requestId: requestId ?? 'unknown' })) });
    } finally {
      release?.();
      await body?.dispose();
    }
  });
}
