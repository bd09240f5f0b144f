import { AddressInfo } from 'node:net';
import { Logger as TypeOrmLogger } from 'typeorm';
import pino from 'pino';
import { prepareDatabase } from '../../src/database/prepare';
import { hs256, signToken } from '../../src/graphql/auth/token';
import { Role } from '../../src/law/types';
import { createApp, RunningApp } from '../../src/server';
import { createTestDatabase, TestDatabase } from './database';
import { TrustedDocuments } from '../../src/http/trusted-documents';
import { Logger } from '../../src/logger';

export const TEST_SECRET = 'test-secret-of-at-least-32-characters!!';

/** Counts the SQL statements the application sends (the N+1 assertions). */
export class StatementCounter implements TypeOrmLogger {
  count = 0;
  statements: string[] = [];
  logQuery(query: string) {
    this.count++;
    this.statements.push(query);
  }
  logQueryError() {}
  logQuerySlow() {}
  logSchemaBuild() {}
  logMigration() {}
  log() {}
  reset() {
    this.count = 0;
    this.statements = [];
  }
}

export interface GraphQLResponse<T = Record<string, any>> {
  status: number;
  data?: T | null;
  errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, any> }>;
}

export interface Caller {
  role: Role | 'ADMIN' | 'AUDITOR' | 'PRODUCER';
  producerId?: string;
  sub?: string;
}

export interface TestApi {
  url: string;
  db: TestDatabase;
  app: RunningApp;
  statements: StatementCounter;
  token(caller?: Caller): Promise<string>;
  /** POST a GraphQL operation over real HTTP; ADMIN unless `as` says otherwise (`as: null`: no token); `headers` added to the request. */
  gql<T = Record<string, any>>(query: string, variables?: Record<string, unknown>, as?: Caller | null, headers?: Record<string, string>): Promise<GraphQLResponse<T>>;
  /** Like gql, but fails the test on any error and returns `data`. */
  ok<T = Record<string, any>>(query: string, variables?: Record<string, unknown>, as?: Caller | null): Promise<T>;
  /** Count rows with a raw SQL statement (asserting that nothing was written). */
  count(sql: string, params?: unknown[]): Promise<number>;
  close(): Promise<void>;
}

/**
 * The real application over HTTP, on a database of its own (one per test file), prepared as at
 * start-up (migrations and shipped law).
 */
export async function startTestApi(options: { compiledReads?: boolean; corsOrigins?: string[]; trustedDocuments?: TrustedDocuments; logger?: Logger; maxListed?: number } = {}): Promise<TestApi> {
  const statements = new StatementCounter();
  const db = await createTestDatabase(5, statements);
  await prepareDatabase(db.dataSource);
  const app = await createApp({ dataSource: db.dataSource, verifier: hs256(TEST_SECRET), logger: options.logger ?? pino({ level: 'silent' }), compiledReads: options.compiledReads, corsOrigins: options.corsOrigins, trustedDocuments: options.trustedDocuments,
    maxListed: options.maxListed,
  });
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = app.httpServer.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/graphql`;
  const token = (caller: Caller = { role: Role.ADMIN }) =>
    signToken(TEST_SECRET, { sub: caller.sub ?? `test-${caller.role.toLowerCase()}`, role: caller.role as Role, producerId: caller.producerId });
  const gql = async <T,>(query: string, variables: Record<string, unknown> = {}, as: Caller | null = { role: Role.ADMIN }, extra: Record<string, string> = {}): Promise<GraphQLResponse<T>> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
    if (as) headers.authorization = `Bearer ${await token(as)}`;
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as GraphQLResponse<T>;
    return { ...body, status: res.status };
  };
  return {
    url,
    db,
    app,
    statements,
    token,
    gql,
    async ok<T>(query: string, variables?: Record<string, unknown>, as?: Caller | null) {
      const res = await gql<T>(query, variables, as);
      if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors, null, 2)}`);
      return res.data as T;
    },
    async count(sql: string, params: unknown[] = []) {
      const rows = await db.dataSource.query(sql, params);
      return Number(Object.values(rows[0])[0]);
    },
    async close() {
      await app.stop();
      await db.drop();
    },
  };
}
