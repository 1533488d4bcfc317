// The indexer's answers checked against the simulator's truth file: every pool's head state
// (exact integers) and price (relative 1e-9), every pooled token's 24 h swap count (when the 24 h
// window is filled: the API answers null before, the stored count being partial), and the USD
// prices of the tokens priced by a pool (the pool's true price times the quote token's stored USD
// price) and of the wrapped native token (the feed's answer).
import type { Truth } from '../../sim/truth.ts';

export type Query = <T>(sql: string) => Promise<T[]>;

export type TruthCheck = {
  ok: boolean;
  pools: { checked: number; missing: number; stateMismatches: number; priceMismatches: number };
  /** `swapsCompared` false: the 24 h window was not filled, so its counts are partial and not compared. */
  tokens: { checked: number; missing: number; swapMismatches: number; swapsCompared?: boolean };
  usdPrices: { checked: number; mismatches: number };
  /** The first few differences, for the report. */
  examples: string[];
};

const close = (a: number, b: number, rel: number) => Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b));

export async function checkAgainstTruth(query: Query, truth: Truth, options: { usdSample?: number; swapCounts?: boolean } = {}): Promise<TruthCheck> {
  const swapsCompared = options.swapCounts ?? true;
  const examples: string[] = [];
  const note = (s: string) => void (examples.length < 12 && examples.push(s));
  const poolRows = await query<{ address: string; reserve0: string | null; reserve1: string | null; sqrt: string | null; liquidity: string | null; price: string | null }>(
    `SELECT p.address, s.reserve0::text AS reserve0, s.reserve1::text AS reserve1, s.sqrt_price_x96::text AS sqrt, s.liquidity::text AS liquidity, q.price::text AS price
     FROM indexer_pools p
     LEFT JOIN LATERAL (SELECT * FROM indexer_pool_states s WHERE s.pool = p.address ORDER BY s.block_number DESC LIMIT 1) s ON true
     LEFT JOIN pools q ON q.address = p.address`,
  );
  const byPool = new Map(poolRows.map((r) => [r.address, r]));
  const pools = { checked: 0, missing: 0, stateMismatches: 0, priceMismatches: 0 };
  for (const p of truth.pools) {
    const row = byPool.get(p.address);
    pools.checked++;
    if (!row) {
      pools.missing++;
      note(`pool ${p.address} (${p.family}) not indexed`);
      continue;
    }
    const stored = 'reserve0' in p.state ? { reserve0: row.reserve0, reserve1: row.reserve1 } : { sqrtPriceX96: row.sqrt, liquidity: row.liquidity };
    if (JSON.stringify(stored) !== JSON.stringify(p.state)) {
      pools.stateMismatches++;
      note(`pool ${p.address} (${p.family}): state ${JSON.stringify(stored)} ≠ truth ${JSON.stringify(p.state)}`);
    }
    if (p.price !== null && (row.price === null || !close(Number(row.price), p.price, 1e-9))) {
      pools.priceMismatches++;
      note(`pool ${p.address} (${p.family}): price ${row.price} ≠ truth ${p.price}`);
    }
  }

  const tokenRows = await query<{ address: string; swaps: number; price: string | null; source: string | null }>(
    `SELECT address, swaps, current_price::text AS price, price_source AS source FROM tokens`,
  );
  const byToken = new Map(tokenRows.map((r) => [r.address, r]));
  const tokens = { checked: 0, missing: 0, swapMismatches: 0, swapsCompared };
  for (const t of truth.tokens) {
    tokens.checked++;
    const row = byToken.get(t.address);
    if (!row) {
      tokens.missing++;
      note(`token ${t.address} (${t.symbol}) not indexed`);
      continue;
    }
    if (swapsCompared && Number(row.swaps) !== t.swaps24h) {
      tokens.swapMismatches++;
      note(`token ${t.symbol}: ${row.swaps} swaps in 24 h ≠ truth ${t.swaps24h}`);
    }
  }

  // USD prices: a token priced by a pool costs the pool's true price in its quote token, at the quote's stored USD price.
  const truthPool = new Map(truth.pools.map((p) => [p.address, p]));
  const usdPrices = { checked: 0, mismatches: 0 };
  const sample = truth.tokens.filter((t) => byToken.get(t.address)?.price).slice(0, options.usdSample ?? 200);
  for (const t of sample) {
    const row = byToken.get(t.address)!;
    let expected: number | null = null;
    if (truth.feed && row.source === truth.feed.address) expected = Number(truth.feed.answer) / 10 ** truth.feed.decimals;
    const pool = row.source ? truthPool.get(row.source) : undefined;
    if (pool && pool.price !== null) {
      const other = pool.token0 === t.address ? pool.token1 : pool.token0;
      const quote = byToken.get(other)?.price;
      if (quote) expected = (pool.token0 === t.address ? pool.price : 1 / pool.price) * Number(quote);
    }
    if (expected === null) continue;
    usdPrices.checked++;
    if (!close(Number(row.price), expected, 1e-9)) {
      usdPrices.mismatches++;
      note(`token ${t.symbol}: USD price ${row.price} ≠ expected ${expected} (source ${row.source})`);
    }
  }
  const ok = pools.missing + pools.stateMismatches + pools.priceMismatches + tokens.missing + tokens.swapMismatches + usdPrices.mismatches === 0;
  return { ok, pools, tokens, usdPrices, examples };
}
