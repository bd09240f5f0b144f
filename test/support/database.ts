import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, Logger } from 'typeorm';
import { openDatabase } from '../../src/database/data-source';

/** URL of the server the suite runs against: DATABASE_URL, or the embedded one of the global setup. */
export function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set (the jest global setup starts an embedded PostgreSQL)');
  return url;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export interface TestDatabase {
  url: string;
  dataSource: DataSource;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file, migrated like production. Dropped by `drop()`.
 */
export async function createTestDatabase(poolSize = 5, logger?: Logger): Promise<TestDatabase> {
  const name = `selo_test_${process.env.JEST_WORKER_ID ?? '0'}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl(), name);
  const dataSource = await openDatabase({ url, poolSize, logger });
  return {
    url,
    dataSource,
    async drop() {
      if (dataSource.isInitialized) await dataSource.destroy();
      const c = new Client({ connectionString: serverUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
