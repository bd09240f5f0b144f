import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from './config';
import { openDatabase } from './database/data-source';
import { prepareDatabase } from './database/prepare';
import { signToken, verifierFromEnvironment } from './graphql/auth/token';
import { Role } from './law/types';
import { createLogger } from './logger';
import { createApp } from './server';

interface EmbeddedModule {
  startEmbeddedPostgres(o: { dataDir: string; persistent?: boolean; port?: number; log?: (m: string) => void }): Promise<{ url: string; dataDir: string; stop(): Promise<void> }>;
}

/**
 * `npm start`: with no DATABASE_URL an embedded PostgreSQL under .data/ (DESIGN §3); migrations;
 * the shipped law; then serve GraphQL on PORT.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  let databaseUrl = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!databaseUrl) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const embedded: EmbeddedModule = require('./database/embedded.mjs');
    const pg = await embedded.startEmbeddedPostgres({ dataDir: path.resolve(config.dataDir), log: (m) => logger.warn(m) });
    databaseUrl = pg.url;
    stopEmbedded = () => pg.stop();
    logger.info({ dataDir: pg.dataDir }, 'embedded PostgreSQL started');
  }
  const dataSource = await openDatabase({ url: databaseUrl, poolSize: 20 });
  await prepareDatabase(dataSource);

  const embedded = !config.databaseUrl;
  const secret = config.jwtSecret ?? (embedded ? randomBytes(32).toString('hex') : undefined);
  if (!secret) throw new Error('JWT_SECRET is required when DATABASE_URL is set');
  const running = await createApp({ dataSource, verifier: verifierFromEnvironment(process.env, secret), logger });
  await new Promise<void>((resolve) => running.httpServer.listen(config.port, resolve));

  const url = `http://localhost:${config.port}/graphql`;
  logger.info({ url }, 'Selo API ready');
  process.stdout.write(`\nSelo API: ${url} (GraphiQL in a browser)\n`);
  if (!config.jwtSecret) {
    process.stdout.write('Tokens for this run (secret generated at start; set JWT_SECRET to keep one):\n');
    for (const role of [Role.ADMIN, Role.AUDITOR]) {
      process.stdout.write(`  ${role}: Bearer ${await signToken(secret, { sub: `demo-${role.toLowerCase()}`, role })}\n`);
    }
    const [first] = (await dataSource.query('SELECT id, legal_name FROM producer ORDER BY id LIMIT 1')) as Array<{ id: string; legal_name: string }>;
    if (first) {
      const token = await signToken(secret, { sub: `demo-producer-${first.id}`, role: Role.PRODUCER, producerId: String(first.id) });
      process.stdout.write(`  PRODUCER (${first.legal_name}, id ${first.id}): Bearer ${token}\n`);
    } else {
      process.stdout.write('  PRODUCER: no producer yet; after creating one: npm run token -- --role PRODUCER --producer ID (with JWT_SECRET)\n');
    }
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await running.stop();
    await dataSource.destroy();
    if (stopEmbedded) await stopEmbedded();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
