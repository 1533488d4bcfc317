// PostgreSQL (TEST_DATABASE_URL) behind a TCP proxy the test controls, in a scratch schema of its
// own, with short timeouts so that fault tests take seconds.
import { openScratchPostgres } from './testDatabases.ts';
import { startTcpProxy, type TcpProxy } from './tcpProxy.ts';
import type { Database } from '../../src/db/index.ts';
import { DatabaseUnavailableError } from '../../src/errors/index.ts';
import type { DatabaseTimeouts } from '../../src/config/databaseTimeouts.ts';

/** Timeouts short enough for a test to wait them out (the defaults are in databaseTimeouts.ts). */
export const shortTimeouts: DatabaseTimeouts = {
  connectTimeoutMs: 800,
  statementTimeoutMs: 1500,
  queryTimeoutMs: 1200,
  idleTimeoutMs: 5000,
  keepAliveDelayMs: 1000,
};

/** `url` with the proxy's port in place of the database's. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

export type ProxiedPostgres = { proxy: TcpProxy; url: string; db: Database; close(): Promise<void> };

/** A scratch schema on `url`, reached through a new proxy; closing drops the schema and the proxy. */
export async function openProxiedPostgres(url: string, timeouts: DatabaseTimeouts = shortTimeouts): Promise<ProxiedPostgres> {
  const target = new URL(url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = throughProxy(url, proxy);
  const db = await openScratchPostgres(proxied, 'fault', { timeouts });
  return {
    proxy,
    url: proxied,
    db,
    async close() {
      await proxy.setMode('pass');
      await db.close();
      await proxy.close();
    },
  };
}

/** How long `work` took, and what it gave or threw. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await work();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

/**
 * `work` (set-up done before any fault is made), tried again while the database times out: on a
 * loaded machine a first query may outlast the short timeouts with the proxy still passing.
 */
export async function beforeAnyFault<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !(error instanceof DatabaseUnavailableError)) throw error;
    }
  }
}

/** Rejects after `ms` (the old code hung: a test must fail, not wait forever). */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]);
}
