// Reads circulating supplies at the batch's end block, for the tokens pickCirculating chooses. A read
// that fails keeps the token's previous figure (logged and counted) and never fails the batch. A
// token that answers wrongly (revert, balances above the supply) counts as read, so it is not asked
// again before the next window; after a node failure nothing is marked read, so a token still due
// (never read, or not read in this window) is asked again by the next batch.
import { callsOf, readHolderBalances, readSupply, supplyFigures, SupplyReadError } from '../../chain/index.ts';
import type { ChainClient } from '../../chain/index.ts';
import type { IndexerToken } from '../../db/indexer/index.ts';
import type { IndexerLogger } from '../context/IndexerLogger.ts';
import type { IndexerState } from '../state/IndexerState.ts';
import { indexerDefaults, type IndexerConfig } from '../../config/indexerConfig.ts';
import type { CirculatingRules } from './circulatingRules.ts';
import { pickCirculating } from './pickCirculating.ts';

/** What the reads need of the indexer's context. */
export type CirculatingContext = {
  chain: ChainClient;
  config: Pick<IndexerConfig, 'multicall3' | 'circulatingRefreshMs' | 'circulatingMaxCalls'>;
  logger: IndexerLogger;
  circulating: { rules: CirculatingRules; failures: { count: number } };
};

export type CirculatingBatch = { from: number; to: number; toTime: Date };

/** The tokens read (mutated in `state`: figure, block and time of the read), to be written with the batch. */
export async function refreshCirculating(ctx: CirculatingContext, state: IndexerState, batch: CirculatingBatch, touched: Iterable<string>): Promise<IndexerToken[]> {
  const { rules, failures } = ctx.circulating;
  const block = batch.to;
  const network = rules.networkToken;
  // The network token's read also pins the block (eth_getBlockByNumber) and reads symbol() and decimals().
  const cost = (token: string) => (token === network?.address ? 3 + network.holders.length : callsOf({ token, holders: rules.holdersOf(token) }));
  const picked = pickCirculating(state.tokens, touched, {
    fromBlock: batch.from, toBlock: batch.to, toTime: batch.toTime.getTime(), cost,
    refreshMs: ctx.config.circulatingRefreshMs ?? indexerDefaults.circulatingRefreshMs,
    maxCalls: ctx.config.circulatingMaxCalls ?? indexerDefaults.circulatingMaxCalls,
  });
  // null: the token answered, but not with figures that can be true (kept, counted as read)
  const figures = new Map<string, bigint | null>();
  const burnCount = rules.burnAddresses.length;

  const ordinary = picked.filter((t) => t !== network?.address);
  if (ordinary.length > 0) {
    try {
      const requests = ordinary.map((token) => ({ token, holders: rules.holdersOf(token) }));
      const read = await readHolderBalances(ctx.chain, requests, block, ctx.config.multicall3);
      const refused: string[] = [];
      read.forEach((r, i) => {
        const token = ordinary[i]!;
        if (r === null) {
          refused.push(token);
          return void figures.set(token, null);
        }
        try {
          const { circulatingSupply } = supplyFigures(r.totalSupply, r.balances.slice(0, burnCount), r.balances.slice(burnCount), `of ${token} at block ${block}`);
          figures.set(token, circulatingSupply);
        } catch {
          refused.push(token); // balances above the supply: the token's answers cannot be true
          figures.set(token, null);
        }
      });
      if (refused.length > 0) {
        failures.count += refused.length;
        ctx.logger.debug({ block, tokens: refused.slice(0, 20), count: refused.length }, 'circulating supply not readable (a call reverted or the balances exceed the supply); previous figures kept');
      }
    } catch (error) {
      failures.count += ordinary.length;
      ctx.logger.warn({ err: error, block, tokens: ordinary.length }, 'circulating supply read failed; previous figures kept until the next read');
    }
  }

  if (network && picked.includes(network.address)) {
    try {
      const { supply } = network;
      const reading = await readSupply(ctx.chain, {
        token: network.address, sourceMethod: supply.source.method, holders: network.holders, blockTag: block, multicall: ctx.config.multicall3,
      });
      const nb = supply.burnAddresses.length;
      const what = `of the network token at block ${block} (${supply.source.method})`;
      figures.set(network.address, supplyFigures(reading.sourceSupply, reading.balances.slice(0, nb), reading.balances.slice(nb), what).circulatingSupply);
    } catch (error) {
      failures.count += 1;
      if (error instanceof SupplyReadError) figures.set(network.address, null);
      ctx.logger.warn({ err: error, block, token: network.address }, 'network token circulating supply read failed; previous figure kept until the next read');
    }
  }

  const read: IndexerToken[] = [];
  for (const [address, value] of figures) {
    const token = state.tokens.get(address)!;
    if (value !== null) token.circulatingSupply = value;
    token.circulatingBlock = block;
    token.circulatingReadAt = batch.toTime;
    read.push(token);
  }
  return read;
}
