// indexer.wake() ends the wait before the next step (main.ts calls it when PostgreSQL answers
// again). A wake that arrives while a step is still in flight (the step failing for want of the
// database as it comes back) must end the wait that follows that step, not be lost: otherwise the
// index resumes a whole retry gap late.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChainClient } from '../../src/chain/index.ts';
import { loadIndexerConfig } from '../../src/config/indexerConfig.ts';
import type { Database } from '../../src/db/index.ts';
import type { WriterLock } from '../../src/db/indexer/index.ts';
import { DatabaseUnavailableError } from '../../src/errors/index.ts';
import { createIndexer } from '../../src/indexer/index.ts';

describe('indexer.wake()', () => {
  it('sent while a failing step is in flight, ends the retry wait after that step', async () => {
    // Never reached: every step fails at the lock.
    const unreachable = () => Promise.reject(new Error('the database is not reached in this test'));
    const db = { kind: 'pglite', query: unreachable, exec: unreachable, transaction: unreachable, close: async () => {} } as unknown as Database;
    // The writer lock is the first thing a step asks of the database: here it fails as an outage
    // does, each attempt held open until the test lets it fail.
    const attempts: (() => void)[] = [];
    const writerLock: WriterLock = {
      acquire: () => new Promise<boolean>((_, reject) => attempts.push(() => reject(new DatabaseUnavailableError(undefined, { details: 'test outage' })))),
      held: () => false,
      fence: async () => {},
      onLost: () => {},
      release: async () => {},
    };
    const chain = { getChainId: async () => 59144 } as unknown as ChainClient;
    // Retries 30 s apart: a lost wake shows as the next attempt missing for the whole test.
    const config = { ...loadIndexerConfig({}), pollIntervalMs: 30_000, retryMaxMs: 30_000 };
    const indexer = createIndexer({ db, chain, config, writerLock });
    const attemptNumber = async (n: number, withinMs = 5000) => {
      const started = performance.now();
      while (attempts.length < n) {
        if (performance.now() - started > withinMs) return false;
        await new Promise((r) => setTimeout(r, 10));
      }
      return true;
    };
    await indexer.start();
    try {
      assert.ok(await attemptNumber(1), 'the first step asks for the lock');
      indexer.wake(); // the database answers again while the step is still failing
      attempts[0]!();
      const woken = performance.now();
      assert.ok(await attemptNumber(2), 'a second step within 5 s, not after the 30 s retry gap');
      assert.ok(performance.now() - woken < 1000, `second step ${Math.round(performance.now() - woken)} ms after the first failed`);
      // A wake is used once: the failure after it waits out the retry gap again.
      attempts[1]!();
      assert.equal(await attemptNumber(3, 1000), false, 'no third step within 1 s without a wake');
    } finally {
      const stopping = indexer.stop();
      for (const fail of attempts.slice(2)) fail();
      await stopping;
    }
  });
});
