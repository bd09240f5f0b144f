/** Configuration from the environment (README lists each variable). */
export interface Config {
  port: number;
  /** The address to listen on; unset: 127.0.0.1 with the embedded database (it prints an ADMIN token), every interface with DATABASE_URL. */
  host: string | undefined;
  databaseUrl: string | undefined;
  /** A streaming hot standby of DATABASE_URL for the analysts' reads (docs/SCALING.md); unset: every read on the primary. */
  readDatabaseUrl: string | undefined;
  /** Reads go back to the primary while the standby is further behind than this. */
  readReplicaMaxLagMs: number;
  /** Longest a client that has just written waits for the standby to replay its write before reading from the primary. */
  readReplicaWaitMs: number;
  jwtSecret: string | undefined;
  logLevel: string;
  /** Where the embedded PostgreSQL keeps its data when DATABASE_URL is not set. */
  dataDir: string;
  /** Browser origins allowed to call the API from another origin (CORS); none by default. */
  corsOrigins: string[];
  /** A manifest of the operations PRODUCER tokens may run (an allow-list); unset: any. */
  trustedDocumentsFile: string | undefined;
  /** How often the program's view looks for changed records to compute ahead in the background (docs/SCALING.md); 0: never. */
  programRefreshMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT || 4000),
    host: env.HOST || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    readDatabaseUrl: env.READ_DATABASE_URL || undefined,
    readReplicaMaxLagMs: milliseconds('READ_REPLICA_MAX_LAG_MS', env.READ_REPLICA_MAX_LAG_MS, 5000),
    readReplicaWaitMs: milliseconds('READ_REPLICA_WAIT_MS', env.READ_REPLICA_WAIT_MS, 500),
    jwtSecret: env.JWT_SECRET || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    dataDir: env.SELO_DATA_DIR || '.data/pg',
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    trustedDocumentsFile: env.TRUSTED_DOCUMENTS || undefined,
    programRefreshMs: milliseconds('PROGRAM_REFRESH_MS', env.PROGRAM_REFRESH_MS, 60_000),
  };
}

function milliseconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value.trim())) throw new ConfigurationError(`${name}: "${value}" is not a number of milliseconds such as ${fallback}`);
  return Number(value.trim());
}

function corsOrigins(value: string | undefined): string[] {
  const { origins, invalid } = parseOrigins(value);
  if (invalid !== null) throw new ConfigurationError(`CORS_ORIGINS: "${invalid}" is not an origin such as https://app.example.gov.br (scheme, host and port; no path)`);
  return origins;
}

/**
 * `CORS_ORIGINS` read as a list of origins, separated by commas or spaces. Each must be an origin as
 * a browser sends it — scheme, host and port, no path or trailing slash — or `invalid` names the
 * offending entry.
 */
export function parseOrigins(value: string | undefined): { origins: string[]; invalid: string | null } {
  const origins: string[] = [];
  for (const entry of (value ?? '').split(/[\s,]+/).filter(Boolean)) {
    let origin: string | null;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = null;
    }
    if (origin === null || origin === 'null' || origin !== entry) return { origins, invalid: entry };
    origins.push(origin);
  }
  return { origins, invalid: null };
}

/** A setting is missing or wrong: `npm start` says so in one line instead of a stack trace. */
export class ConfigurationError extends Error {}
