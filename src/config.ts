/** Configuration from the environment (README lists each variable). */
export interface Config {
  port: number;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  logLevel: string;
  /** Where the embedded PostgreSQL keeps its data when DATABASE_URL is not set. */
  dataDir: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT || 4000),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    dataDir: env.SELO_DATA_DIR || '.data/pg',
  };
}

/** A setting is missing or wrong: `npm start` says so in one line instead of a stack trace. */
export class ConfigurationError extends Error {}
