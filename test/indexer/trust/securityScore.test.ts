// The security score's rule (docs/security-score.md): table-driven cases with their expected score
// and reason codes, the sum-of-impacts invariant, the clamp, and the reference isSecure rule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCALE } from '../../../src/indexer/math/fixed.ts';
import { SCORE_WEIGHTS, isSecure, securityScore, usd as formatUsd, type SecurityInput } from '../../../src/indexer/trust/securityScore.ts';

const NOW = new Date('2026-11-24T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);
const usd = (n: number) => BigInt(n) * SCALE;
const base: SecurityInput = {
  now: NOW, listed: false, priced: true, liquidity: usd(0), swaps24h: 0, firstSeenAt: NOW, sourcePoolCreatedAt: null, spamReasons: [],
};

const cases: { name: string; input: Partial<SecurityInput>; score: number; codes: string[] }[] = [
  {
    name: 'a listed blue chip, a month old, deep and busy',
    input: { listed: true, liquidity: usd(2_400_000), swaps24h: 251, firstSeenAt: daysAgo(40), sourcePoolCreatedAt: daysAgo(35) },
    score: 100, codes: ['liquidity', 'baseline', 'token-list', 'trading-activity', 'token-age', 'pool-age'],
  },
  {
    name: 'an unlisted token, deep and busy, first seen yesterday',
    input: { liquidity: usd(1_300_000), swaps24h: 140, firstSeenAt: daysAgo(1.1), sourcePoolCreatedAt: daysAgo(1.1) },
    score: 67, codes: ['liquidity', 'baseline', 'trading-activity', 'token-age', 'pool-age'],
  },
  {
    name: 'the same token a week later',
    input: { liquidity: usd(1_300_000), swaps24h: 140, firstSeenAt: daysAgo(8), sourcePoolCreatedAt: daysAgo(8) },
    score: 73, codes: ['liquidity', 'baseline', 'trading-activity', 'token-age', 'pool-age'],
  },
  {
    name: 'a listed token without a price',
    input: { listed: true, priced: false, liquidity: null, firstSeenAt: daysAgo(2) },
    score: 33, codes: ['baseline', 'token-list', 'token-age', 'no-price'],
  },
  {
    name: 'an unpriced airdrop lure',
    input: { priced: false, liquidity: null, spamReasons: [{ code: 'url', detail: 'name contains the URL "https://x.xyz"' }] },
    score: 0, codes: ['baseline', 'no-price', 'spam-lure'],
  },
  {
    name: 'a thin pool: 5,000 USD, a few swaps, new',
    input: { liquidity: usd(5_000), swaps24h: 3 },
    score: 28, codes: ['baseline', 'liquidity', 'trading-activity'],
  },
  {
    name: 'a listed token with a lure (the list is a factor, not an override)',
    input: { listed: true, liquidity: usd(150_000), swaps24h: 30, firstSeenAt: daysAgo(10), spamReasons: [{ code: 'domain-call-to-action', detail: 'x' }] },
    score: 16, codes: ['liquidity', 'baseline', 'token-list', 'trading-activity', 'token-age', 'spam-lure'],
  },
];

describe('securityScore', () => {
  for (const c of cases) {
    it(c.name, () => {
      const { score, reasons } = securityScore({ ...base, ...c.input });
      assert.equal(score, c.score);
      assert.deepEqual(reasons.map((r) => r.code), c.codes);
      const sum = reasons.reduce((n, r) => n + r.impact, 0);
      assert.equal(score, Math.max(0, Math.min(100, sum)), 'the score is the clamped sum of the impacts');
      assert.ok(reasons.every((r, i) => i === 0 || reasons[i - 1]!.impact >= r.impact), 'largest impact first');
      assert.ok(reasons.every((r) => r.detail.length > 0));
    });
  }

  it('each weight tier starts at its threshold', () => {
    for (const [min, impact] of SCORE_WEIGHTS.liquidity.filter(([m]) => m > 0)) {
      const at = securityScore({ ...base, liquidity: usd(min) }).reasons.find((r) => r.code === 'liquidity');
      const below = securityScore({ ...base, liquidity: usd(min - 1) }).reasons.find((r) => r.code === 'liquidity');
      assert.equal(at?.impact, impact);
      assert.ok((below?.impact ?? 0) < impact);
    }
    for (const [min, impact] of SCORE_WEIGHTS.activity) {
      assert.equal(securityScore({ ...base, swaps24h: min }).reasons.find((r) => r.code === 'trading-activity')?.impact, impact);
    }
  });

  it('the liquidity reason names its tier, not the amount: the same reasons anywhere within a tier', () => {
    const liquidityReason = (dollars: bigint) => securityScore({ ...base, liquidity: dollars }).reasons.find((r) => r.code === 'liquidity');
    assert.deepEqual(liquidityReason(usd(2_400_000)), { code: 'liquidity', impact: 30, detail: 'Priced pools hold 1,000,000 USD or more' });
    assert.deepEqual(liquidityReason(usd(150_000)), { code: 'liquidity', impact: 22, detail: 'Priced pools hold 100,000 USD or more' });
    assert.deepEqual(liquidityReason(usd(10_000)), { code: 'liquidity', impact: 15, detail: 'Priced pools hold 10,000 USD or more' });
    assert.deepEqual(liquidityReason(usd(9_999)), { code: 'liquidity', impact: 5, detail: 'Priced pools hold less than 10,000 USD' });
    assert.deepEqual(liquidityReason(1n), { code: 'liquidity', impact: 5, detail: 'Priced pools hold less than 10,000 USD' });
    // A USD feed round moves every WETH-quoted pool's value by a fraction of a percent: within a tier nothing moves.
    for (const [min] of SCORE_WEIGHTS.liquidity) {
      const a = usd(min * 2 + 1_000);
      assert.deepEqual(securityScore({ ...base, liquidity: a }), securityScore({ ...base, liquidity: (a * 1_005n) / 1_000n }), `tier ${min}`);
    }
  });
});

describe('isSecure (score > 70 AND market cap > 50,000 USD)', () => {
  const rule = { secureScoreMin: 70, secureMarketCapMinUsd: usd(50_000) };
  const table: [number, bigint | null, boolean][] = [
    [71, usd(50_001), true],
    [70, usd(10_000_000), false],
    [100, usd(50_000), false],
    [100, null, false],
    [0, usd(10 ** 9), false],
  ];
  for (const [score, cap, expected] of table) {
    it(`score ${score}, market cap ${cap === null ? 'none' : cap / SCALE}: ${expected}`, () => assert.equal(isSecure(score, cap, rule), expected));
  }
});

describe('dollar amounts in reasons', () => {
  it('are formatted as en-US toLocaleString formats whole numbers, huge ones included', () => {
    const values = [0, 1, 12, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789, 2 ** 53 - 1, 2 ** 53 + 2, 2 ** 60, 1e21, 1.5e300, -1234, -0, 0.5, 1234.56, Infinity, NaN];
    for (let x = 7; x < 1e25; x *= 13) values.push(Math.floor(x));
    for (const n of values) assert.equal(formatUsd(n), n.toLocaleString('en-US', { maximumFractionDigits: 0 }), String(n));
  });
});
