import express from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { DataSource } from 'typeorm';
import { requestContext } from '../request-context';
import type { PerRequest } from '../graphql/request-hooks';
import type { ReadReplica } from '../services/read-replica';
import type { RefreshOutcome } from '../services/program-refresh';

/** The pg pool behind TypeORM's Postgres driver: the figures Prometheus should see. */
interface PoolFigures {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * Distinct operation names kept as label values. Names come from clients, so beyond this many
 * the rest are counted under `(other)` and a misbehaving client cannot blow up the series.
 */
const MAX_OPERATION_NAMES = 200;

export interface Metrics {
  registry: Registry;
  /** Request hooks (src/graphql/request-hooks.ts): requests, latency and errors per GraphQL operation. */
  requestHooks: PerRequest;
  /** `GET /metrics` in the Prometheus text format. */
  handler: express.RequestHandler;
  /** Counts every HTTP response by route and status (mounted before the routes). */
  httpMiddleware: express.RequestHandler;
  /** Counts one HTTP response (`route` one of routeOf's labels), for a request served outside Express. */
  countResponse(route: string, method: string, status: number): void;
  /** Counts an introspection answered from its cache (src/graphql/limits.ts). */
  introspectionCacheHit: () => void;
  /** A look of the program's background refresh (src/services/program-refresh.ts). */
  programRefreshed: (outcome: RefreshOutcome, seconds: number) => void;
}

/** Route labels: a fixed set, so that scanners probing random paths add no series. */
function routeOf(path: string): string {
  if (path === '/graphql') return '/graphql';
  if (path.startsWith('/graphiql-assets/')) return '/graphiql-assets';
  if (path.startsWith('/import/')) return '/import';
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') return path;
  return '(other)';
}

/**
 * Prometheus metrics (`GET /metrics`; listed in docs/API.md), in a registry of their own so apps in
 * one process do not collide.
 */
export function createMetrics(dataSource: DataSource, replica?: ReadReplica): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'selo_' });

  const requests = new Counter({
    name: 'selo_graphql_requests_total',
    help: 'GraphQL operations executed, by operation name and type (query, mutation)',
    labelNames: ['operation', 'type'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'selo_graphql_request_duration_seconds',
    help: 'Time from receiving a GraphQL request to sending its response, by operation name',
    labelNames: ['operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'selo_graphql_errors_total',
    help: 'Errors in GraphQL responses, by operation name and extensions.code',
    labelNames: ['operation', 'code'] as const,
    registers: [registry],
  });
  const pool = (): PoolFigures | undefined => {
    if (!dataSource.isInitialized) return undefined;
    return (dataSource.driver as unknown as { master?: PoolFigures }).master;
  };
  new Gauge({
    name: 'selo_db_pool_connections',
    help: 'Connections in the database pool, by state (total, idle)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = pool();
      this.set({ state: 'total' }, p?.totalCount ?? 0);
      this.set({ state: 'idle' }, p?.idleCount ?? 0);
    },
  });
  new Gauge({
    name: 'selo_db_pool_waiting_requests',
    help: 'Queries waiting for a free connection of the database pool',
    registers: [registry],
    collect() {
      this.set(pool()?.waitingCount ?? 0);
    },
  });

  const http = new Counter({
    name: 'selo_http_requests_total',
    help: 'HTTP responses, by route, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const httpChild = childrenOf((route: string, method: string, status: string) => http.labels(route, method, status));
  const countResponse = (route: string, method: string, status: number) => httpChild(route, method, String(status)).inc();
  const httpMiddleware: express.RequestHandler = (req, res, next) => {
    const route = routeOf(req.path);
    const method = req.method === 'GET' || req.method === 'POST' ? req.method : 'other';
    res.on('finish', () => countResponse(route, method, res.statusCode));
    next();
  };

  const introspectionHits = new Counter({
    name: 'selo_introspection_cache_hits_total',
    help: 'Introspection operations answered from the cache of the schema\'s answers',
    registers: [registry],
  });

  if (replica) replicaMetrics(registry, replica);

  const requestsChild = childrenOf((operation: string, type: string) => requests.labels(operation, type));
  const durationChild = childrenOf((operation: string) => duration.labels(operation));
  const errorsChild = childrenOf((operation: string, code: string) => errors.labels(operation, code));

  const seen = new Set<string>();
  const label = (name: string | null | undefined): string => {
    if (!name) return '(anonymous)';
    if (seen.has(name)) return name;
    if (seen.size >= MAX_OPERATION_NAMES) return '(other)';
    seen.add(name);
    return name;
  };

  const requestHooks: PerRequest = () => {
    const started = process.hrtime.bigint();
    return {
      didResolveOperation(rc) {
        // For the request's log line (src/http/request-log.ts).
        const store = requestContext.getStore();
        if (store) store.operationName = rc.operationName ?? '(anonymous)';
      },
      willSendResponse(rc) {
        // Only a name the document really declares (known once it parsed); the raw request
        // field is whatever the client sent.
        const operation = rc.operation ? label(rc.operationName) : '(invalid)';
        const type = rc.operation?.operation ?? 'none';
        requestsChild(operation, type).inc();
        durationChild(operation).observe(Number(process.hrtime.bigint() - started) / 1e9);
        const body = rc.response.body;
        const formatted = body?.kind === 'single' ? body.singleResult.errors : body?.kind === 'incremental' ? body.initialResult.errors : undefined;
        for (const e of formatted ?? []) {
          const code = typeof e.extensions?.code === 'string' ? e.extensions.code : 'UNKNOWN';
          errorsChild(operation, code).inc();
        }
      },
    };
  };

  const handler: express.RequestHandler = async (_req, res, next) => {
    try {
      res.setHeader('content-type', registry.contentType);
      res.send(await registry.metrics());
    } catch (e) {
      next(e);
    }
  };

  return { registry, requestHooks, handler, httpMiddleware, countResponse, introspectionCacheHit: () => introspectionHits.inc(), programRefreshed: programRefreshMetrics(registry) };
}

/** The program's background refresh: each look by outcome, and how long the last computing one took. */
function programRefreshMetrics(registry: Registry): Metrics['programRefreshed'] {
  const looks = new Counter({
    name: 'selo_program_refreshes_total',
    help: 'Looks of the program view\'s background refresh: years computed, nothing changed, left to another process, or failed',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['computed', 'unchanged', 'elsewhere', 'failed'] as const) looks.labels(outcome).inc(0);
  const last = new Gauge({ name: 'selo_program_refresh_seconds', help: 'How long the last refresh that computed the years took', registers: [registry] });
  return (outcome, seconds) => {
    looks.labels(outcome).inc();
    if (outcome === 'computed') last.set(seconds);
  };
}

/** The read replica's metrics: where reads went, why they fell back to the primary, the lag. */
function replicaMetrics(registry: Registry, replica: ReadReplica): void {
  const reads = new Counter({
    name: 'selo_db_read_requests_total',
    help: 'Requests whose reads ran on the primary or on the read replica',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  const fallbacks = new Counter({
    name: 'selo_db_replica_fallbacks_total',
    help: 'Reads the replica would serve that ran on the primary: replica unavailable, lagging past the bound, not a standby, or the client\'s own write not yet replayed',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  // Every series from the start, at 0: a rate over a series that appears late misses its first increase.
  for (const target of ['primary', 'replica'] as const) reads.labels(target).inc(0);
  for (const reason of ['unavailable', 'lag', 'not_standby', 'own_write'] as const) fallbacks.labels(reason).inc(0);
  new Gauge({
    name: 'selo_db_replica_lag_seconds',
    help: 'How far the read replica was behind the primary at its last check (NaN while unreachable)',
    registers: [registry],
    collect() {
      this.set(replica.lagSeconds() ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'selo_db_replica_up',
    help: '1 while the read replica serves reads, 0 while they go to the primary',
    registers: [registry],
    collect() {
      this.set(replica.usable() ? 1 : 0);
    },
  });
  replica.observe({ read: (target) => reads.labels(target).inc(), fallback: (reason) => fallbacks.labels(reason).inc() });
}

/**
 * A metric's child for each combination of its label values, made once: prom-client otherwise
 * sorts and hashes the labels on every call. The combinations are as few as the series (the
 * operation names are bounded above, routes and codes are fixed sets).
 */
function childrenOf<V extends string[], C>(make: (...values: V) => C): (...values: V) => C {
  const made = new Map<string, C>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = made.get(key);
    if (child === undefined) made.set(key, (child = make(...values)));
    return child;
  };
}
