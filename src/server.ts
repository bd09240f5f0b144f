import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { GraphQLFormattedError } from 'graphql';
import { DataSource } from 'typeorm';
import { actorFromAuthorization, TokenVerifier } from './graphql/auth/token';
import { compiledReadsGateway } from './graphql/compiled/executor';
import { stringifyResult } from './graphql/compiled/raw-json';
import { Context } from './graphql/context';
import { createErrorFormatter, databaseUnavailableStatus, checkInputText } from './graphql/errors';
import { armor, bodyErrors, introspectionCache, LIMITS, markQueryTooComplex, requestTimeout } from './graphql/limits';
import { createLoaders, Loaders } from './graphql/loaders';
import { getSchema } from './graphql/schema';
import { Exporter } from './export/exporter';
import { mountExport } from './http/export';
import { mountGraphiql } from './http/graphiql';
import { mountImport } from './http/import';
import { createMetrics } from './http/metrics';
import { logRequests } from './http/request-log';
import { Logger } from './logger';
import { currentLocale, currentRequestId, requestContext } from './request-context';
import { createServices } from './services';
import { AppError } from './services/errors';
import { localeOf, Locale, message, translate } from './i18n';
import { LocalizedGraphQLError } from './graphql/localized-error';
import { corsForOrigins } from './http/cors';
import compression from 'compression';
import { parseTraceParent } from './http/trace-context';
import { TrustedDocuments, trustedDocumentBodies, trustedDocumentsOnly } from './http/trusted-documents';

/** /readyz answers 503 when the database has not answered `SELECT 1` within this. */
const READY_TIMEOUT_MS = 2_000;

export interface ServerOptions {
  dataSource: DataSource;
  verifier: TokenVerifier;
  logger: Logger;
  /**
   * Answer each root field of a read that src/graphql/compiled/ can translate with one SQL
   * statement that builds its JSON (default true). False runs every operation through graphql-js only.
   */
  compiledReads?: boolean;
  /** Browser origins allowed to call the API (CORS_ORIGINS); none by default. */
  corsOrigins?: readonly string[];
  /** The operation allow-list of PRODUCER tokens (TRUSTED_DOCUMENTS); none by default. */
  trustedDocuments?: TrustedDocuments;
}

export interface RunningApp {
  app: express.Express;
  httpServer: http.Server;
  apollo: ApolloServer<Context>;
  stop(): Promise<void>;
}

/**
 * The language of the caller's messages, from its Accept-Language (q-values weighed): Portuguese
 * (`pt-BR`, `pt`, `pt-PT`) or English, the default (docs/API.md, "Languages").
 */
export function localeOfRequest(req: express.Request): Locale {
  // The answer depends on the header's text only: negotiated once per distinct header (clients
  // send the same few), not on every request.
  const header = req.headers['accept-language'] ?? '';
  let locale = LOCALE_OF_HEADER.get(header);
  if (locale === undefined) {
    locale = localeOf(req.acceptsLanguages('en', 'pt-BR', 'pt') || null);
    if (header.length > 200) return locale;
    if (LOCALE_OF_HEADER.size >= LOCALE_HEADERS_KEPT) LOCALE_OF_HEADER.clear();
    LOCALE_OF_HEADER.set(header, locale);
  }
  return locale;
}
const LOCALE_OF_HEADER = new Map<string, Locale>();
const LOCALE_HEADERS_KEPT = 500;

/**
 * A request's context whose loaders are made when a resolver first asks for them: a request
 * answered without one (`{ __typename }`, a cached introspection, a compiled read) never builds
 * the two dozen. The getter sits on a prototype of the request's own, because Apollo copies the
 * context's own properties (Object.assign onto an object of the same prototype), which would call it.
 */
export function contextWithLazyLoaders(values: Omit<Context, 'loaders'>): Context {
  let loaders: Loaders | undefined;
  const lazy = { get loaders() { return (loaders ??= createLoaders(values.services, values.actor)); } };
  return Object.assign(Object.create(lazy) as Context, values);
}

/** The HTTP application: POST /graphql, health endpoints. Listening is left to the caller. */
export async function createApp({ dataSource, verifier, logger, compiledReads = true, corsOrigins = [], trustedDocuments }: ServerOptions): Promise<RunningApp> {
  const services = createServices(dataSource);
  const app = express();
  app.disable('x-powered-by');
  // No ETag on res.send: GraphQL answers are POSTs, never revalidated, and hashing each body
  // (a page is 170 KB) was a measurable part of serving it. Static GraphiQL assets keep theirs.
  app.set('etag', false);
  const httpServer = http.createServer(app);
  const metrics = createMetrics(dataSource);

  const limits = armor();
  const formatAppError = createErrorFormatter(logger, currentRequestId, currentLocale);
  const formatError = (formatted: GraphQLFormattedError, error: unknown) => formatAppError(markQueryTooComplex(formatted, error), error);
  const schema = await getSchema();
  const apollo = new ApolloServer<Context>({
    // Compiled reads execute through an executor of their own (src/graphql/compiled/executor.ts).
    ...(compiledReads ? { gateway: compiledReadsGateway(schema, dataSource, logger) } : { schema }),
    formatError,
    stringifyResult,
    includeStacktraceInErrorResponses: false,
    validationRules: limits.validationRules,
    parseOptions: limits.parseOptions,
    allowBatchedHttpRequests: false,
    // main.ts owns SIGTERM/SIGINT: it stops the server, then closes the pool, then exits 0. Apollo's
    // own handler would race it (a second stop() while draining never returns).
    stopOnTerminationSignals: false,
    // No HTTP cache hints are used, and Apollo's cache-control plugin (on by default) wraps every
    // field resolver to collect them: a thousand-row page paid for it on each leaf.
    plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginDrainHttpServer({ httpServer }), metrics.apolloPlugin, databaseUnavailableStatus, checkInputText, ...limits.plugins, introspectionCache(metrics.introspectionCacheHit),
      ...(trustedDocuments ? [trustedDocumentsOnly(trustedDocuments)] : [])],
  });
  await apollo.start();

  // Once stopping, a request that still arrives (on a keep-alive connection being closed) is
  // refused before it runs: its answer could no longer be delivered, so it must write nothing.
  let stopping = false;
  app.use((req, res, next) => {
    if (!stopping) return next();
    res.setHeader('connection', 'close');
    res.status(503).json({ errors: [{ message: translate(message('http.shuttingDown'), localeOfRequest(req)), extensions: { code: 'SHUTTING_DOWN' } }] });
  });
  app.use((req, res, next) => {
    const requestId = (req.header('x-request-id') ?? '').slice(0, 64) || randomUUID();
    res.setHeader('x-request-id', requestId);
    const trace = parseTraceParent(req.headers.traceparent);
    requestContext.run({ requestId, locale: localeOfRequest(req), ...(trace ? { traceId: trace.traceId, parentId: trace.parentId } : {}) }, () => next());
  });
  app.use(logRequests(logger), metrics.httpMiddleware);
  if (corsOrigins.length > 0) app.use(corsForOrigins(corsOrigins));
  // gzip or brotli as the client's Accept-Encoding asks, for answers over 1 KB of a compressible
  // type (JSON, the GraphiQL page and its scripts). It wraps res.write/end: a body, the compiled
  // reads' JSON text included, goes through the compressor as it is written, never copied first.
  app.use(compression());

  const graphqlHandlers = [
    requestTimeout(),
    express.json({ limit: LIMITS.bodyLimit }),
    ...(trustedDocuments ? [trustedDocumentBodies(trustedDocuments)] : []),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        const requestId = currentRequestId() ?? randomUUID();
        try {
          const actor = await actorFromAuthorization(req.headers.authorization, verifier, requestId);
          return contextWithLazyLoaders({ actor, requestId, services });
        } catch (e) {
          if (e instanceof AppError) throw new LocalizedGraphQLError(e.text, { extensions: { code: e.code, http: { status: 401 } } });
          throw e;
        }
      },
    }),
    bodyErrors,
  ];
  // POST /graphql, the API's requests, is routed right after the middleware every request goes
  // through, not after the dozen routes of probes, GraphiQL, import and export it can never match;
  // the same handlers under app.use serve the other methods (GET queries, OPTIONS) at the end.
  app.post('/graphql', ...graphqlHandlers);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    // A database that accepts connections but answers nothing (hung, frozen) must not hang the
    // probe: no answer within READY_TIMEOUT_MS is "not ready" too.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('no answer')), READY_TIMEOUT_MS); });
    try {
      await Promise.race([dataSource.query('SELECT 1'), late]);
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'database unreachable' });
    } finally {
      clearTimeout(timer);
    }
  });

  app.get('/metrics', metrics.handler);
  mountGraphiql(app);
  mountImport(app, { dataSource, verifier, logger });
  const exporter = new Exporter(services);
  mountExport(app, { exporter, verifier, logger });

  app.use('/graphql', ...graphqlHandlers);

  httpServer.requestTimeout = LIMITS.requestTimeoutMs;

  return {
    app,
    httpServer,
    apollo,
    async stop() {
      stopping = true;
      await apollo.stop();
      await exporter.close();
      if (httpServer.listening) await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
