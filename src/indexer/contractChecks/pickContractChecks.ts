// Which tokens the next check step reads: priced tokens never checked (deepest first), then those
// whose last check is older than the interval (oldest first), as many as the call budget allows
// at the most a check can cost. Never-checked tokens may have a budget of their own (the idle
// checks of a bootstrap take what the provider's rate leaves); due ones only fill what is left of
// `maxCalls`. A never-checked token that is not `ready` (its swaps not filled yet) waits.
/**
 * The most requests one token's check makes with Multicall3: eth_getCode and owner() (2); the
 * proxy slots of code that can delegate, at most 4 with the implementation's code (5); two
 * receipts, the holders' balances and the simulated sale (4).
 */
export const MAX_CALLS_PER_TOKEN = 11;

export type PickInput = {
  priced: readonly string[];
  lastChecked: (token: string) => Date | undefined;
  liquidity: (token: string) => bigint | null;
  now: Date;
  intervalMs: number;
  maxCalls: number;
  /** The budget of never-checked tokens (default `maxCalls`). */
  maxFreshCalls?: number;
  /** A never-checked token whose check would not have its inputs yet is left for later (default: every token is ready). */
  ready?: (token: string) => boolean;
};

export function pickContractChecks(input: PickInput): string[] {
  const slots = Math.floor(input.maxCalls / MAX_CALLS_PER_TOKEN);
  if (slots <= 0) return [];
  const freshSlots = Math.max(slots, Math.floor((input.maxFreshCalls ?? input.maxCalls) / MAX_CALLS_PER_TOKEN));
  const fresh: string[] = [];
  const due: [string, number][] = [];
  for (const token of input.priced) {
    const at = input.lastChecked(token);
    if (!at) {
      if (input.ready?.(token) ?? true) fresh.push(token);
    }
    else if (input.now.getTime() - at.getTime() >= input.intervalMs) due.push([token, at.getTime()]);
  }
  // Each token's depth once (a bootstrap has thousands of never-checked tokens to sort).
  const depths = new Map(fresh.map((t) => [t, input.liquidity(t) ?? -1n]));
  const depth = (t: string) => depths.get(t)!;
  fresh.sort((a, b) => (depth(b) > depth(a) ? 1 : depth(b) < depth(a) ? -1 : a < b ? -1 : 1));
  due.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  const picked = fresh.slice(0, freshSlots);
  return [...picked, ...due.slice(0, Math.max(0, slots - picked.length)).map(([t]) => t)];
}
