import { randomUUID } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { GraphQLFormattedError } from 'graphql';
import { DataSource } from 'typeorm';
import { actorFromAuthorization, TokenVerifier } from './graphql/auth/token';
import { compiledReadsSchema } from './graphql/compiled/execution';
import { Context } from './graphql/context';
import { checkMutationArguments } from './graphql/argument-checks';
import { createErrorFormatter, databaseUnavailableStatus, checkInputText, errorsInFieldOrder } from './graphql/errors';
import { armor, bodyErrors, fanOutLimit, introspectionCache, LIMITS, markQueryTooComplex, requestTimeout, variablesDepth } from './graphql/limits';
import { knownOperationTypes } from './graphql/known-operation-types';
import { createLoaders, Loaders } from './graphql/loaders';
import { privateAnswers } from './graphql/cache-control';
import { IsoDate, today } from './law/dates';
import { PerRequest, requestHooksPlugin } from './graphql/request-hooks';
import { getSchema } from './graphql/schema';
import { Exporter } from './export/exporter';
import { mountExport } from './http/export';
import { errorAnswers, notFound, refuseConnect, refuseUnparsed } from './http/error-answers';
import { mountGraphiql } from './http/graphiql';
import { mountImport } from './http/import';
import { mountNfeImport } from './http/nfe-import';
import { createMetrics } from './http/metrics';
import { logRequests } from './http/request-log';
import { Logger } from './logger';
import { currentLocale, currentRequestId, requestContext, requestEnded } from './request-context';
import { createServices } from './services';
import { ReadReplica } from './services/read-replica';
import { AppError } from './services/errors';
import { message, translate } from './i18n';
import { LocalizedGraphQLError } from './graphql/localized-error';
import { corsForOrigins } from './http/cors';
import { supportedContentEncoding, utf8Only } from './http/content-encoding';
import compression from 'compression';
import { programRefreshOf } from './services/program-refresh';
import { localeOfRequest, startRequest } from './http/request-start';
import { TrustedDocuments, trustedDocumentBodies, trustedDocumentsOnly } from './http/trusted-documents';
import { closeNfeReading } from './import/nfe/reading';

const READY_TIMEOUT_MS = 2_000;

export interface ServerOptions {
  dataSource: DataSource;
  replica?: ReadReplica;
  verifier: TokenVerifier;
  logger: Logger;
  /** src/graphql/compiled/ (default true). */
  compiledReads?: boolean;
  corsOrigins?: readonly string[];
  trustedDocuments?: TrustedDocuments;
  requestTimeoutMs?: number;
  /** Items of the long lists one response may hold (default LIMITS.maxListed). */
  maxListed?: number;
  /** The program's view computed in the background every so often (ProgramRefresh); 0, the default: never. */
  programRefreshMs?: number;
}

export interface RunningApp {
  app: express.Express;
  httpServer: http.Server;
  apollo: ApolloServer<Context>;
  /** Once the work left after the answers so far (the program's years being stored) is done. */
  settled(): Promise<void>;
  /** A look of the program's refresh now, as `PROGRAM_REFRESH_MS` takes one: true when it computed (after a bulk load, say). */
  refreshProgram(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * Loaders on first use. The getter is on a shared prototype: Apollo copies own properties (which
 * would call it), and a per-request prototype cost more.
 */
export function contextWithLazyLoaders(values: Omit<Context, 'loaders' | 'today'> & { today?: IsoDate }): Context {
  return new LazyLoadersContext(values);
}
const MADE = Symbol('loaders made');

/**
 * Once per UTC hour (Intl was 2 % of a small request's CPU); exact, as Sao Paulo's midnight always
 * falls on a UTC hour.
 */
let thisHour = { hour: NaN, day: '' as IsoDate };
function todayThisHour(): IsoDate {
  const hour = Math.floor(Date.now() / 3_600_000);
  if (hour !== thisHour.hour) thisHour = { hour, day: today() };
  return thisHour.day;
}
class LazyLoadersContext implements Context {
  actor: Context['actor'];
  requestId: string;
  services: Context['services'];
  today: IsoDate;
  listed?: { left: number; max: number };
  [MADE]: { loaders?: Loaders };
  constructor(values: Omit<Context, 'loaders' | 'today'> & { today?: IsoDate }) {
    this.actor = values.actor;
    this.requestId = values.requestId;
    this.services = values.services;
    if (values.listed) this.listed = values.listed;
    // Taken once: a request crossing midnight in Brazil still reads the law of one day.
    this.today = values.today ?? todayThisHour();
    this[MADE] = {};
  }
  get loaders(): Loaders {
    return (this[MADE].loaders ??= createLoaders(this.services, this.actor));
  }
}

/**
 * Apollo's answer, unless the request has been answered already (its timeout's 503): Apollo then
 * wrote into a sent response, which failed with ERR_HTTP_HEADERS_SENT, was logged as an unexpected
 * error and ended the connection the answer had kept alive.
 */
function unlessAnswered(handler: express.RequestHandler): express.RequestHandler {
  return async (req, res, next) => {
    try {
      await handler(req, res, next);
    } catch (e) {
      if (res.headersSent && (e as { code?: unknown } | null)?.code === 'ERR_HTTP_HEADERS_SENT') return;
      throw e;
    }
  };
}

export async function createApp({ dataSource, replica, verifier, logger, compiledReads = true, corsOrigins = [], trustedDocuments, requestTimeoutMs = LIMITS.requestTimeoutMs, maxListed = LIMITS.maxListed,
  programRefreshMs = 0 }: ServerOptions): Promise<RunningApp> {
  const services = createServices(dataSource, replica);
  const app = express();
  app.disable('x-powered-by');
  // POSTs are never revalidated, and hashing a 170 KB page was measurable.
  app.set('etag', false);
  const httpServer = http.createServer();
  const metrics = createMetrics(dataSource, replica);
  // Its years land in this process's kept years too: the overview of the day is answered from memory.
  const refresh = programRefreshOf(services, dataSource, {
    everyMs: programRefreshMs, observe: metrics.programRefreshed,
    onError: (error) => { if (!stopping) logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'program view not refreshed'); },
  });

  const limits = armor();
  const formatAppError = createErrorFormatter(logger, currentRequestId, currentLocale, requestEnded);
  const formatError = (formatted: GraphQLFormattedError, error: unknown) => formatAppError(markQueryTooComplex(formatted, error), error);
  const schema = await getSchema();
  const executed = compiledReads ? compiledReadsSchema(schema, dataSource, logger) : schema;
  const hooks: Array<PerRequest<Context>> = [metrics.requestHooks, errorsInFieldOrder, databaseUnavailableStatus, privateAnswers, checkInputText, fanOutLimit, introspectionCache(metrics.introspectionCacheHit),
    ...(trustedDocuments ? [trustedDocumentsOnly(trustedDocuments)] : []), checkMutationArguments];
  const apollo = new ApolloServer<Context>({
    schema: executed,
    formatError,
    includeStacktraceInErrorResponses: false,
    // GraphiQL and the clients' code generators need it in production too.
    introspection: true,
    validationRules: [...limits.validationRules, knownOperationTypes],
    parseOptions: limits.parseOptions,
    allowBatchedHttpRequests: false,
    // main.ts owns the signals; a second stop() while draining never returns.
    stopOnTerminationSignals: false,
    // Unused, and cache-control wraps every resolver; inline traces are for federated subgraphs.
    plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginDrainHttpServer({ httpServer }), requestHooksPlugin<Context>(hooks), ...limits.plugins],
  });
  await apollo.start();

  // Once stopping, a late keep-alive request could not be answered, so it must write nothing.
  let stopping = false;
  app.use((req, res, next) => {
    if (!stopping) return next();
    res.setHeader('connection', 'close');
    res.status(503).json({ errors: [{ message: translate(message('http.shuttingDown'), localeOfRequest(req)), extensions: { code: 'SHUTTING_DOWN' } }] });
  });
  app.use((req, res, next) => {
    requestContext.run(startRequest(req, res), () => next());
  });
  app.use(logRequests(logger), metrics.httpMiddleware);
  const cors = corsOrigins.length > 0 ? corsForOrigins(corsOrigins) : undefined;
  if (cors) app.use(cors);
  // The fastest settings, as nginx's default gzip_comp_level 1: CPU is what a request costs here
  // (gzip level 6 took 1 ms of a 220 KB page, level 1 a quarter of it, for 20 % more bytes).
  app.use(compression({ level: zlib.constants.Z_BEST_SPEED, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } } }));
  app.use(supportedContentEncoding);

  const context = async (authorization: string | undefined): Promise<Context> => {
    const requestId = currentRequestId() ?? randomUUID();
    try {
      const actor = await actorFromAuthorization(authorization, verifier, requestId);
      return contextWithLazyLoaders({ actor, requestId, services: await services.forReads(actor), listed: { left: maxListed, max: maxListed } });
    } catch (e) {
      if (e instanceof AppError) throw new LocalizedGraphQLError(e.text, { extensions: { code: e.code, http: { status: 401 } } });
      throw e;
    }
  };
  const graphqlHandlers = [
    requestTimeout(requestTimeoutMs),
    express.json({ limit: LIMITS.bodyLimit, verify: utf8Only }),
    variablesDepth,
    ...(trustedDocuments ? [trustedDocumentBodies(trustedDocuments)] : []),
    unlessAnswered(expressMiddleware(apollo, { context: ({ req }) => context(req.headers.authorization) })),
    bodyErrors,
  ];
  // First, not after a dozen routes it can never match; other methods are served at the end.
  app.post('/graphql', ...graphqlHandlers);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    // A hung database must not hang the probe.
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
  // Before /import/:kind, which would read `nfe` as a CSV kind.
  mountNfeImport(app, { dataSource, services, verifier, logger });
  mountImport(app, { dataSource, verifier, logger });
  const exporter = new Exporter(services);
  mountExport(app, { exporter, verifier, logger });

  app.use('/graphql', ...graphqlHandlers);
  app.use(notFound);
  app.use(errorAnswers(logger));

  httpServer.on('request', app);
  httpServer.on('connect', refuseConnect(logger));
  httpServer.on('clientError', refuseUnparsed(logger));
  httpServer.requestTimeout = LIMITS.requestTimeoutMs;
  refresh.start();

  return {
    app,
    httpServer,
    apollo,
    settled: () => services.settled(),
    refreshProgram: () => refresh.tick(),
    async stop() {
      stopping = true;
      await refresh.stop();
      await apollo.stop();
      // The years the last answers computed are stored before the pool closes.
      await services.settled();
      await exporter.close();
      await closeNfeReading();
      if (httpServer.listening) await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
