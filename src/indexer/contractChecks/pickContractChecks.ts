// Which tokens the next check step reads: priced tokens never checked (deepest first), then those
// whose last check is older than the interval (oldest first), as many as the call budget allows
// at the most a check can cost.
export const MAX_CALLS_PER_TOKEN = 13;

export type PickInput = {
  priced: readonly string[];
  lastChecked: (token: string) => Date | undefined;
  liquidity: (token: string) => bigint | null;
  now: Date;
  intervalMs: number;
  maxCalls: number;
};

export function pickContractChecks(input: PickInput): string[] {
  const slots = Math.floor(input.maxCalls / MAX_CALLS_PER_TOKEN);
  if (slots <= 0) return [];
  const fresh: string[] = [];
  const due: [string, number][] = [];
  for (const token of input.priced) {
    const at = input.lastChecked(token);
    if (!at) fresh.push(token);
    else if (input.now.getTime() - at.getTime() >= input.intervalMs) due.push([token, at.getTime()]);
  }
  const depth = (t: string) => input.liquidity(t) ?? -1n;
  fresh.sort((a, b) => (depth(b) > depth(a) ? 1 : depth(b) < depth(a) ? -1 : a < b ? -1 : 1));
  due.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  return [...fresh, ...due.map(([t]) => t)].slice(0, slots);
}
