// A token's lures (docs/spam.md), found once per token and kept in the indexer's state: a token's
// name and symbol are fixed when it is first stored, and both the token writes and the security
// score of every token after every batch ask for them.
import type { IndexerToken } from '../../db/indexer/index.ts';
import type { IndexerState } from '../state/IndexerState.ts';
import { spamReasons, type ListedSymbols, type SpamReason } from '../spam/spamReasons.ts';

export function luresOf(state: IndexerState, token: IndexerToken, listed: ListedSymbols): readonly SpamReason[] {
  let lures = state.lures.get(token.address);
  if (!lures) state.lures.set(token.address, (lures = spamReasons(token, listed)));
  return lures;
}
