// A hosted provider's limits in front of the node: requests per second (each batch item counts;
// over the limit: HTTP 429 with Retry-After and a JSON-RPC error), a round-trip delay, logs with or
// without `blockTimestamp`, and the eth_getLogs rule hosted providers publish (a range of at most
// 2,000 blocks, or any range with at most 10,000 results; otherwise their error).

export type ProviderProfile = {
  /** Requests per second (batch items counted); Infinity: no limit. */
  rps: number;
  /** Added to every answer, ms. */
  rtt: number;
  /** Logs carry `blockTimestamp` (some nodes add it, others do not). */
  blockTimestamp: boolean;
  /** eth_getLogs: any range up to this many blocks… */
  maxRange: number;
  /** …or any range with at most this many results. */
  maxResults: number;
};

export const NO_PROVIDER: ProviderProfile = { rps: Infinity, rtt: 0, blockTimestamp: true, maxRange: Infinity, maxResults: Infinity };
export const HOSTED_DEFAULTS: ProviderProfile = { rps: 25, rtt: 30, blockTimestamp: false, maxRange: 2000, maxResults: 10_000 };

/** `rps=25,rtt=30,timestamps=0,range=2000,results=10000` over the hosted defaults. */
export function parseProvider(text: string): ProviderProfile {
  const out = { ...HOSTED_DEFAULTS };
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [key, value] = part.split('=');
    const n = Number(value);
    if (key === 'rps') out.rps = value === 'inf' ? Infinity : n;
    else if (key === 'rtt') out.rtt = n;
    else if (key === 'timestamps') out.blockTimestamp = value === '1' || value === 'true';
    else if (key === 'range') out.maxRange = n;
    else if (key === 'results') out.maxResults = n;
    else throw new Error(`--provider: unknown key ${JSON.stringify(key)} (rps, rtt, timestamps, range, results)`);
    if (key !== 'timestamps' && value !== 'inf' && !(n >= 0)) throw new Error(`--provider: ${key}=${value} is not a number`);
  }
  return out;
}

/** A token bucket of `rps` requests refilled continuously; a request of n items takes n tokens. */
export function createRateLimiter(rps: number) {
  let tokens = rps;
  let last = performance.now();
  return {
    /** True when the request may pass; false: refuse it (429). */
    take(items: number): boolean {
      if (!Number.isFinite(rps)) return true;
      const now = performance.now();
      tokens = Math.min(rps, tokens + ((now - last) / 1000) * rps);
      last = now;
      // A batch larger than a second's worth passes only on a full bucket (and empties it).
      const cost = Math.min(items, rps);
      if (tokens < cost) return false;
      tokens -= items;
      return true;
    },
    /** Whole seconds until `items` tokens are back. */
    retryAfter(items: number): number {
      return Math.max(1, Math.ceil((Math.min(items, rps) - tokens) / rps));
    },
  };
}

/** Alchemy's wording, with the range that would work (clients read it and shrink to it). */
export function logRangeError(from: number, maxRange: number, maxResults: number) {
  const to = from + maxRange - 1;
  return {
    code: -32602,
    message:
      `Log response size exceeded. You can make eth_getLogs requests with up to a ${maxRange} block range and no limit on the response size, ` +
      `or you can request any block range with a cap of ${maxResults} logs in the response. ` +
      `Based on your parameters, this block range should work: [0x${from.toString(16)}, 0x${to.toString(16)}]`,
  };
}
