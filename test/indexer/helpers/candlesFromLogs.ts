// Candles of a token recomputed from the node itself: the Swap logs of its pools (eth_getLogs,
// decoded with the pool contracts' own ABIs, not the indexer's families) valued at the price
// history the indexer recorded (indexer_price_changes), through test/oracles/candles.ts.
import { Interface, type EventFragment } from 'ethers';
import { loadContract, type ContractName } from '../../../src/chain/contracts.ts';
import type { Queryable } from '../../../src/db/index.ts';
import { oracleCandles, type OracleCandles, type OraclePrice, type OracleSwap } from '../../oracles/candles.ts';

type Log = { blockNumber: string; topics: string[]; data: string };
export type Rpc = <T>(method: string, params: unknown[]) => Promise<T>;

const POOL_CONTRACTS: ContractName[] = ['UniswapV2Pair', 'DemoV3Pool', 'DemoPancakeV3Pool', 'DemoAlgebraPool', 'DemoReservePool', 'DemoEtherexPair', 'DemoPoolManager'];

/** Every pool family's Swap event by topic (families that share a signature share a layout). */
function swapEvents(): Map<string, { iface: Interface; event: EventFragment }> {
  const events = new Map<string, { iface: Interface; event: EventFragment }>();
  for (const name of POOL_CONTRACTS) {
    new Interface(loadContract(name).abi as never).forEachEvent((event) => {
      if (event.name === 'Swap') events.set(event.topicHash, { iface: new Interface([event]), event });
    });
  }
  return events;
}

const abs = (x: bigint) => (x < 0n ? -x : x);

/** Base units of each pool token a Swap moved: V2-style in − out, or the concentrated families' signed amounts (V4's too). */
function amounts(args: Record<string, bigint>): [bigint, bigint] {
  if ('amount0In' in args) return [abs(args.amount0In! - args.amount0Out!), abs(args.amount1In! - args.amount1Out!)];
  return [abs(args.amount0!), abs(args.amount1!)];
}

export type TokenCandleSource = { prices: OraclePrice[]; swaps: OracleSwap[]; swapLogs: number };

/**
 * The token's swaps from the node (one per Swap log of each of `pools` that moved it) and its
 * price series from the indexer's price history; each swap valued exactly at the price in force
 * at the end of its block.
 */
export async function tokenCandleSource(
  rpc: Rpc, db: Queryable, token: string, decimals: number, pools: { address: string; token0: string; dex: string }[], toBlock: number,
): Promise<TokenCandleSource> {
  const events = swapEvents();
  const prices = (await db.query<{ blockNumber: string; price: string | null; observedAt: Date }>(
    `SELECT block_number::text AS "blockNumber", price::text AS price, observed_at AS "observedAt" FROM indexer_price_changes WHERE token = $1 ORDER BY block_number`,
    [token],
  )).map((p) => ({ blockNumber: Number(p.blockNumber), price: p.price, at: new Date(p.observedAt).getTime() }));
  const priceAt = (block: number) => prices.filter((p) => p.blockNumber <= block).at(-1)?.price ?? null;
  const times = new Map<number, number>();
  const swaps: OracleSwap[] = [];
  let swapLogs = 0;
  for (const pool of pools) {
    // A Uniswap V4 pool (named by its 32-byte id) is an entry of its PoolManager (the pool's dex): its logs carry the id in topic 1.
    const filter = pool.address.length === 66 ? { address: pool.dex, topics: [null, pool.address] } : { address: pool.address };
    const logs = await rpc<Log[]>('eth_getLogs', [{ ...filter, fromBlock: '0x0', toBlock: `0x${toBlock.toString(16)}` }]);
    for (const log of logs) {
      const swap = events.get(log.topics[0] ?? '');
      if (!swap) continue;
      swapLogs++;
      const parsed = swap.iface.decodeEventLog(swap.event, log.data, log.topics);
      const [a0, a1] = amounts(parsed.toObject() as Record<string, bigint>);
      const amount = pool.token0 === token ? a0 : a1;
      if (amount === 0n) continue;
      const block = Number(log.blockNumber);
      if (!times.has(block)) {
        const header = await rpc<{ timestamp: string }>('eth_getBlockByNumber', [log.blockNumber, false]);
        times.set(block, Number(header.timestamp) * 1000);
      }
      const price = priceAt(block);
      swaps.push({ blockNumber: block, at: times.get(block)!, amount, valueUsd: price === null ? null : exactValue(amount, price, decimals) });
    }
  }
  return { prices, swaps, swapLogs };
}

/** amount × price / 10^decimals as an exact decimal (36 fraction digits). */
function exactValue(amount: bigint, price: string, decimals: number): string {
  const [whole, fraction = ''] = price.split('.');
  const scaled = (amount * (BigInt(whole!) * 10n ** 36n + BigInt(fraction.padEnd(36, '0').slice(0, 36)))) / 10n ** BigInt(decimals);
  const digits = scaled.toString().padStart(37, '0');
  return `${digits.slice(0, -36)}.${digits.slice(-36)}`;
}

export function recountCandles(source: TokenCandleSource, seconds: number, from: number, to: number, decimals: number): OracleCandles {
  return oracleCandles(source.prices, source.swaps, seconds, from, to, decimals);
}
