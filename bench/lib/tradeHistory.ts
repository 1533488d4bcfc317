// A seeded trading history as the indexer writes it: per block, swaps of some tokens (one row per
// token of the pool, as the indexer stores them) and the price changes they cause, each swap valued
// at its token's price at the end of the block. Written through the same storage calls as
// indexBatch (price changes, swaps, candle roll-up), batch by batch.
import { recordSwaps, rollupCandles, type Queryable, type SwapWrite } from '../../src/db/index.ts';
import { savePriceChanges, type PriceChange } from '../../src/db/indexer/index.ts';
import { createPrng } from '../../src/demo/prng.ts';

export type HistoryToken = { address: string; decimals: number; price: number };

export type HistoryOptions = {
  seed: number;
  tokens: readonly HistoryToken[];
  /** Pools between the tokens: each swap moves two tokens (token0, token1). */
  pools?: number;
  blocks: number;
  firstBlock: number;
  startMs: number;
  blockMs: number;
  /** Swaps per block (a Poisson-like draw around it). */
  swapsPerBlock: number;
  /** Chance that a swapped token's price change is "no longer priced" (null). */
  unpricedChance?: number;
  /** > 1 makes the first pools trade far more than the last (pool index ~ n·u^skew); 1 is uniform. */
  poolSkew?: number;
};

export type TradeHistory = { prices: PriceChange[]; swaps: SwapWrite[]; blockTime: (block: number) => Date; lastBlock: number };

const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');

/** Prices with up to 18 significant digits, written as the indexer's fixed point prints them. */
function priceText(value: number): string {
  const digits = Math.max(0, 17 - Math.floor(Math.log10(value)));
  return value.toFixed(Math.min(36, digits)).replace(/\.?0+$/, '');
}

export function buildTradeHistory(options: HistoryOptions): TradeHistory {
  const rng = createPrng(options.seed);
  const tokens = options.tokens.map((t) => ({ ...t, address: t.address.toLowerCase(), current: t.price as number | null }));
  const poolCount = options.pools ?? Math.max(1, tokens.length - 1);
  const pools = Array.from({ length: poolCount }, (_, i) => {
    const a = i % tokens.length;
    const b = (a + 1 + (i % Math.max(1, tokens.length - 1))) % tokens.length;
    return { address: `0x${hex(0xb00000 + i, 20)}`, token0: tokens[a]!, token1: tokens[b === a ? (a + 1) % tokens.length : b]! };
  });
  const byAddress = new Map(tokens.map((t) => [t.address, t]));
  const blockTime = (block: number) => new Date(options.startMs + (block - options.firstBlock) * options.blockMs);
  const prices: PriceChange[] = [];
  const swaps: SwapWrite[] = [];
  for (let block = options.firstBlock; block < options.firstBlock + options.blocks; block++) {
    const at = blockTime(block);
    const n = Math.round(options.swapsPerBlock * -Math.log(1 - rng.next()));
    const moved = new Set<(typeof tokens)[number]>();
    const rows: SwapWrite[] = [];
    for (let k = 0; k < n; k++) {
      const pool = pools[Math.floor(pools.length * rng.next() ** (options.poolSkew ?? 1))]!;
      const txHash = `0x${hex(block, 16)}${hex(k, 16)}`;
      for (const token of [pool.token0, pool.token1]) {
        const whole = 10 ** rng.range(-2, 4);
        const amount = BigInt(Math.floor(whole * 10 ** Math.min(6, token.decimals))) * 10n ** BigInt(Math.max(0, token.decimals - 6));
        rows.push({
          blockNumber: block, logIndex: k, token: token.address, side: rng.next() < 0.5 ? 'buy' : 'sell', txHash, pool: pool.address,
          occurredAt: at, amount: amount === 0n ? 1n : amount, valueUsd: null,
        });
        moved.add(token);
      }
    }
    for (const token of [...moved].sort((a, b) => (a.address < b.address ? -1 : 1))) {
      if (options.unpricedChance && rng.next() < options.unpricedChance) token.current = null;
      else token.current = Math.max(1e-12, (token.current ?? token.price) * (1 + rng.gauss() * 0.01));
      prices.push({ token: token.address, blockNumber: block, price: token.current === null ? null : priceText(token.current), observedAt: at, source: null });
    }
    // Valued at the price at the end of the block, truncated to 18 digits like the indexer's.
    for (const row of rows) {
      const token = byAddress.get(row.token)!;
      if (token.current === null) continue;
      const scaled = (row.amount * BigInt(Math.round(token.current * 1e12))) / 10n ** BigInt(token.decimals);
      const text = `${scaled / 10n ** 12n}.${(scaled % 10n ** 12n).toString().padStart(12, '0')}`.replace(/\.?0+$/, '');
      row.valueUsd = text === '' ? '0' : text;
    }
    swaps.push(...rows);
  }
  return { prices, swaps, blockTime, lastBlock: options.firstBlock + options.blocks - 1 };
}

/** Writes a history in batches of `batchBlocks` blocks, each as indexBatch writes its own. */
export async function writeTradeHistory(db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }, history: TradeHistory, batchBlocks: number): Promise<void> {
  const { prices, swaps } = history; // both in block order
  let p = 0;
  let s = 0;
  while (p < prices.length || s < swaps.length) {
    const from = Math.min(prices[p]?.blockNumber ?? Infinity, swaps[s]?.blockNumber ?? Infinity);
    const to = from + batchBlocks - 1;
    const p0 = p;
    const s0 = s;
    while (p < prices.length && prices[p]!.blockNumber <= to) p++;
    while (s < swaps.length && swaps[s]!.blockNumber <= to) s++;
    const batchPrices = prices.slice(p0, p);
    const batchSwaps = swaps.slice(s0, s);
    await db.transaction(async (tx) => {
      await savePriceChanges(tx, batchPrices);
      await recordSwaps(tx, batchSwaps);
      await rollupCandles(tx, batchPrices, batchSwaps);
    });
  }
}
