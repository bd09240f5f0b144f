import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { RequestHandler } from 'express';
import { message } from '../i18n';
import { Role } from '../law/types';
import { LocalizedGraphQLError } from '../graphql/localized-error';
import type { Context } from '../graphql/context';
import type { PerRequest } from '../graphql/request-hooks';

/**
 * Trusted documents (`TRUSTED_DOCUMENTS=<file>`): PRODUCER tokens run only the manifest's
 * operations (whole or by SHA-256); ADMIN and AUDITOR keep free queries. Reads graphql-codegen's
 * and Apollo's persisted-query manifests.
 */
export interface TrustedDocuments {
  /** Documents by the SHA-256 (hex) of their text. */
  byHash: ReadonlyMap<string, string>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The documents of a manifest file; each id must be the SHA-256 of its text. */
export function loadTrustedDocuments(file: string): TrustedDocuments {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  const entries: Array<[string, string]> = [];
  if (json && typeof json === 'object' && (json as { format?: unknown }).format === 'apollo-persisted-query-manifest') {
    for (const op of (json as { operations?: Array<{ id?: unknown; body?: unknown }> }).operations ?? []) entries.push([String(op.id), String(op.body)]);
  } else if (json && typeof json === 'object' && !Array.isArray(json)) {
    for (const [id, body] of Object.entries(json as Record<string, unknown>)) entries.push([id, String(body)]);
  } else {
    throw new Error(`${file}: not a persisted documents manifest`);
  }
  const byHash = new Map<string, string>();
  for (const [id, body] of entries) {
    const hash = id.replace(/^sha256:/, '').toLowerCase();
    if (hash !== sha256(body)) throw new Error(`${file}: document ${id} is not the SHA-256 of its text`);
    byHash.set(hash, body);
  }
  return { byHash };
}

/**
 * Before Apollo: a request that names a trusted document by its hash alone (`extensions.
 * persistedQuery.sha256Hash`, or `documentId: "sha256:<hash>"`) gets its text, so it runs on any
 * replica whatever its persisted query cache holds.
 */
export function trustedDocumentBodies(trusted: TrustedDocuments): RequestHandler {
  return (req, _res, next) => {
    fillTrustedDocument(trusted, req.body);
    next();
  };
}

/** The text of the trusted document a request body names by its hash alone, put in its `query`. */
export function fillTrustedDocument(trusted: TrustedDocuments, given: unknown): void {
  const body = given as { query?: unknown; documentId?: unknown; extensions?: { persistedQuery?: { sha256Hash?: unknown } } } | undefined;
  if (body && typeof body === 'object' && body.query === undefined) {
    const hash = typeof body.documentId === 'string' ? body.documentId.replace(/^sha256:/, '') : body.extensions?.persistedQuery?.sha256Hash;
    const document = typeof hash === 'string' ? trusted.byHash.get(hash.toLowerCase()) : undefined;
    if (document !== undefined) {
      body.query = document;
      delete body.documentId;
    }
  }
}

/** Refuse, before it runs, an operation of a PRODUCER token that is not a trusted document. */
export function trustedDocumentsOnly(trusted: TrustedDocuments): PerRequest<Context> {
  const check = {
    didResolveOperation({ request, contextValue }: { request: { query?: string }; contextValue: Context }) {
      if (contextValue.actor?.role !== Role.PRODUCER) return;
      if (typeof request.query === 'string' && trusted.byHash.has(sha256(request.query))) return;
      throw new LocalizedGraphQLError(message('trusted.notListed'), { extensions: { code: 'OPERATION_NOT_TRUSTED', http: { status: 403 } } });
    },
  };
  return () => check;
}
