// Which tokens a check step reads: never-checked first (deepest first), then due (oldest first), within the budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_CALLS_PER_TOKEN, pickContractChecks } from '../../../src/indexer/contractChecks/pickContractChecks.ts';

const now = new Date('2026-11-25T12:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
const checked: Record<string, Date> = { old: hoursAgo(30), older: hoursAgo(50), recent: hoursAgo(1) };
const depth: Record<string, bigint | null> = { deep: 1000n, shallow: 10n, unknown: null };
const pick = (priced: string[], maxCalls: number) =>
  pickContractChecks({ priced, lastChecked: (t) => checked[t], liquidity: (t) => depth[t] ?? null, now, intervalMs: 24 * 3_600_000, maxCalls });

describe('pickContractChecks', () => {
  const cases: [string, string[], number, string[]][] = [
    ['new tokens deepest first, then due ones oldest first; recent ones wait', ['old', 'shallow', 'recent', 'deep', 'older', 'unknown'], 100 * MAX_CALLS_PER_TOKEN, ['deep', 'shallow', 'unknown', 'older', 'old']],
    ['the budget caps the count at the most a check costs', ['deep', 'shallow', 'older'], 2 * MAX_CALLS_PER_TOKEN + 5, ['deep', 'shallow']],
    ['a budget below one check: none', ['deep'], MAX_CALLS_PER_TOKEN - 1, []],
    ['a budget of 0 turns checks off', ['deep'], 0, []],
    ['nothing priced', [], 1000, []],
  ];
  for (const [name, priced, maxCalls, expected] of cases) it(name, () => assert.deepEqual(pick(priced, maxCalls), expected));
});

describe('pickContractChecks while the fill has not stored a token\'s swaps', () => {
  it('a never-checked token that is not ready waits; due re-checks are not held back', () => {
    const picked = pickContractChecks({
      priced: ['deep', 'shallow', 'older'], lastChecked: (t) => checked[t], liquidity: (t) => depth[t] ?? null, now,
      intervalMs: 24 * 3_600_000, maxCalls: 100 * MAX_CALLS_PER_TOKEN, ready: (t) => t !== 'deep' && t !== 'older',
    });
    assert.deepEqual(picked, ['shallow', 'older']);
  });
});
