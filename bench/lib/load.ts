// Load generation: autocannon (keep-alive, N connections, fixed duration) with precise latency
// percentiles from its per-response timings, and a sequential one-connection latency probe.
import { Agent, request } from 'node:http';
import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';

export type RequestSpec = { path: string; method?: 'GET' | 'POST'; body?: string };

export type LoadOptions = {
  /** Origin, e.g. http://127.0.0.1:3000 */
  origin: string;
  /** Called for every request: a fixed spec (hot) or a rotating one (varied). */
  next: () => RequestSpec;
  connections: number;
  durationSec: number;
};

export type LoadResult = {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerResponse: number;
  /** Status codes seen other than 2xx, with counts. */
  statuses: Record<string, number>;
};

export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? 0;
}

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

class Samples {
  private data = new Float64Array(1 << 16);
  length = 0;
  push(v: number) {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const first = options.next();
  const headers = first.method === 'POST' ? { 'content-type': 'application/json' } : {};
  const latencies = new Samples();
  const statuses: Record<string, number> = {};
  let bytes = 0;
  let responses = 0;
  const instance = autocannon({
    url: `${options.origin}${first.path}`,
    connections: options.connections,
    duration: options.durationSec,
    // autocannon checks its stop flag once per sample: a run shorter than a few seconds (quick mode)
    // samples more often so that it ends near its duration, not at the next whole second.
    sampleInt: Math.min(1000, Math.max(50, Math.round((options.durationSec * 1000) / 4))),
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        method: first.method ?? 'GET',
        path: first.path,
        headers,
        ...(first.body !== undefined ? { body: first.body } : {}),
        setupRequest: (req) => {
          const spec = options.next();
          return { ...req, path: spec.path, ...(spec.body !== undefined ? { body: spec.body } : {}) };
        },
      },
    ],
  }) as unknown as Promise<autocannon.Result> & EventEmitter; // a thenable tracker (EventEmitter) at run time
  instance.on('response', (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
    responses++;
    bytes += resBytes;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    else statuses[String(statusCode)] = (statuses[String(statusCode)] ?? 0) + 1;
  });
  const result = await instance;
  const sorted = latencies.sorted();
  return {
    requests: result.requests.total,
    rps: round(result.requests.total / Math.max(result.duration, 0.001), 1),
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.length ? (sorted[sorted.length - 1] ?? 0) : 0),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: responses ? Math.round(bytes / responses) : 0,
    statuses,
  };
}

export type ProbeResult = { requests: number; p50Ms: number; p99Ms: number; failures: number };

/** One request at a time over one keep-alive connection: latency without queueing. */
export async function probeLatency(origin: string, next: () => RequestSpec, options: { durationSec: number; maxRequests?: number }): Promise<ProbeResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  let failures = 0;
  const deadline = performance.now() + options.durationSec * 1000;
  const max = options.maxRequests ?? 100_000;
  try {
    for (let i = 0; i < max && performance.now() < deadline; i++) {
      const spec = next();
      const t0 = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${origin}${spec.path}`, {
          agent,
          method: spec.method ?? 'GET',
          headers: spec.body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(spec.body) } : {},
          timeout: 10_000,
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', reject);
        req.end(spec.body);
      }).catch(() => 0);
      const ms = performance.now() - t0;
      if (status >= 200 && status < 300) samples.push(ms);
      else failures++;
    }
  } finally {
    agent.destroy();
  }
  samples.sort((a, b) => a - b);
  return { requests: samples.length + failures, p50Ms: round(percentile(samples, 50), 3), p99Ms: round(percentile(samples, 99), 3), failures };
}
