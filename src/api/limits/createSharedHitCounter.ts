import { Redis } from 'ioredis';
import { createLocalHitCounter } from './createLocalHitCounter.ts';
import type { CountWindow, HitCounter, WindowCount } from './HitCounter.ts';

/** Where hits are counted: `shared` in Redis, or `local` (this process) while Redis does not answer. */
export type CounterMode = 'shared' | 'local';

export type SharedCounterStatus = { mode: CounterMode; since: Date; reason?: string; fallbacks: number };

export type SharedHitCounterOptions = {
  url: string;
  /** A Redis command slower than this counts as a failure (the request is then counted locally). */
  commandTimeoutMs?: number;
  /** How often a process counting locally asks Redis whether it answers again. */
  probeMs?: number;
  /** Longest wait between reconnection attempts (the backoff doubles from 100 ms up to this). */
  maxBackoffMs?: number;
  /** Told once per change of mode, with the failure that caused a fall-back. */
  onModeChange?: (mode: CounterMode, error?: unknown) => void;
};

export type SharedHitCounter = HitCounter & {
  status(): SharedCounterStatus;
  /** Waits until Redis answers (true) or `timeoutMs` passed (false; counting stays local). */
  ready(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
};

// Every window's key in one round trip. A key without a live expiry starts a new window.
const HIT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local windowMs = tonumber(ARGV[i])
  local ttl = redis.call('PTTL', key)
  local hits
  if ttl <= 0 then
    redis.call('SET', key, 1, 'PX', windowMs)
    hits = 1
    ttl = windowMs
  else
    hits = redis.call('INCR', key)
  end
  out[#out + 1] = hits
  out[#out + 1] = ttl
end
return out`;

type ScriptedRedis = Redis & { tokenApiHit(...args: (string | number)[]): Promise<number[]> };

/**
 * Rate-limit counters shared by every API process through Redis, failing safe: a Redis that
 * refuses, resets or stops answering (a partition) switches this process to counting on its own
 * — each process then allows the limit, so a client gets at most N× it across N processes — until
 * a probe finds Redis answering again. A command never waits longer than `commandTimeoutMs`; a
 * timed-out connection is dropped and reopened with backoff, since a partitioned socket may never
 * deliver another byte. Nothing here throws into a request.
 */
export function createSharedHitCounter(options: SharedHitCounterOptions): SharedHitCounter {
  const commandTimeoutMs = options.commandTimeoutMs ?? 250;
  const maxBackoffMs = options.maxBackoffMs ?? 2000;
  const redis = new Redis(options.url, {
    // Fail fast instead of queueing while disconnected: the local counter takes over at once.
    enableOfflineQueue: false,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(1000, commandTimeoutMs * 4),
    keepAlive: 5000,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt - 1, 10), maxBackoffMs),
  }) as ScriptedRedis;
  redis.defineCommand('tokenApiHit', { lua: HIT_SCRIPT });
  // Connection errors are reported through mode changes, once per outage, not once per retry.
  redis.on('error', () => {});

  const local = createLocalHitCounter();
  let status: SharedCounterStatus = { mode: 'local', since: new Date(), reason: 'not connected yet', fallbacks: 0 };
  let probing: Promise<void> | undefined;
  let stopped = false;

  function fallBack(error: unknown): void {
    // stop() closes the connection on purpose: that is no outage to report.
    if (stopped) return;
    if (isTimeout(error)) redis.disconnect(true);
    if (status.mode === 'local') return;
    status = { mode: 'local', since: new Date(), reason: reasonOf(error), fallbacks: status.fallbacks + 1 };
    options.onModeChange?.('local', error);
  }

  async function ping(): Promise<void> {
    try {
      if (redis.status !== 'ready') return;
      await redis.ping();
      if (status.mode !== 'shared' && !stopped) {
        status = { mode: 'shared', since: new Date(), fallbacks: status.fallbacks };
        options.onModeChange?.('shared');
      }
    } catch (error) {
      if (isTimeout(error)) redis.disconnect(true);
      if (status.mode === 'local') status = { ...status, reason: reasonOf(error) };
    }
  }
  // One probe at a time.
  function probe(): Promise<void> {
    if (!probing) probing = ping().finally(() => (probing = undefined));
    return probing;
  }
  const prober = setInterval(() => void (status.mode === 'local' ? probe() : undefined), options.probeMs ?? 1000);
  prober.unref();
  redis.on('ready', () => void probe());
  redis.on('close', () => fallBack(new Error('connection to Redis closed')));

  async function hit(key: string, windows: readonly CountWindow[]): Promise<WindowCount[]> {
    if (status.mode === 'shared') {
      try {
        const reply = await redis.tokenApiHit(windows.length, ...windows.map((w) => `ratelimit:${w.name}:${key}`), ...windows.map((w) => w.windowMs));
        return windows.map((_, i) => ({ hits: Number(reply[2 * i]), resetMs: Number(reply[2 * i + 1]) }));
      } catch (error) {
        fallBack(error);
      }
    }
    return local.hit(key, windows);
  }

  return {
    hit,
    status: () => status,
    async ready(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const shared = () => status.mode === 'shared';
      while (!shared() && Date.now() < deadline) {
        await probe();
        if (!shared()) await new Promise((r) => setTimeout(r, 25));
      }
      return shared();
    },
    async stop() {
      stopped = true;
      clearInterval(prober);
      local.stop?.();
      // QUIT waits for Redis; one that does not answer is simply dropped.
      await Promise.race([redis.quit().catch(() => undefined), new Promise((r) => setTimeout(r, commandTimeoutMs).unref())]);
      redis.disconnect();
    },
  };
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && /timed out/i.test(error.message);
}

/** The readiness note of a shared counter: nothing while shared, else what the process does instead. */
/**
 * Why Redis failed, as /readyz may show it: a socket error by its code (ECONNREFUSED), whose
 * message names Redis's address; other errors (a command timeout) by their message. The error
 * itself goes to the log (onModeChange).
 */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}

export function countingNote(status: SharedCounterStatus): string | undefined {
  if (status.mode === 'shared') return undefined;
  return `degraded: Redis does not answer (${status.reason ?? 'unknown'}); rate limits counted by this process alone since ${status.since.toISOString()}`;
}
