import type { CountWindow, HitCounter, WindowCount } from './HitCounter.ts';

type Slot = { hits: number; resetAt: number };

/**
 * Fixed windows counted in this process. A window starts at a client's first hit and lasts
 * windowMs; expired entries are swept once per minute so idle clients cost no memory.
 */
export function createLocalHitCounter(options: { now?: () => number } = {}): HitCounter & { size(): number } {
  const now = options.now ?? Date.now;
  const slots = new Map<string, Slot>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, slot] of slots) if (slot.resetAt <= t) slots.delete(key);
  }, 60_000);
  sweep.unref();

  function hitOne(key: string, window: CountWindow, t: number): WindowCount {
    const id = `${window.name}\u0000${key}`;
    let slot = slots.get(id);
    if (!slot || slot.resetAt <= t) slots.set(id, (slot = { hits: 0, resetAt: t + window.windowMs }));
    slot.hits++;
    return { hits: slot.hits, resetMs: slot.resetAt - t };
  }

  return {
    hit: (key, windows) => {
      const t = now();
      return Promise.resolve(windows.map((w) => hitOne(key, w, t)));
    },
    stop: () => clearInterval(sweep),
    size: () => slots.size,
  };
}
