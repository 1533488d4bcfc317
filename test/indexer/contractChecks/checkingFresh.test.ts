// When rounds of contract checks count as "checking never-checked tokens" (what older history
// waits for after the 7-day window): once per token in a process, so that a token whose check
// always fails, times out or cannot be stored never holds the fill. The rounds' reads are
// scripted here; the rule itself is createCheckRounds'.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { readContractChecks, ContractCheckRound } from '../../../src/indexer/checkContracts.ts';
import { createCheckRounds } from '../../../src/indexer/createCheckRounds.ts';
import { silentLogger, type IndexerContext } from '../../../src/indexer/IndexerContext.ts';
import type { IndexerState } from '../../../src/indexer/state/IndexerState.ts';

const head = { block: 100, time: new Date('2026-11-27T12:00:00Z') };
const ctx = {} as IndexerContext;
const findings = {} as never;

/**
 * A round as the script says: the tokens it picks, the ones whose checks it reads (the others
 * fail); with `later`, it picks only when the test says (a real round picks after a query).
 */
type Plan = { picks: string[]; reads: string[]; later?: boolean };

function scripted(state: IndexerState) {
  const plans: Plan[] = [];
  const answers: (() => void)[] = [];
  let pickLater: (() => void) | null = null;
  const readChecks: typeof readContractChecks = (_ctx, st, _head, skip = new Set(), options = {}) => {
    const plan = plans.shift() ?? { picks: [], reads: [] };
    const picks = plan.picks.filter((t) => !skip.has(t));
    const pick = () => options.onPicked?.(picks.filter((t) => !st.contractChecks.has(t)));
    if (plan.later) pickLater = pick;
    else pick();
    return new Promise<ContractCheckRound>((resolve) => {
      answers.push(() => {
        const checks = plan.reads.filter((t) => picks.includes(t)).map((token) => ({ token, blockNumber: head.block, checkedAt: head.time, findings }));
        resolve({ checks, picked: picks.length, failed: picks.length - checks.length, timedOut: 0, calls: 0, ms: 0 });
      });
    });
  };
  const rounds = createCheckRounds({
    logger: silentLogger, status: { contractChecks: 0, contractCheckFailures: 0 }, onRead() {}, backToBack: true,
    currentState: () => state, readChecks,
  });
  /** Answers the running round and lets a round that follows it start. */
  const answer = async () => {
    const next = answers.shift();
    assert.ok(next, 'a round is running');
    next();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  const pick = () => {
    assert.ok(pickLater, 'a round waits to pick');
    pickLater();
    pickLater = null;
  };
  return { plans, rounds, answer, pick, running: () => answers.length };
}

const emptyState = () => ({ contractChecks: new Map(), prices: new Map() }) as unknown as IndexerState;

describe('rounds checking never-checked tokens', () => {
  it('hold while each round reaches new tokens, back to back, and end when none is left', async () => {
    const state = emptyState();
    const { plans, rounds, answer, pick, running } = scripted(state);
    plans.push({ picks: ['a'], reads: ['a'] }, { picks: ['b'], reads: ['b'], later: true }, { picks: [], reads: [] });
    rounds.start(ctx, state, head);
    assert.equal(rounds.checkingFresh(), true, 'the first round picked a never-checked token');
    await answer();
    assert.equal(running(), 1, 'the next round follows at once');
    assert.equal(rounds.checkingFresh(), true, 'until it has picked, it holds as the round it follows did');
    pick();
    assert.equal(rounds.checkingFresh(), true, 'it picked another');
    await answer();
    assert.equal(running(), 1);
    assert.equal(rounds.checkingFresh(), false, 'a round that picked no never-checked token does not hold');
    await answer();
    assert.equal(running(), 0, 'and no round follows it');
    assert.equal(rounds.checkingFresh(), false);
  });

  it('a token whose check always fails holds only the first round that tries it', async () => {
    const state = emptyState();
    const { plans, rounds, answer, running } = scripted(state);
    plans.push({ picks: ['bad'], reads: [] }, { picks: ['bad'], reads: [] }, { picks: ['bad', 'new'], reads: ['new'] }, { picks: ['bad'], reads: [] });
    rounds.start(ctx, state, head);
    assert.equal(rounds.checkingFresh(), true, 'tried for the first time');
    await answer();
    assert.equal(running(), 0, 'a round whose checks all failed is not followed at once');
    assert.equal(rounds.checkingFresh(), false);
    rounds.start(ctx, state, head);
    assert.equal(rounds.checkingFresh(), false, 'tried again: it does not hold older history');
    await answer();
    rounds.start(ctx, state, head);
    assert.equal(rounds.checkingFresh(), true, 'a round with a new token beside it holds');
    await answer();
    assert.equal(running(), 1, 'and is followed at once');
    assert.equal(rounds.checkingFresh(), false, 'the round after it tries only the failing token again');
    await answer();
    assert.equal(running(), 0);
  });

  it('checks read but never stored are read again without holding older history', async () => {
    const state = emptyState();
    const { plans, rounds, answer, running } = scripted(state);
    plans.push({ picks: ['a', 'b'], reads: ['a', 'b'] }, { picks: ['a', 'b'], reads: ['a', 'b'] }, { picks: ['a', 'b'], reads: ['a', 'b'] });
    rounds.start(ctx, state, head);
    await answer();
    assert.equal(running(), 1, 'a first check is followed at once');
    assert.equal(rounds.checkingFresh(), false, 'that round finds nothing new: a and b wait to be stored');
    await answer();
    assert.equal(running(), 0);
    assert.equal(rounds.pending(), 2);
    const failing = { ...ctx, db: { transaction: () => Promise.reject(new Error('jsonb refused')) } } as unknown as IndexerContext;
    assert.equal(await rounds.store(failing, state, head), false, 'the store failed: a and b are picked again');
    rounds.start(ctx, state, head);
    assert.equal(rounds.checkingFresh(), false, 'picked again, not for the first time');
    await answer();
    assert.equal(running(), 0, 'checked again but not new: no round follows at once');
  });
});
