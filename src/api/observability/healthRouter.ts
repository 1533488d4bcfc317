import { Router } from 'express';
import type { Registry } from 'prom-client';
import { isDatabaseFault } from '../../db/index.ts';
import { BaseError } from '../../errors/index.ts';

/**
 * Resolves when the dependency is fine, optionally with a detail to report (e.g. "standby", or a
 * degraded mode the process serves through such as rate limits counted per process), shown under
 * `details` without failing readiness; a rejection fails readiness.
 */
export type ReadinessCheck = () => Promise<void | string>;

/**
 * What a failed check says on the public port: the dependency by its role, never what it said
 * (a driver's or socket's message names hosts and ports). The service's own errors say it in
 * their short message; any other text is the check's own words (`nothing indexed yet`).
 */
function publicReason(error: unknown): string {
  // The service's errors first: a node's socket error has the same codes as a database's.
  if (error instanceof BaseError) return error.shortMessage;
  if (isDatabaseFault(error)) return 'the database does not answer';
  return error instanceof Error ? error.message : String(error);
}

/** The whole error with its causes, for an operator who turned `exposeErrors` on. */
function fullReason(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    parts.push(e instanceof Error ? e.message : String(e));
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(' <- ');
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<{ result: string; detail?: string; error?: string }> {
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
    return { result: `failed: ${publicReason(error)}`, error: fullReason(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /healthz: the process answers. /readyz: every named check passes (database, migrations,
 * indexer lag, chain node, as wired by the composition root); the body names each result.
 * /metrics: Prometheus text format.
 */
export function healthRouter(options: {
  checks: Record<string, ReadinessCheck>;
  registry: Registry;
  timeoutMs?: number;
  /** Adds `errors`: each failed check's whole error, addresses included (READYZ_ERROR_DETAILS; off by default). */
  exposeErrors?: boolean;
}): Router {
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
    const errors = options.exposeErrors ? Object.fromEntries(names.flatMap((n, i) => (results[i]!.error ? [[n, results[i]!.error]] : []))) : {};
    res.status(failed.length ? 503 : 200).json({
      status: failed.length ? 'not ready' : 'ready',
      checks,
      failed,
      ...(Object.keys(details).length ? { details } : {}),
      ...(Object.keys(errors).length ? { errors } : {}),
    });
  });
  router.get('/metrics', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.type(options.registry.contentType).send(await options.registry.metrics());
  });
  return router;
}
