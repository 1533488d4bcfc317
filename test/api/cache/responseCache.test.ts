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

describe('response cache versions', () => {
  it('stores no answer whose data version moved while it was built: a load began, the tokens it read may mix two', () => {
    let version = '1.1';
    const held = '1.1';
    const cache = createResponseCache({ version: () => version, servedVersion: () => held, maxAgeSeconds: 5 });
    const atStart = cache.version();
    version = ''; // the load's first chunk applied while the answer was built
    cache.store('/tokens', atStart, body(1, 10), '/tokens', []);
    assert.equal(cache.lookup('/tokens'), undefined, 'not served as what 1.1 answered');
    version = '1.1';
    cache.store('/tokens', cache.version(), body(2, 10), '/tokens', []);
    assert.equal(cache.lookup('/tokens')?.body.toString(), body(2, 10), 'built at one version: stored');
  });

  it('serves the answers of the version held whole while a load is applied, and none after it', () => {
    let version = '1.1';
    let held = '1.1';
    const cache = createResponseCache({ version: () => version, servedVersion: () => held, maxAgeSeconds: 5 });
    cache.store('/tokens', cache.version(), body(1, 10), '/tokens', []);
    version = ''; // applying a load: the tokens are between 1.1 and 1.2
    assert.equal(cache.lookup('/tokens')?.body.toString(), body(1, 10), 'what 1.1 answered');
    cache.store('/tokens?page=2', cache.version(), body(2, 10), '/tokens', []);
    assert.equal(cache.lookup('/tokens?page=2'), undefined, 'nothing built meanwhile is stored');
    version = held = '1.2';
    assert.equal(cache.lookup('/tokens'), undefined, 'the load is whole: 1.1 answers no more');
  });
});
