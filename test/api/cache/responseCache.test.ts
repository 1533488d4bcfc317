import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createResponseCache } from '../../../src/api/cache/responseCache.ts';

const body = (i: number, bytes: number) => JSON.stringify({ i, pad: 'x'.repeat(bytes) });

describe('response cache bound', () => {
  it('keeps at most maxBytes of answers, the least recently used leaving first', () => {
    const cache = createResponseCache({ version: () => '1.1', maxAgeSeconds: 5, maxBytes: 100_000 });
    for (let i = 0; i < 20; i++) cache.store(`/tokens/${i}`, '1.1', body(i, 10_000), '/tokens/{address}', []);
    const kept = Array.from({ length: 20 }, (_, i) => cache.lookup(`/tokens/${i}`) !== undefined);
    // each answer counts 1.3 × its body (a gzip copy may join it) plus its key and bookkeeping
    assert.deepEqual(kept, [...Array(13).fill(false), ...Array(7).fill(true)]);
  });

  it('keeps an answer asked for often while one-off answers pass through', () => {
    const cache = createResponseCache({ version: () => '1.1', maxAgeSeconds: 5, maxBytes: 100_000 });
    cache.store('/tokens', '1.1', body(-1, 10_000), '/tokens', []);
    for (let i = 0; i < 50; i++) {
      assert.ok(cache.lookup('/tokens'), `the hot answer is still there after ${i} others`);
      cache.store(`/tokens?page=${i + 2}`, '1.1', body(i, 10_000), '/tokens', []);
    }
  });

  it('defaults to 2 MiB', () => {
    const keptWith = (maxBytes?: number) => {
      const cache = createResponseCache({ version: () => '1.1', maxAgeSeconds: 5, maxBytes });
      for (let i = 0; i < 200; i++) cache.store(`/tokens?page=${i}`, '1.1', body(i, 20_000), '/tokens', []);
      return Array.from({ length: 200 }, (_, i) => cache.lookup(`/tokens?page=${i}`)).filter(Boolean).length;
    };
    const byDefault = keptWith(undefined);
    assert.equal(byDefault, keptWith(2 * 1024 * 1024));
    assert.ok(byDefault > keptWith(2 * 1024 * 1024 - 30_000), 'one answer less fits in a smaller bound');
    assert.ok(byDefault < keptWith(2 * 1024 * 1024 + 30_000), 'one answer more fits in a larger bound');
  });
});
