// Every API request of the page goes through this fetch: it keeps the page inside the service's
// per-IP limits (the page's `explorer:rate-limit` meta tag; by default 2 requests per second, 60
// per minute) by waiting for a free slot rather than being refused. The page allows itself the
// per-second limit and 5/6 of the per-minute one (50 of 60), leaving the rest for a second tab or
// a reload; a limit of 0 is no limit. A 429 that still comes (another client on the same IP)
// pauses all requests for its Retry-After.

let PER_SECOND = 2;
let PER_MINUTE = 50;

/** Paces to the API's limits: `perSecond`/`perMinute` requests (0: unlimited). */
export function setPace(limit: { perSecond: number; perMinute: number }): void {
  PER_SECOND = limit.perSecond > 0 ? limit.perSecond : Number.POSITIVE_INFINITY;
  PER_MINUTE = limit.perMinute > 0 ? Math.max(1, Math.floor((limit.perMinute * 5) / 6)) : Number.POSITIVE_INFINITY;
}

/** The pace the page's meta tag gives ("perSecond/perMinute"); the defaults when absent or unreadable. */
export function paceFromMeta(content: string | undefined): { perSecond: number; perMinute: number } {
  const [perSecond, perMinute] = (content ?? '').split('/').map(Number);
  return Number.isInteger(perSecond) && Number.isInteger(perMinute) && perSecond! >= 0 && perMinute! >= 0
    ? { perSecond: perSecond!, perMinute: perMinute! }
    : { perSecond: 2, perMinute: 60 };
}

const sent: number[] = []; // start times of the requests of the last minute
let pausedUntil = 0;
let queue = Promise.resolve();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until one more request fits both windows, then records it. Requests leave in call order. */
function slot(): Promise<void> {
  const next = queue.then(async () => {
    for (;;) {
      const now = Date.now();
      while (sent.length && sent[0]! <= now - 60_000) sent.shift();
      const lastSecond = sent.filter((t) => t > now - 1000);
      const waits = [pausedUntil - now];
      if (lastSecond.length >= PER_SECOND) waits.push(lastSecond[lastSecond.length - PER_SECOND]! + 1000 - now);
      if (sent.length >= PER_MINUTE) waits.push(sent[sent.length - PER_MINUTE]! + 60_000 - now);
      const wait = Math.max(...waits);
      if (wait <= 0) break;
      await sleep(wait + 50); // a margin for the clocks of the browser and the server
    }
    sent.push(Date.now());
  });
  queue = next.catch(() => undefined);
  return next;
}

/** fetch, paced; the same signature, so both typed clients take it. */
export async function pacedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  await slot();
  const response = await fetch(input, init);
  if (response.status === 429) {
    const seconds = Number(response.headers.get('retry-after') ?? '1');
    pausedUntil = Date.now() + (Number.isFinite(seconds) ? seconds : 1) * 1000;
  }
  return response;
}

/** Requests sent in the last minute (shown in the footer of each view, and read by the browser test). */
export function requestsLastMinute(): number {
  const now = Date.now();
  return sent.filter((t) => t > now - 60_000).length;
}
