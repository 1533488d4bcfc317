import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type IndexerLag = { lagBlocks: number; lagSeconds: number } | undefined;

/** Where the client rate limit counts: shared through Redis or per process, and how often it fell back. */
export type RateLimitCounting = { shared: boolean; fallbacks: number } | undefined;

/** What this process's clients of the chain node sent, by client, and its request budget (src/chain). */
export type ChainNodeTraffic = {
  clients: Record<string, { byMethod: Record<string, number>; retries: number; throttled: number; failures: number }>;
  budget: { granted: number; waited: number; waitedMs: number; throttled: number; rate: number | null; inFlight: number; queued: number };
};

export type Metrics = {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  rpcCalls: Counter<'method' | 'code'>;
  rpcDuration: Histogram<'method'>;
  upstreamDuration: Histogram<'method' | 'outcome'>;
  upstreamErrors: Counter<'method'>;
  cacheLookups: Counter<'cache' | 'result'>;
  /** Prometheus `observe` for the JSON-RPC router. */
  rpcObserver: {
    call(method: string, errorCode: number | null, seconds: number): void;
    upstream(method: string, ok: boolean, seconds: number): void;
    cacheLookup(hit: boolean): void;
  };
};

/**
 * One registry per app (tests build several apps in one process). Indexer lag is read at
 * scrape time from `indexerLag`, so the API never imports the indexer.
 */
export function createMetrics(options: {
  indexerLag?: () => IndexerLag;
  rateLimitCounting?: () => RateLimitCounting;
  indexerRole?: () => 'leader' | 'standby' | null | undefined;
  /** Circulating-supply reads this process's indexer could not make (their previous figures were kept). */
  indexerCirculatingFailures?: () => number | undefined;
  /** Contract checks of tokens stored, and those that failed or ran out of time (docs/security-score.md). */
  indexerContractChecks?: () => { stored: number; failed: number } | undefined;
  /** Requests to the chain node by client and method, retries, refusals for rate, and the shared budget. */
  chainNode?: () => ChainNodeTraffic | undefined;
  /** The price histories this API process holds in memory (the rest cost a query when asked for) and their estimated bytes. */
  priceHistories?: () => { tokens: number; bytes: number } | undefined;
} = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const rpcCalls = new Counter({
    name: 'rpc_calls_total',
    help: 'JSON-RPC calls by method and error code ("ok" when none)',
    labelNames: ['method', 'code'] as const,
    registers: [registry],
  });
  const rpcDuration = new Histogram({
    name: 'rpc_call_duration_seconds',
    help: 'JSON-RPC call latency by method',
    labelNames: ['method'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  const upstreamDuration = new Histogram({
    name: 'upstream_node_request_duration_seconds',
    help: 'Latency of requests to the chain node',
    labelNames: ['method', 'outcome'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const upstreamErrors = new Counter({
    name: 'upstream_node_errors_total',
    help: 'Failed requests to the chain node',
    labelNames: ['method'] as const,
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: 'cache_lookups_total',
    help: 'Cache lookups by cache and result (hit or miss); hit ratio = hit / (hit + miss)',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
  });
  const lag = () => options.indexerLag?.();
  new Gauge({
    name: 'indexer_head_lag_blocks',
    help: 'Blocks between the chain head and the last indexed block',
    registers: [registry],
    collect() {
      const value = lag();
      if (value) this.set(value.lagBlocks);
    },
  });
  new Gauge({
    name: 'indexer_head_lag_seconds',
    help: 'Seconds between the chain head and the last indexed block',
    registers: [registry],
    collect() {
      const value = lag();
      if (value) this.set(value.lagSeconds);
    },
  });
  const counting = () => options.rateLimitCounting?.();
  new Gauge({
    name: 'rate_limit_counter_shared',
    help: '1 while rate limits are counted in Redis (shared by every API process), 0 while this process counts alone',
    registers: [registry],
    collect() {
      const value = counting();
      if (value) this.set(value.shared ? 1 : 0);
    },
  });
  new Counter({
    name: 'rate_limit_counter_fallbacks_total',
    help: 'Times this process lost Redis and fell back to counting rate limits on its own',
    registers: [registry],
    collect() {
      const value = counting();
      if (value) {
        this.reset();
        this.inc(value.fallbacks);
      }
    },
  });
  new Gauge({
    name: 'price_histories_held',
    help: 'Tokens whose hourly price history this API process holds in memory (a history not held costs a database query when asked for)',
    registers: [registry],
    collect() {
      const value = options.priceHistories?.();
      if (value) this.set(value.tokens);
    },
  });
  new Gauge({
    name: 'price_histories_bytes',
    help: 'Estimated bytes of the price histories held (records outside the V8 heap and their heap share), against the store bound',
    registers: [registry],
    collect() {
      const value = options.priceHistories?.();
      if (value) this.set(value.bytes);
    },
  });
  new Gauge({
    name: 'indexer_writer_role',
    help: "This process's indexer: 1 on the role it has (leader: holds the writer lock and writes; standby: waits for it)",
    labelNames: ['role'] as const,
    registers: [registry],
    collect() {
      const role = options.indexerRole?.();
      if (role === undefined) return;
      this.set({ role: 'leader' }, role === 'leader' ? 1 : 0);
      this.set({ role: 'standby' }, role === 'standby' ? 1 : 0);
    },
  });
  new Counter({
    name: 'indexer_circulating_read_failures_total',
    help: "Token circulating-supply reads this process's indexer could not make (node failure, revert, balances above the supply); each kept its previous figure",
    registers: [registry],
    collect() {
      const value = options.indexerCirculatingFailures?.();
      if (value !== undefined) {
        this.reset();
        this.inc(value);
      }
    },
  });
  new Counter({
    name: 'indexer_contract_checks_total',
    help: "Token contract checks this process's indexer stored (result=stored) or could not finish (result=failed: node failure or timeout; the previous findings were kept)",
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      const value = options.indexerContractChecks?.();
      if (value !== undefined) {
        this.reset();
        this.inc({ result: 'stored' }, value.stored);
        this.inc({ result: 'failed' }, value.failed);
      }
    },
  });
  registerChainNodeMetrics(registry, () => options.chainNode?.());
  return {
    registry,
    httpDuration,
    rpcCalls,
    rpcDuration,
    upstreamDuration,
    upstreamErrors,
    cacheLookups,
    rpcObserver: {
      call(method, errorCode, seconds) {
        rpcCalls.inc({ method, code: errorCode === null ? 'ok' : String(errorCode) });
        rpcDuration.observe({ method }, seconds);
      },
      upstream(method, ok, seconds) {
        upstreamDuration.observe({ method, outcome: ok ? 'ok' : 'error' }, seconds);
        if (!ok) upstreamErrors.inc({ method });
      },
      cacheLookup(hit) {
        cacheLookups.inc({ cache: 'rpc', result: hit ? 'hit' : 'miss' });
      },
    },
  };
}

/** Counters and gauges read from the node clients and their budget at scrape time. */
function registerChainNodeMetrics(registry: Registry, traffic: () => ChainNodeTraffic | undefined) {
  const perClient = (name: string, help: string, value: (c: ChainNodeTraffic['clients'][string]) => number) =>
    new Counter({
      name, help, labelNames: ['client'] as const, registers: [registry],
      collect() {
        const t = traffic();
        if (!t) return;
        this.reset();
        for (const [client, c] of Object.entries(t.clients)) this.inc({ client }, value(c));
      },
    });
  new Counter({
    name: 'chain_node_requests_total',
    help: 'Requests sent to the chain node by client (indexer, supply, rpc, readiness) and JSON-RPC method; each batch item counts, as providers count them',
    labelNames: ['client', 'method'] as const,
    registers: [registry],
    collect() {
      const t = traffic();
      if (!t) return;
      this.reset();
      for (const [client, c] of Object.entries(t.clients)) for (const [method, n] of Object.entries(c.byMethod)) this.inc({ client, method }, n);
    },
  });
  perClient('chain_node_retries_total', 'Requests to the chain node sent again after a retryable failure', (c) => c.retries);
  perClient('chain_node_throttled_total', 'Refusals for rate (HTTP 429 or a rate-limit error) the chain node answered', (c) => c.throttled);
  perClient('chain_node_failures_total', 'Requests to the chain node that failed for good (after their retries)', (c) => c.failures);
  const budget = (name: string, help: string, value: (b: ChainNodeTraffic['budget']) => number | null) =>
    new Gauge({
      name, help, registers: [registry],
      collect() {
        const b = traffic()?.budget;
        const v = b && value(b);
        if (v !== undefined && v !== null) this.set(v);
      },
    });
  budget('chain_node_budget_rate', 'Requests per second the shared request budget allows now (lowered after refusals for rate); absent while unlimited', (b) => b.rate);
  budget('chain_node_budget_in_flight', 'Requests to the chain node in flight', (b) => b.inFlight);
  budget('chain_node_budget_queued', 'Requests waiting for the request budget', (b) => b.queued);
  budget('chain_node_budget_waited_seconds', 'Time requests waited for the request budget, in all, since start', (b) => b.waitedMs / 1000);
}
