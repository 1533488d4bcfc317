import { Router } from 'express';
import type { Registry } from 'prom-client';

/**
 * Resolves when the dependency is fine, optionally with a detail to report (e.g. "standby", or a
 * degraded mode the process serves through such as rate limits counted per process), shown under
 * `details` without failing readiness; a rejection fails readiness.
 */
export type ReadinessCheck = () => Promise<void | string>;

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<{ result: string; detail?: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const detail = await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return typeof detail === 'string' ? { result: 'ok', detail } : { result: 'ok' };
  } catch (error) {
    return { result: `failed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /healthz: the process answers. /readyz: every named check passes (database, migrations,
 * indexer lag, chain node, as wired by the composition root); the body names each result.
 * /metrics: Prometheus text format.
 */
export function healthRouter(options: { checks: Record<string, ReadinessCheck>; registry: Registry; timeoutMs?: number }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const names = Object.keys(options.checks);
    const results = await Promise.all(names.map((n) => runCheck(options.checks[n]!, options.timeoutMs ?? 2000)));
    const checks = Object.fromEntries(names.map((n, i) => [n, results[i]!.result]));
    const failed = names.filter((_, i) => results[i]!.result !== 'ok');
    const details = Object.fromEntries(names.flatMap((n, i) => (results[i]!.detail ? [[n, results[i]!.detail]] : [])));
    res.setHeader('Cache-Control', 'no-store');
    res.status(failed.length ? 503 : 200).json({ status: failed.length ? 'not ready' : 'ready', checks, failed, ...(Object.keys(details).length ? { details } : {}) });
  });
  router.get('/metrics', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.type(options.registry.contentType).send(await options.registry.metrics());
  });
  return router;
}
