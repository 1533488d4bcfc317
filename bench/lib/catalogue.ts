// A realistic, seeded token catalogue written through the storage write API (never raw SQL rows):
// tokens with prices, 24 hourly price points each, and swaps turned into 24 h counts.
import { getAddress } from 'ethers';
import {
  appendPricePoints,
  recordSwaps,
  refreshSwapCounts,
  upsertTokens,
  type Database,
  type PricePointWrite,
  type SwapWrite,
  type TokenWrite,
} from '../../src/db/index.ts';
import { createPrng, type Prng } from '../../src/demo/prng.ts';
import { SCALE } from '../../src/indexer/math/fixed.ts';
import { securityScore } from '../../src/indexer/trust/securityScore.ts';
import type { ContractFindings } from '../../src/indexer/contractChecks/ContractFindings.ts';
import { buildTradeHistory, writeTradeHistory, type TradeHistory } from './tradeHistory.ts';

export type CatalogueOptions = { count: number; seed: number; now: Date };

export type CatalogueReport = {
  tokens: number;
  pricedTokens: number;
  secureTokens: number;
  pricePoints: number;
  swaps: number;
  /** The candle token's trading history: blocks, price changes and swap rows. */
  candleHistory?: { blocks: number; priceChanges: number; swaps: number };
  writeMs: number;
};

const FIVE_MINUTES = 300_000;
/**
 * Every block number the catalogue writes is below this one, and the bench's chain starts above
 * it: a live indexer writing into the same database (the PostgreSQL half's writer) takes every
 * stored swap at or above a batch's first block for one that batch brought, and would otherwise
 * count the catalogue's swaps into the 24 h figures again at every block.
 */
export const CATALOGUE_BLOCKS_BELOW = 20_000_000;
/** Blocks of the candle token's history, one every five minutes: more than 1,000 five-minute candles. */
const CANDLE_BLOCKS = 1100;
const CANDLE_FIRST_BLOCK = CATALOGUE_BLOCKS_BELOW - CANDLE_BLOCKS;

/** The token with a long trading history (candles, price at a time) and the requests that read it. */
export type CandleToken = {
  address: string;
  /** The last 1,000 five-minute candles up to the catalogue's now: from and to (ISO). */
  from: string;
  to: string;
  /** Times inside its history, for price-at requests. */
  times: string[];
};

/**
 * The first priced token's history: a block every five minutes over the CANDLE_BLOCKS before the
 * catalogue's now, each with swaps (paired with the second priced token) and the price changes
 * they cause, written as the indexer writes them, so it has over 1,000 five-minute candles.
 */
function candleHistory(catalogue: Catalogue, options: CatalogueOptions): TradeHistory | undefined {
  const [first, second] = catalogue.tokens.filter((t) => t.currentPrice !== null);
  if (!first || !second) return undefined;
  const end = Math.floor(options.now.getTime() / FIVE_MINUTES) * FIVE_MINUTES;
  return buildTradeHistory({
    seed: options.seed ^ 0xca7d1e, pools: 1, blocks: CANDLE_BLOCKS, firstBlock: CANDLE_FIRST_BLOCK,
    startMs: end - CANDLE_BLOCKS * FIVE_MINUTES + 17_000, blockMs: FIVE_MINUTES, swapsPerBlock: 1.5,
    tokens: [first, second].map((t) => ({ address: t.address, decimals: t.decimals, price: Number(t.currentPrice) })),
  });
}

export function candleTokenOf(catalogue: Catalogue, options: CatalogueOptions): CandleToken | undefined {
  const address = catalogue.tokens.find((t) => t.currentPrice !== null)?.address;
  if (!address) return undefined;
  const to = Math.floor(options.now.getTime() / FIVE_MINUTES) * FIVE_MINUTES - FIVE_MINUTES;
  const from = to - 999 * FIVE_MINUTES;
  const times = Array.from({ length: 1000 }, (_, i) => new Date(from + i * FIVE_MINUTES + ((i * 7919) % FIVE_MINUTES)).toISOString().replace('.000Z', 'Z'));
  return { address, from: new Date(from).toISOString(), to: new Date(to).toISOString(), times };
}

export type Catalogue = {
  tokens: TokenWrite[];
  /** Checksummed addresses in catalogue order. */
  addresses: string[];
  /** Addresses of priced tokens (those with a price history). */
  priced: string[];
};

const HOUR_MS = 3_600_000;
const hex = (rng: Prng, bytes: number) => {
  let out = '';
  for (let i = 0; i < bytes; i++) out += Math.floor(rng.next() * 256).toString(16).padStart(2, '0');
  return out;
};
const WORDS = ['Aurora', 'Bridge', 'Cobalt', 'Delta', 'Ember', 'Flux', 'Granite', 'Harbor', 'Ion', 'Jade', 'Krypton', 'Lumen', 'Meridian', 'Nova', 'Orbit', 'Pulse', 'Quartz', 'Ripple', 'Summit', 'Tide'];

/** Fixed-point decimal string of a positive float with `digits` fraction digits (no exponent). */
function decimal(value: number, digits: number): string {
  return value.toFixed(digits);
}

const filler = (i: number, role: number) => `0x${(i * 16 + role).toString(16).padStart(40, '0')}`;

/**
 * Contract findings of the i-th priced token, in the mix a real network shows: every tenth (the
 * listed ones) a fiat-style proxy with an owner who can mint, pause and blacklist; a third with an
 * active owner, every sixth able to mint; one in 97 a honeypot, one in 53 taxed 5 %.
 */
function contractFindingsOf(i: number): ContractFindings {
  const fiat = i % 10 === 0;
  return {
    hasCode: true,
    proxy: fiat ? { standard: 'eip1967', implementation: filler(i, 1), admin: filler(i, 2) } : null,
    owner: fiat || i % 3 === 0 ? filler(i, 3) : null,
    ownerRenounced: !fiat && i % 3 === 1,
    powers: fiat
      ? [{ power: 'mint', signature: 'mint(address,uint256)' }, { power: 'pause', signature: 'pause()' }, { power: 'blacklist', signature: 'blacklist(address)' }]
      : i % 6 === 0 ? [{ power: 'mint', signature: 'mint(address,uint256)' }] : [],
    sell: i % 97 === 0
      ? { result: 'reverts', holder: filler(i, 4), pool: filler(i, 5), amount: '1000', error: 'TRANSFER_FAILED' }
      : { result: 'ok', holder: filler(i, 4), pool: filler(i, 5), amount: '1000' },
    taxes: i % 53 === 0 ? [{ side: 'sell', bps: 500, tx: `0x${i.toString(16).padStart(64, '0')}` }] : [],
  };
}

/** Deterministic for a given (count, seed, now hour). */
export function buildCatalogue(options: CatalogueOptions): Catalogue {
  const rng = createPrng(options.seed);
  const now = options.now.getTime();
  const tokens: TokenWrite[] = [];
  for (let i = 0; i < options.count; i++) {
    const address = getAddress(`0x${hex(rng, 20)}`);
    const decimals = rng.pick([18, 18, 18, 6, 8, 9, 0, 24]);
    // supply between 1e3 and 1e12 whole tokens, log-uniform
    const whole = BigInt(Math.floor(10 ** rng.range(3, 12)));
    const totalSupply = whole * 10n ** BigInt(decimals) + BigInt(Math.floor(rng.next() * 1e6));
    const priced = rng.next() < 0.85;
    const price = priced ? 10 ** rng.range(-8, 4) : null;
    const fdv = price === null ? null : price * Number(whole);
    const variation = priced && rng.next() < 0.95 ? rng.gauss() * 12 : null;
    const spam = rng.next() < 0.08;
    const lures = spam ? [{ code: 'domain-call-to-action', detail: `name asks to "claim" at the domain "claim-${i}.xyz"` }] : [];
    const token: TokenWrite = {
      address,
      name: `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${i}`,
      symbol: `${rng.pick(WORDS).slice(0, 3).toUpperCase()}${i}`,
      decimals,
      logo: rng.next() < 0.5 ? `https://assets.example.org/tokens/${address.toLowerCase()}.png` : null,
      totalSupply,
      currentPrice: price === null ? null : decimal(price, 12),
      priceUpdatedAt: price === null ? null : new Date(now - Math.floor(rng.range(0, HOUR_MS))),
      marketUpdatedAt: price === null ? null : new Date(now - Math.floor(rng.range(0, 2 * HOUR_MS))),
      last24hVariation: variation === null ? null : decimal(variation, 4),
      fdv: fdv === null ? null : decimal(fdv, 2),
      isPossibleSpam: spam,
      spamReasons: JSON.stringify(lures),
      firstSeenAt: new Date(now - Math.floor(rng.range(HOUR_MS, 400 * 24 * HOUR_MS))),
      at: new Date(now - Math.floor(rng.range(0, 2 * HOUR_MS))),
      firstSeenBlock: i,
      // three fifths circulating (no draw from rng: the rest of the catalogue stays as it was)
      circulatingSupply: (totalSupply * 3n) / 5n,
      marketCap: fdv === null ? null : decimal(fdv * 0.6, 2),
    };
    // Trust as the indexer writes it (no draw from rng: the rest of the catalogue stays as it was):
    // a lure for spam tokens, the score from liquidity (2 % of fdv), activity, age and a 10 % list,
    // and contract checks on priced tokens (contractFindingsOf).
    const security = securityScore({
      now: options.now, listed: i % 10 === 0, priced: fdv !== null, liquidity: fdv === null ? null : BigInt(Math.floor(fdv * 0.02)) * SCALE,
      swaps24h: i % 150, firstSeenAt: token.firstSeenAt, sourcePoolCreatedAt: fdv === null ? null : token.firstSeenAt, spamReasons: lures,
      contract: fdv === null ? null : contractFindingsOf(i),
    });
    token.security = { score: security.score, reasons: JSON.stringify(security.reasons) };
    token.isSecure = security.score > 70 && fdv !== null && fdv * 0.6 > 50_000;
    tokens.push(token);
  }
  return {
    tokens,
    addresses: tokens.map((t) => t.address),
    priced: tokens.filter((t) => t.currentPrice !== null).map((t) => t.address),
  };
}

/** Writes the catalogue in batches: tokens, 24 hourly points per priced token, swaps, then counts. */
export async function writeCatalogue(db: Database, catalogue: Catalogue, options: CatalogueOptions): Promise<CatalogueReport> {
  const started = performance.now();
  const rng = createPrng(options.seed ^ 0x5eed);
  const now = options.now.getTime();
  await upsertTokens(db, catalogue.tokens);

  // 24 points per priced token, ~20,000 points per statement
  let pricePoints = 0;
  const priced = catalogue.tokens.filter((t) => t.currentPrice !== null);
  const perBatch = Math.max(1, Math.floor(20_000 / 24));
  for (let i = 0; i < priced.length; i += perBatch) {
    const points: PricePointWrite[] = [];
    for (const t of priced.slice(i, i + perBatch)) {
      let price = Number(t.currentPrice);
      for (let h = 0; h < 24; h++) {
        const hourStart = Math.floor((now - h * HOUR_MS) / HOUR_MS) * HOUR_MS;
        const observedAt = new Date(Math.min(now, hourStart + Math.floor(rng.range(0, HOUR_MS))));
        points.push({ token: t.address, price: decimal(price, 12), observedAt, blockNumber: 1_000_000 - h * 300 });
        price = Math.max(1e-12, price * (1 + rng.gauss() * 0.02));
      }
    }
    await appendPricePoints(db, points);
    pricePoints += points.length;
  }

  // Swaps over the last 24 h, heavy-tailed: a few tokens trade a lot, most rarely.
  let swaps = 0;
  let batch: SwapWrite[] = [];
  let block = 900_000;
  const flush = async () => {
    if (batch.length === 0) return;
    await recordSwaps(db, batch);
    swaps += batch.length;
    batch = [];
  };
  for (const t of priced) {
    const n = Math.min(400, Math.floor(0.5 / (rng.next() ** 1.5 + 0.002)) - 1);
    for (let k = 0; k < n; k++) {
      block += rng.int(0, 2);
      batch.push({
        blockNumber: block,
        logIndex: k,
        token: t.address,
        side: rng.next() < 0.5 ? 'buy' : 'sell',
        txHash: `0x${hex(rng, 32)}`,
        pool: `0x${hex(rng, 20)}`,
        occurredAt: new Date(now - Math.floor(rng.range(0, 24 * HOUR_MS - 60_000))),
        amount: 10n ** 18n,
        valueUsd: null,
      });
      if (batch.length >= 10_000) await flush();
    }
  }
  await flush();
  if (block >= CANDLE_FIRST_BLOCK) throw new RangeError(`the catalogue's swaps reach block ${block}, into the candle history's blocks`);

  // One token with a long history: price changes, swaps and candles as the indexer writes them,
  // its current price the history's last.
  const history = candleHistory(catalogue, options);
  if (history) {
    await writeTradeHistory(db, history, 100);
    const latest = new Map(history.prices.map((p) => [p.token, p]));
    await upsertTokens(db, catalogue.tokens.flatMap((t) => {
      const last = latest.get(t.address.toLowerCase());
      return last?.price ? [{ ...t, currentPrice: last.price, priceUpdatedAt: last.observedAt, at: last.observedAt }] : [];
    }));
  }
  await refreshSwapCounts(db, options.now);
  return {
    tokens: catalogue.tokens.length,
    pricedTokens: priced.length,
    secureTokens: catalogue.tokens.filter((t) => t.isSecure).length,
    pricePoints,
    swaps,
    ...(history ? { candleHistory: { blocks: CANDLE_BLOCKS, priceChanges: history.prices.length, swaps: history.swaps.length } } : {}),
    writeMs: Math.round(performance.now() - started),
  };
}

/**
 * Search terms as users type them, drawn from the catalogue: symbol prefixes (2–4 characters),
 * name words or their first letters, and address prefixes (0x + 4–8 hex digits), in any case.
 */
export function searchTermsOf(catalogue: Catalogue, seed: number, count = 3000): string[] {
  const rng = createPrng(seed ^ 0x5ea7c4);
  const terms: string[] = [];
  for (let i = 0; i < count; i++) {
    const token = rng.pick(catalogue.tokens);
    const roll = rng.next();
    let term: string;
    if (roll < 0.4) term = token.symbol.slice(0, 2 + Math.floor(rng.next() * 3));
    else if (roll < 0.8) {
      const word = rng.pick(token.name.split(' '));
      term = rng.next() < 0.5 ? word : word.slice(0, 3 + Math.floor(rng.next() * 3));
    } else term = token.address.slice(0, 6 + Math.floor(rng.next() * 5));
    terms.push(rng.next() < 0.5 ? term.toLowerCase() : term);
  }
  return terms;
}
