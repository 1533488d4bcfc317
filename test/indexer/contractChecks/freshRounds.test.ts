// Rounds of never-checked tokens on the idle checks client: sized by the provider's rate (the
// requests it allows in half the round timeout), while tokens due for a re-check only take what
// is left of the configured calls per round.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_CALLS_PER_TOKEN, pickContractChecks } from '../../../src/indexer/contractChecks/pickContractChecks.ts';
import { freshRoundCalls } from '../../../src/indexer/createCheckRounds.ts';

const now = new Date('2026-11-25T12:00:00Z');
const fresh = Array.from({ length: 40 }, (_, i) => `new${String(i).padStart(2, '0')}`);
const due = ['due1', 'due2', 'due3'];
const pick = (priced: string[], maxCalls: number, maxFreshCalls?: number) =>
  pickContractChecks({
    priced, lastChecked: (t) => (t.startsWith('due') ? new Date(now.getTime() - 48 * 3_600_000) : undefined), liquidity: () => null,
    now, intervalMs: 24 * 3_600_000, maxCalls, maxFreshCalls,
  });

describe('rounds of never-checked tokens', () => {
  it('take the requests the rate allows in half the timeout', () => {
    assert.equal(freshRoundCalls(25, 15_000), 187);
    assert.equal(Math.floor(freshRoundCalls(25, 15_000) / MAX_CALLS_PER_TOKEN), 17, '17 tokens a round at 25 requests/s');
    assert.equal(freshRoundCalls(0, 15_000), 64 * MAX_CALLS_PER_TOKEN, 'an unlimited budget: 64 tokens');
  });
  it('pick as many never-checked tokens as their budget allows; due ones only fill the configured round', () => {
    assert.deepEqual(pick([...due, ...fresh], 4 * MAX_CALLS_PER_TOKEN, 17 * MAX_CALLS_PER_TOKEN), fresh.slice(0, 17));
    assert.deepEqual(pick([...due, ...fresh.slice(0, 2)], 4 * MAX_CALLS_PER_TOKEN, 17 * MAX_CALLS_PER_TOKEN), [...fresh.slice(0, 2), 'due1', 'due2']);
    assert.deepEqual(pick(due, 4 * MAX_CALLS_PER_TOKEN, 17 * MAX_CALLS_PER_TOKEN), due, 'no never-checked token: the configured round');
  });
  it('a budget below the configured round does not shrink it; calls per round 0 still turn the checks off', () => {
    assert.deepEqual(pick(fresh, 4 * MAX_CALLS_PER_TOKEN, MAX_CALLS_PER_TOKEN), fresh.slice(0, 4));
    assert.deepEqual(pick(fresh, 0, 17 * MAX_CALLS_PER_TOKEN), []);
  });
});
