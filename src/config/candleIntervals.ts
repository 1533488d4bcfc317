// The candle intervals the service rolls up and answers (GET /prices/{contractAddress}/candles),
// each aligned to UTC: a bucket starts at a multiple of its length since the Unix epoch.
export const CANDLE_INTERVALS = [
  { name: '5m', seconds: 300 },
  { name: '15m', seconds: 900 },
  { name: '1h', seconds: 3600 },
  { name: '4h', seconds: 14_400 },
  { name: '1d', seconds: 86_400 },
] as const;

export type CandleIntervalName = (typeof CANDLE_INTERVALS)[number]['name'];

/** Seconds of an interval by its name. */
export const intervalSeconds = (name: CandleIntervalName): number => CANDLE_INTERVALS.find((i) => i.name === name)!.seconds;
