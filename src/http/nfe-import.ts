import express from 'express';
import { DataSource } from 'typeorm';
import { actorFromAuthorization, TokenVerifier } from '../graphql/auth/token';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../graphql/errors';
import { importNfe, shownProblem } from '../import/nfe/importer';
import { readNfeUpload } from '../import/nfe/reading';
import { message, translate } from '../i18n';
import { Role } from '../law/types';
import { Logger } from '../logger';
import { currentLocale, currentRequestId } from '../request-context';
import { Actor } from '../services/actor';
import { AppError, BadInputError } from '../services/errors';
import { Services } from '../services';
import { IMPORT_CONCURRENCY, ImportSlots, NoImportSlot } from './import-slots';
import { formFile } from './multipart';
import { lingerOn, receiveBody, UPLOAD_LIMITS, UploadError } from './upload';

const STATUS: Record<string, number> = { BAD_USER_INPUT: 400, UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409 };
const TYPES = new Set(['application/xml', 'text/xml', 'application/zip', 'application/x-zip-compressed', 'application/octet-stream']);

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** `POST /import/nfe?producer=ID[&partial=items]`, scoped like the other imports (docs/API.md). */
export function mountNfeImport(app: express.Express, options: { dataSource: DataSource; services: Services; verifier: TokenVerifier; logger: Logger }): void {
  const slots = new ImportSlots(IMPORT_CONCURRENCY);
  app.post('/import/nfe', async (req, res) => {
    const requestId = currentRequestId() ?? null;
    const language = currentLocale();
    const fail = (status: number, error: Record<string, unknown>) => {
      if (!req.readableEnded) req.resume();
      res.status(status).json({ error: { ...error, requestId } });
    };
    let release: (() => void) | null = null;
    let dispose: (() => Promise<void>) | null = null;
    try {
      const actor: Actor = await actorFromAuthorization(req.headers.authorization, options.verifier, requestId);
      const unknown = Object.keys(req.query).find((name) => name !== 'producer' && name !== 'partial');
      if (unknown !== undefined) throw new BadInputError(unknown, message('import.unknownParameter', { name: JSON.stringify(unknown) }));
      const partial = req.query.partial;
      if (partial !== undefined && partial !== 'items') throw new BadInputError('partial', message('nfe.partial'));
      const given = typeof req.query.producer === 'string' ? req.query.producer : null;
      const producerId = given ?? (actor.role === Role.PRODUCER ? actor.producerId : null);
      if (producerId === null) throw new BadInputError('producer', message('nfe.producerRequired'));
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (type !== 'multipart/form-data' && !TYPES.has(type)) return fail(415, { code: 'BAD_REQUEST', message: translate(message('nfe.contentType'), language) });
      release = slots.take(JSON.stringify([actor.role, actor.producerId, actor.sub]));
      const body = await receiveBody(req, { ...UPLOAD_LIMITS, maxBytes: Math.min(UPLOAD_LIMITS.maxBytes, 64 * 1024 * 1024) });
      dispose = () => body.dispose();
      const form = type === 'multipart/form-data' ? await formFile(body.stream(), req.headers) : null;
      const bytes = await bytesOf(form ? form.stream : body.stream());
      // Inflated and parsed by a worker thread: the event loop goes on answering meanwhile.
      const read = await readNfeUpload(form?.filename || 'upload.xml', bytes);
      const summary = await importNfe(options.dataSource, options.services, actor, { producerId, read, partial: partial === 'items' });
      res.json({ import: { ...summary, problems: summary.problems.map((p) => shownProblem(p, language)) } });
    } catch (e) {
      if (e instanceof UploadError) {
        lingerOn(req);
        return fail(e.status, { code: e.code, message: translate(e.text, language) });
      }
      if (e instanceof NoImportSlot) {
        res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
        return fail(e.status, { code: 'TOO_MANY_REQUESTS', message: translate(e.text, language) });
      }
      if (e instanceof AppError) return fail(STATUS[e.code] ?? 400, { code: e.code, message: translate(e.text, language), ...e.extensions(language) });
      if (isDatabaseUnavailable(e)) return fail(503, { code: 'DATABASE_UNAVAILABLE', message: translate(message('import.databaseUnavailable'), language) });
      options.logger.error({ err: e instanceof Error ? e.stack : String(e), requestId }, 'NF-e import failed');
      fail(500, { code: 'INTERNAL_SERVER_ERROR', message: translate(message('import.failed', { requestId: requestId ?? 'unknown' }), language) });
    } finally {
      release?.();
      await dispose?.();
    }
  });
}
