import express from 'express';
import { DataSource } from 'typeorm';
import { actorFromAuthorization, TokenVerifier } from '../graphql/auth/token';
import { isDatabaseBusy, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../graphql/errors';
import { parseLocale } from '../formats/brazilian';
import { importFile, importKind, importTarget } from '../import/importer';
import { quoted } from '../import/import-error';
import type { ReadLimits } from '../import/sources';
import { IMPORT_KINDS } from '../import/kinds';
import { currentLocale, currentRequestId } from '../request-context';
import { Actor } from '../services/actor';
import { AppError, BadInputError } from '../services/errors';
import { Role } from '../law/types';
import { Logger } from '../logger';
import { IMPORT_CONCURRENCY, ImportConcurrency, ImportSlots, NoImportSlot } from './import-slots';
import { formFile } from './multipart';
import { lingerOn, receiveBody, SpooledBody, UPLOAD_LIMITS, UploadError, UploadLimits } from './upload';
import { message, Message, translate } from '../i18n';

const STATUS: Record<string, number> = { BAD_USER_INPUT: 400, UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409 };

const DELIMITERS = new Set([',', ';', '\t']);
const PARAMETERS = new Set(['producer', 'delimiter', 'locale', 'act', 'validFrom', 'validUntil']);

/** Windows browsers label a .csv `application/vnd.ms-excel`; the bytes, not the label, tell. */
const FILE_TYPES = new Set([
  'text/csv', 'application/csv', 'text/comma-separated-values', 'text/x-csv', 'application/x-csv', 'text/plain', 'text/tab-separated-values',
  'application/vnd.ms-excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream',
]);
const FORM = 'multipart/form-data';

/** Refused, not half-read, when given twice. */
function queryParameter(req: express.Request, name: string): string | null {
  const value = req.query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new BadInputError(name, message('import.parameterOnce', { field: name }));
  return value;
}

function callerKey(actor: Actor): string {
  return JSON.stringify([actor.role, actor.producerId, actor.sub]);
}

export interface ImportRouteOptions {
  dataSource: DataSource;
  verifier: TokenVerifier;
  logger: Logger;
  upload?: UploadLimits;
  concurrency?: ImportConcurrency;
  limits?: ReadLimits;
  readTimeoutMs?: number;
}

/** The request's own 30 s are for the upload to arrive. */
export const IMPORT_READ_TIMEOUT_MS = 30_000;

/**
 * `POST /import/<kind>?producer=ID`: `npm run import` over HTTP, scoped like the API (docs/API.md).
 * The file is received whole before any connection is held, then written in one transaction.
 */
export function mountImport(app: express.Express, options: ImportRouteOptions): ImportSlots {
  const { dataSource, verifier, logger } = options;
  const slots = new ImportSlots(options.concurrency ?? IMPORT_CONCURRENCY);
  const readTimeoutMs = options.readTimeoutMs ?? IMPORT_READ_TIMEOUT_MS;
  const limits = options.upload ?? UPLOAD_LIMITS;
  app.post('/import/:kind', async (req, res) => {
    const requestId = currentRequestId() ?? null;
    let language = currentLocale();
    const say = (text: Message) => translate(text, language);
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
      if (unknown !== undefined) throw new BadInputError(quoted(unknown), message('import.unknownParameter', { name: quoted(JSON.stringify(unknown)) }));
      const given = queryParameter(req, 'producer');
      // Detected from the header line when not given (and the error a wrong one causes says which was used).
      const delimiter = queryParameter(req, 'delimiter');
      if (delimiter !== null && !DELIMITERS.has(delimiter)) throw new BadInputError('delimiter', message('import.delimiter', { field: 'delimiter' }));
      // The messages' language is Accept-Language's, or this one.
      const localeParameter = queryParameter(req, 'locale');
      const locale = parseLocale(localeParameter);
      if (locale === undefined) throw new BadInputError('locale', message('import.locale', { field: 'locale', value: quoted(localeParameter ?? '') }));
      if (locale) language = locale;
      if (!Object.hasOwn(IMPORT_KINDS, kindName)) return fail(404, { code: 'NOT_FOUND', message: say(message('import.unknownKind', { kind: quoted(kindName), kinds: Object.keys(IMPORT_KINDS).join(', ') })) });
      if (type !== FORM && !FILE_TYPES.has(type)) return fail(415, { code: 'BAD_REQUEST', message: say(message('import.contentType')) });
      const producerId = given ?? (actor.role === Role.PRODUCER && importKind(kindName).producerScoped ? actor.producerId : null);
      const edition = { act: queryParameter(req, 'act'), validFrom: queryParameter(req, 'validFrom'), validUntil: queryParameter(req, 'validUntil') };
      const target = importTarget(actor, kindName, producerId, edition);
      release = slots.take(callerKey(actor));
      body = await receiveBody(req, limits);
      const input = type === FORM ? (await formFile(body.stream(), req.headers)).stream : body.stream();
      const summary = await importFile(dataSource, actor, { kind: target.kind.name, producerId: target.producerId, edition, input, delimiter, locale, limits: options.limits, readTimeoutMs });
      res.json({ import: summary });
    } catch (e) {
      if (e instanceof UploadError) {
        lingerOn(req);
        return fail(e.status, { code: e.code, message: say(e.text) });
      }
      if (e instanceof NoImportSlot) return fail(e.status, { code: 'TOO_MANY_REQUESTS', message: say(e.text) }, true);
      if (e instanceof AppError) {
        const extra = e.extensions(language);
        return fail(STATUS[e.code] ?? 400, { code: e.code, message: say(e.text), ...extra });
      }
      if (isDatabaseUnavailable(e)) {
        logger.error({ err: e instanceof Error ? e.message : String(e), requestId }, 'database unavailable');
        return fail(503, { code: 'DATABASE_UNAVAILABLE', message: say(message('import.databaseUnavailable')) }, true);
      }
      if (isDatabaseBusy(e)) {
        logger.error({ err: e instanceof Error ? e.message : String(e), requestId }, 'database busy');
        return fail(503, { code: 'DATABASE_BUSY', message: say(message('import.databaseBusy')) }, true);
      }
      logger.error({ err: e instanceof Error ? e.stack : String(e), requestId }, 'import failed');
      fail(500, { code: 'INTERNAL_SERVER_ERROR', message: say(message('import.failed', { requestId: requestId ?? 'unknown' })) });
    } finally {
      release?.();
      await body?.dispose();
    }
  });
  return slots;
}
