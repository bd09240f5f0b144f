import 'reflect-metadata';
import http from 'node:http';
import path from 'node:path';
import { importsRunning } from './http/import-slots';
import { ConfigurationError, loadConfig } from './config';
import { createDataSource, openDatabase } from './database/data-source';
import { LIMITS } from './graphql/limits';
import { loadDemoData } from './database/demo-data';
import { prepareDatabase } from './database/prepare';
import { keptSecret } from './graphql/auth/kept-secret';
import { verifierFromEnvironment } from './graphql/auth/token';
import { createLogger, printAfterLogs } from './logger';
import { createApp } from './server';
import { tokenBanner } from './banner';
import { ReadReplica } from './services/read-replica';
import { loadTrustedDocuments, TrustedDocuments } from './http/trusted-documents';

interface EmbeddedModule {
  EmbeddedPostgresError: new (message: string) => Error;
  startEmbeddedPostgres(o: { dataDir: string; persistent?: boolean; port?: number; log?: (m: string) => void; ownSignals?: boolean }): Promise<{ url: string; dataDir: string; stop(): Promise<void> }>;
}

/** Docker compose's grace period is longer. */
const SHUTDOWN_DEADLINE_MS = 25_000;

/** A bad file stops the start, said in one line. */
function trustedDocumentsOf(file: string): TrustedDocuments {
  try {
    return loadTrustedDocuments(file);
  } catch (e) {
    throw new ConfigurationError(`TRUSTED_DOCUMENTS: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function linkHost(host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.databaseUrl && !config.jwtSecret) throw new ConfigurationError('JWT_SECRET is required when DATABASE_URL is set (only the embedded default generates one for the run)');
  const logger = createLogger(config.logLevel);
  let databaseUrl = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let embeddedDataDir: string | undefined;
  if (!databaseUrl) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const embedded: EmbeddedModule = require('./database/embedded.mjs');
    // ownSignals: the shutdown below drains the requests in flight, then stops the cluster.
    const pg = await embedded.startEmbeddedPostgres({ dataDir: path.resolve(config.dataDir), log: (m) => logger.warn(m), ownSignals: true })
      .catch((error: unknown) => {
        throw error instanceof embedded.EmbeddedPostgresError ? new ConfigurationError(error.message) : error;
      });
    databaseUrl = pg.url;
    embeddedDataDir = pg.dataDir;
    stopEmbedded = () => pg.stop();
    logger.info({ dataDir: pg.dataDir }, 'embedded PostgreSQL started');
  }
  const dataSource = await openDatabase({ url: databaseUrl, poolSize: 20, statementTimeoutMs: LIMITS.requestTimeoutMs });
  await prepareDatabase(dataSource);
  if (!config.databaseUrl) {
    // The embedded default starts with the demo dataset (README).
    const [{ n }] = (await dataSource.query('SELECT count(*)::int AS n FROM producer')) as Array<{ n: number }>;
    if (n === 0) {
      const counts = await loadDemoData(dataSource);
      logger.info({ counts }, 'demo dataset loaded');
    }
  }

  // The embedded default keeps its generated secret beside its data: the tokens it prints survive a restart.
  const secretFile = !config.jwtSecret && embeddedDataDir ? path.join(embeddedDataDir, 'selo-api.jwt-secret') : undefined;
  const secret = config.jwtSecret ?? (secretFile ? keptSecret(secretFile) : undefined);
  if (!secret) throw new ConfigurationError('JWT_SECRET is required');
  // A standby down at start-up only sends the reads to the primary.
  const replica = config.readDatabaseUrl ? new ReadReplica(dataSource,
    createDataSource({ url: config.readDatabaseUrl, poolSize: 20, statementTimeoutMs: LIMITS.requestTimeoutMs, applicationName: 'selo-api-reader' }),
    { maxLagMs: config.readReplicaMaxLagMs, ownWriteWaitMs: config.readReplicaWaitMs,
      onChange: (usable, why) => (usable ? logger.info({ why }, 'read replica in use') : logger.warn({ why }, 'read replica not used: reads on the primary')) }) : undefined;
  const running = await createApp({ dataSource, replica, verifier: verifierFromEnvironment(process.env, secret), logger, corsOrigins: config.corsOrigins,
    trustedDocuments: config.trustedDocumentsFile ? trustedDocumentsOf(config.trustedDocumentsFile) : undefined, programRefreshMs: config.programRefreshMs });
  // Signals are handled before the first connection can come: a SIGTERM right after /readyz answers drains too.
  let stopping = false;
  const unanswered = new Set<http.ServerResponse>();
  running.httpServer.on('request', (_req, res: http.ServerResponse) => {
    unanswered.add(res);
    res.once('close', () => unanswered.delete(res));
  });
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: refusing new connections, finishing the requests in flight');
    // A request still running after this long is abandoned (its transaction rolls back).
    const force = setTimeout(() => {
      logger.error({ signal }, `graceful shutdown not finished after ${SHUTDOWN_DEADLINE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    force.unref();
    try {
      await running.stop();
      // The drain closes what is still open after its grace period: those requests were never answered.
      const cut = [...unanswered].filter((res) => !res.writableFinished).length;
      const imports = importsRunning();
      if (cut > 0 || imports > 0) {
        logger.warn({ requestsCut: cut, importsStillRunning: imports }, `HTTP server closed: ${cut} request(s) in flight were cut off unanswered; ${imports} import(s) still running (each commits all or nothing)`);
      } else logger.info('HTTP server closed: every request in flight was answered');
      await dataSource.destroy();
      if (replica?.dataSource.isInitialized) await replica.dataSource.destroy();
      logger.info('database pool closed');
      if (stopEmbedded) await stopEmbedded();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // It prints an ADMIN token: on this machine only, unless HOST says otherwise.
  const host = config.host ?? (config.databaseUrl ? undefined : '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    running.httpServer.once('error', reject);
    running.httpServer.listen(config.port, host, resolve);
  }).catch((error: NodeJS.ErrnoException) => {
    throw new ConfigurationError(`cannot listen on ${host ?? 'every interface'}, port ${config.port} (${error.code ?? error.message}); set PORT to a free port${error.code === 'EADDRNOTAVAIL' ? ' or HOST to an address of this machine' : ''}`);
  });

  const url = `http://${linkHost(host)}:${config.port}/graphql`;
  const banner = secretFile ? await tokenBanner(url, secretFile, secret, dataSource) : `\nSelo API ready: ${url} (GraphiQL)\n`;
  logger.info({ url, host: host ?? 'every interface' }, 'Selo API ready');
  // The log line first, then the banner in one write: nothing lands inside it.
  printAfterLogs(logger, banner);

}

main().catch((error) => {
  // A configuration mistake is said plainly; anything else keeps its stack for the operator.
  process.stderr.write(`${error instanceof ConfigurationError ? `selo-api: ${error.message}` : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
