// Reads circulating supplies at the batch's end block, for the tokens the schedule picks. A read
// that fails keeps the token's previous figure (logged and counted) and never fails the batch.
import { callsOf, readHolderBalances, readSupply, supplyFigures } from '../../chain/index.ts';
import type { IndexerToken } from '../../db/indexer/index.ts';
import type { IndexerContext } from '../IndexerContext.ts';
import type { IndexerState } from '../IndexerState.ts';

/** The tokens whose circulating supply changed (mutated in `state`), to be written with the batch. */
export async function refreshCirculating(ctx: IndexerContext, state: IndexerState, block: number, touched: Iterable<string>): Promise<IndexerToken[]> {
  const { rules, schedule } = ctx.circulating;
  const network = rules.networkToken;
  // The network token's read also pins the block (eth_getBlockByNumber) and reads symbol() and decimals().
  const cost = (token: string) => (token === network?.address ? 3 + network.holders.length : callsOf({ token, holders: rules.holdersOf(token) }));
  const picked = schedule.pick(touched, () => state.tokens.keys(), cost).filter((t) => state.tokens.has(t));
  const figures = new Map<string, bigint>();
  const burnCount = rules.burnAddresses.length;

  const ordinary = picked.filter((t) => t !== network?.address);
  if (ordinary.length > 0) {
    try {
      const requests = ordinary.map((token) => ({ token, holders: rules.holdersOf(token) }));
      const read = await readHolderBalances(ctx.chain, requests, block, ctx.config.multicall3);
      const refused: string[] = [];
      read.forEach((r, i) => {
        const token = ordinary[i]!;
        if (r === null) return void refused.push(token);
        try {
          const { circulatingSupply } = supplyFigures(r.totalSupply, r.balances.slice(0, burnCount), r.balances.slice(burnCount), `of ${token} at block ${block}`);
          figures.set(token, circulatingSupply);
        } catch {
          refused.push(token); // balances above the supply: the token's answers cannot be true
        }
      });
      if (refused.length > 0) {
        schedule.failed(refused.length);
        ctx.logger.debug({ block, tokens: refused.slice(0, 20), count: refused.length }, 'circulating supply not readable (a call reverted or the balances exceed the supply); previous figures kept');
      }
    } catch (error) {
      schedule.failed(ordinary.length);
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
      schedule.failed(1);
      ctx.logger.warn({ err: error, block, token: network.address }, 'network token circulating supply read failed; previous figure kept until the next read');
    }
  }

  const changed: IndexerToken[] = [];
  for (const [address, value] of figures) {
    const token = state.tokens.get(address)!;
    if (token.circulatingSupply === value) continue;
    token.circulatingSupply = value;
    token.circulatingBlock = block;
    changed.push(token);
  }
  return changed;
}
