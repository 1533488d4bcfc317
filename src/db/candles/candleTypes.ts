// What the candle roll-up reads: the price changes and swaps the indexer writes (PriceChange,
// SwapWrite and their stored rows all have these fields).

/** A change of a token's USD price at a block; null = no longer priced (ignored by candles). */
export type CandlePriceInput = { token: string; blockNumber: number; price: string | null; observedAt: Date };

/** One swap row of a token: base units moved and their USD value at the end of its block. */
export type CandleSwapInput = { token: string; blockNumber: number; occurredAt: Date; amount: bigint; valueUsd: string | null };

/** A stored candle; prices are null only on a row of swaps before the token's first price. */
export type StoredCandle = {
  token: string;
  intervalSeconds: number;
  /** ms since the epoch, start of the interval */
  bucket: number;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string | null;
  volumeUsd: string;
  /** base units */
  volume: string;
  swaps: number;
  lastBlock: number;
};

/** Start (ms since the epoch, UTC) of the interval of `seconds` that contains `ms`. */
export const bucketOf = (ms: number, seconds: number): number => Math.floor(ms / (seconds * 1000)) * seconds * 1000;
