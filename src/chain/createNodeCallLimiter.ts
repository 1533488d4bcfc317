// Token bucket: at most `perSecond` requests a second on average, bursts up to one second's worth.

export type NodeCallLimiter = { take(): Promise<void> };

export function createNodeCallLimiter(perSecond: number): NodeCallLimiter {
  if (!(perSecond > 0)) return { take: async () => {} };
  const capacity = Math.max(1, perSecond);
  let tokens = capacity;
  let last = performance.now();
  let queue: Promise<void> = Promise.resolve();
  const refill = () => {
    const now = performance.now();
    tokens = Math.min(capacity, tokens + ((now - last) / 1000) * perSecond);
    last = now;
  };
  const takeOne = async () => {
    refill();
    while (tokens < 1) {
      await new Promise((r) => setTimeout(r, Math.ceil(((1 - tokens) / perSecond) * 1000)));
      refill();
    }
    tokens -= 1;
  };
  return {
    // Chained so waiters are served in order and never race for the same token.
    take() {
      const next = queue.then(takeOne);
      queue = next.catch(() => {});
      return next;
    },
  };
}
