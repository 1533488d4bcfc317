// Which tokens a batch reads the circulating supply of, derived from stored state only (so a restart
// or another writer picks exactly what an uninterrupted run would): the tokens new or traded in the
// batch, then every token not read since the current refresh window began (chain time, windows of
// INDEXER_CIRCULATING_REFRESH_MS), never read, or last read at a block the batch re-indexes (a
// rollback's abandoned branch), lowest address first, until the batch's call budget is spent.
import type { IndexerToken } from '../../db/indexer/index.ts';

export type CirculatingPick = {
  /** First and last block of the batch; its end block's chain time in ms. */
  fromBlock: number;
  toBlock: number;
  toTime: number;
  /** Window length in ms; 0 reads every token at every batch. */
  refreshMs: number;
  maxCalls: number;
  /** eth_calls one token's read takes. */
  cost(token: string): number;
};

/** Whether the token's figure is due for a read in this batch, touched or not. */
export function isCirculatingDue(token: IndexerToken, p: Pick<CirculatingPick, 'fromBlock' | 'toBlock' | 'toTime' | 'refreshMs'>): boolean {
  if (token.circulatingBlock === null || token.circulatingReadAt === null) return true;
  if (token.circulatingBlock >= p.fromBlock) return true;
  if (p.refreshMs === 0) return token.circulatingBlock < p.toBlock;
  return token.circulatingReadAt.getTime() < Math.floor(p.toTime / p.refreshMs) * p.refreshMs;
}

/** At least one token when any is wanted, so a token dearer than the budget is still read. */
export function pickCirculating(tokens: ReadonlyMap<string, IndexerToken>, touched: Iterable<string>, p: CirculatingPick): string[] {
  const chosen: string[] = [];
  const taken = new Set<string>();
  let calls = 0;
  const take = (address: string): boolean => {
    const c = p.cost(address);
    if (chosen.length > 0 && calls + c > p.maxCalls) return false;
    calls += c;
    chosen.push(address);
    taken.add(address);
    return true;
  };
  for (const address of touched) if (!taken.has(address) && tokens.has(address) && !take(address)) return chosen;
  const due: string[] = [];
  for (const token of tokens.values()) if (!taken.has(token.address) && isCirculatingDue(token, p)) due.push(token.address);
  due.sort();
  for (const address of due) if (!take(address)) break;
  return chosen;
}
