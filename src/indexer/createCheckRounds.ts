// Rounds of contract checks beside the indexer's steps: a round reads at the head while the
// indexer goes on (one at a time), and the next step stores what it found (docs/security-score.md,
// "Contract checks"). With `backToBack`, a round that picked a token no round had picked before and
// checked a token for the first time is followed by the next one at once instead of at the next
// step (a head-first bootstrap's priced tokens are checked while the history fills, its steps being
// long); re-checks, and retries of checks that failed, stay one round per step. Such
// rounds (the checks' own client at the budget's idle priority) are sized by `freshRoundCalls`, the
// requests the provider's rate allows in half a round's timeout, not by the configured calls per
// step: the budget grants idle requests only what the indexer's own leave.
import type { IndexerContext, IndexerLogger } from './IndexerContext.ts';
import { readContractChecks, storeContractChecks, type ContractCheck } from './checkContracts.ts';
import type { IndexerState } from './state/IndexerState.ts';
import { MAX_CALLS_PER_TOKEN } from './contractChecks/pickContractChecks.ts';

/** Calls a round of never-checked tokens plans with an unlimited budget (64 tokens at the most a check costs). */
const UNLIMITED_FRESH_ROUND_CALLS = 64 * MAX_CALLS_PER_TOKEN;

/** The requests `perSecond` allows in half of `timeoutMs` (0: an unlimited budget). */
export function freshRoundCalls(perSecond: number, timeoutMs: number): number {
  return perSecond > 0 ? Math.floor((perSecond * timeoutMs) / 2000) : UNLIMITED_FRESH_ROUND_CALLS;
}

export type CheckRounds = {
  /** Starts a round at the head unless one is running. */
  start(ctx: IndexerContext, state: IndexerState, head: { block: number; time: Date }): void;
  /** Checks read and not stored yet. */
  pending(): number;
  /** Stores the checks read; false when they could not be (they run again, the state must be reloaded). */
  store(ctx: IndexerContext, state: IndexerState, indexed: { block: number; time: Date }): Promise<boolean>;
  /** Resolves when no round is running. */
  settled(): Promise<void>;
  /**
   * With back-to-back rounds, true while never-checked tokens are being checked for the first time
   * in this process: the round running picked one not picked before, or (until it has picked)
   * follows a round that did and checked one. A token whose check fails, times out or is not
   * stored is picked again by later rounds, but does not keep this true.
   */
  checkingFresh(): boolean;
};

export function createCheckRounds(deps: {
  logger: IndexerLogger;
  status: { contractChecks: number; contractCheckFailures: number };
  /** A round found something to store. */
  onRead(): void;
  /** Rounds that checked a token for the first time are followed by the next at once. */
  backToBack?: boolean;
  /** The indexer's state now (a round that follows another picks from it: the stored checks are in it). */
  currentState?: () => IndexerState | null;
  /** With `backToBack`: the calls a round may plan for never-checked tokens (default: the configured calls per step). */
  freshRoundCalls?: number;
  /** Reads a round (default: `readContractChecks`, at the head through the checks' client). */
  readChecks?: typeof readContractChecks;
}): CheckRounds {
  const { logger, status } = deps;
  let checking: Promise<void> | null = null;
  // Set by settled(): no round follows the current one until the next start().
  let halted = false;
  // Tokens picked while never checked, by any round of this process.
  const attempted = new Set<string>();
  // The running round picked a token not attempted before (null until it has picked).
  let pickedNew: boolean | null = null;
  // The running round follows one that picked such a token and checked one for the first time.
  let followsNew = false;
  const read: ContractCheck[] = [];
  const run = (ctx: IndexerContext, state: IndexerState, head: { block: number; time: Date }, follows: boolean) => {
    const skip = new Set(read.map((x) => x.token));
    pickedNew = null;
    followsNew = follows;
    const onPicked = (neverChecked: readonly string[]) => {
      pickedNew = neverChecked.some((t) => !attempted.has(t));
      for (const t of neverChecked) attempted.add(t);
    };
    checking = (deps.readChecks ?? readContractChecks)(ctx, state, head, skip, { maxFreshCalls: deps.backToBack ? deps.freshRoundCalls : undefined, onPicked })
      .then((round) => {
        const first = round.checks.some((c) => !state.contractChecks.has(c.token));
        read.push(...round.checks);
        status.contractCheckFailures += round.failed + round.timedOut;
        if (round.picked > 0) logger.debug({ picked: round.picked, read: round.checks.length, failed: round.failed, timedOut: round.timedOut, calls: round.calls, ms: round.ms, head: head.block }, 'contract checks read');
        if (round.checks.length > 0) deps.onRead();
        return first;
      })
      .catch((error: unknown) => {
        status.contractCheckFailures++;
        logger.warn({ err: error, head: head.block }, 'contract checks failed; indexing goes on');
        return false;
      })
      .then((first) => {
        checking = null;
        // Only a round that reached new tokens is followed at once: one that only tried again
        // tokens whose checks failed or were not stored waits for the next step.
        const follow = first && pickedNew === true && deps.backToBack === true && !halted;
        if (follow) run(ctx, deps.currentState?.() ?? state, head, true);
      });
  };
  return {
    start(ctx, state, head) {
      halted = false;
      if (checking) return;
      run(ctx, state, head, false);
    },
    pending: () => read.length,
    async store(ctx, state, indexed) {
      const checks = read.splice(0);
      try {
        const { rescored } = await storeContractChecks(ctx, state, checks, indexed);
        status.contractChecks += checks.length;
        logger.debug({ tokens: checks.length, rescored, block: indexed.block }, 'contract checks stored');
        return true;
      } catch (error) {
        // Dropped: the tokens are picked again. The trust write may not have committed.
        status.contractCheckFailures += checks.length;
        logger.warn({ err: error, tokens: checks.length }, 'contract checks not stored; they run again');
        return false;
      }
    },
    checkingFresh: () => deps.backToBack === true && checking !== null && (pickedNew ?? followsNew),
    async settled() {
      halted = true;
      while (checking) await checking;
    },
  };
}
