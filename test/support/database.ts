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

/**
 * Organizations number from 500,001 in test databases, so an id of one kind taken for the other
 * (an organization's registrations looked up by the farmer column, say) finds nothing rather than
 * a record that happens to share the number.
 */
const SEPARATED_SEQUENCES: Record<string, number> = { family_farming_organization_id_seq: 500_001 };

async function separateIds(ds: DataSource): Promise<void> {
  for (const [sequence, start] of Object.entries(SEPARATED_SEQUENCES)) await ds.query(`ALTER SEQUENCE ${sequence} RESTART WITH ${start}`);
}

/** Sequences back at 1, as in a new production database (for the demo data's documented ids). */
export async function idsAsInProduction(ds: DataSource): Promise<void> {
  for (const sequence of Object.keys(SEPARATED_SEQUENCES)) await ds.query(`ALTER SEQUENCE ${sequence} RESTART WITH 1`);
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
  await separateIds(dataSource);
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
