// The security score (docs/security-score.md): the sum of the impacts of the factors below, clamped
// to 0–100. Every factor that adds or takes points is returned as a reason, largest impact first.
// Figures are what the indexer reads on chain; the token list is one factor, not an override.
import { SCALE } from '../math/fixed.ts';
import type { ContractFindings } from '../contractChecks/ContractFindings.ts';
import { contractReasons, type ContractReasonCode } from '../contractChecks/contractReasons.ts';

export type SecurityReason = { code: SecurityReasonCode; impact: number; detail: string };
export type SecurityReasonCode =
  | 'baseline' | 'liquidity' | 'token-age' | 'pool-age' | 'trading-activity' | 'token-list' | 'no-price' | 'spam-lure'
  | ContractReasonCode;

export type SecurityInput = {
  /** Chain time the score is computed at (the last indexed block). */
  now: Date;
  listed: boolean;
  priced: boolean;
  /** USD in the token's priced pools, scaled by 10^36; null when none is priced. */
  liquidity: bigint | null;
  swaps24h: number;
  firstSeenAt: Date;
  /** Creation time of the price-source pool; null for the anchor, unpriced tokens and unknown. */
  sourcePoolCreatedAt: Date | null;
  /** The lures found (docs/spam.md), by code. */
  spamReasons: readonly { code: string; detail: string }[];
  /** The latest contract check (docs/security-score.md, "Contract checks"); null before the first. */
  contract?: ContractFindings | null;
};

export const SCORE_WEIGHTS = {
  baseline: 20,
  /** USD in priced pools, at least. */
  liquidity: [[1_000_000, 30], [100_000, 22], [10_000, 15], [0, 5]] as const,
  /** Days since the token was first seen, at least. */
  tokenAge: [[30, 10], [7, 6], [1, 3]] as const,
  /** Days since the price-source pool was created, at least. */
  poolAge: [[30, 8], [7, 5], [1, 2]] as const,
  /** Swaps over the last 24 h, at least. */
  activity: [[100, 12], [20, 8], [1, 3]] as const,
  tokenList: 20,
  noPrice: -10,
  /** Per lure found. */
  spamLure: -60,
} as const;

const DAY_MS = 86_400_000;
/** Whole dollars with thousands separators, as en-US formats them (safe integers by hand: toLocaleString cost seconds per batch on 18,000 tokens). */
export const usd = (n: number): string =>
  Number.isSafeInteger(n) && !Object.is(n, -0)
    ? (n < 0 ? '-' : '') + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
    : n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const tier = (table: readonly (readonly [number, number])[], value: number) => table.find(([min]) => value >= min);
const days = (ms: number) => (ms >= DAY_MS ? `${Math.floor(ms / DAY_MS)} day${ms >= 2 * DAY_MS ? 's' : ''}` : `${Math.floor(ms / 3_600_000)} h`);
/**
 * The unit in which a score sees an age (the token's, its price-source pool's): the hour under a
 * day, the day after. The age tiers (whole days) and the reasons' text (days()) change only when it
 * does, so a token none of whose other inputs changed scores the same until it does.
 */
export const scoreAgeUnit = (ms: number): number => (ms < DAY_MS ? Math.floor(ms / 3_600_000) : 24 + Math.floor(ms / DAY_MS));

export function securityScore(input: SecurityInput): { score: number; reasons: SecurityReason[] } {
  const w = SCORE_WEIGHTS;
  const reasons: SecurityReason[] = [{ code: 'baseline', impact: w.baseline, detail: `Every token starts at ${w.baseline}` }];
  if (!input.priced || input.liquidity === null) {
    reasons.push({ code: 'no-price', impact: w.noPrice, detail: 'No pool above the liquidity minimum prices the token' });
  }
  if (input.liquidity !== null && input.liquidity > 0n) {
    // The tier, not the amount (the token's own `liquidity` figure): a reason changes only when its
    // impact can, so a move of the pools' USD value (every feed round) rewrites no score.
    const dollars = Number(input.liquidity / SCALE);
    const k = w.liquidity.findIndex(([min]) => dollars >= min);
    const [min, impact] = w.liquidity[k]!;
    const detail = min > 0 ? `Priced pools hold ${usd(min)} USD or more` : `Priced pools hold less than ${usd(w.liquidity[k - 1]![0])} USD`;
    reasons.push({ code: 'liquidity', impact, detail });
  }
  const age = input.now.getTime() - input.firstSeenAt.getTime();
  const tokenAge = tier(w.tokenAge, age / DAY_MS);
  if (tokenAge) reasons.push({ code: 'token-age', impact: tokenAge[1], detail: `First seen ${days(age)} ago (${tokenAge[0]} day${tokenAge[0] > 1 ? 's' : ''} or more)` });
  if (input.sourcePoolCreatedAt) {
    const poolAge = input.now.getTime() - input.sourcePoolCreatedAt.getTime();
    const t = tier(w.poolAge, poolAge / DAY_MS);
    if (t) reasons.push({ code: 'pool-age', impact: t[1], detail: `Price-source pool created ${days(poolAge)} ago (${t[0]} day${t[0] > 1 ? 's' : ''} or more)` });
  }
  const activity = tier(w.activity, input.swaps24h);
  if (activity) reasons.push({ code: 'trading-activity', impact: activity[1], detail: `${input.swaps24h} swaps in 24 h (${activity[0]} or more)` });
  if (input.listed) reasons.push({ code: 'token-list', impact: w.tokenList, detail: 'On the configured token list' });
  if (input.contract) reasons.push(...contractReasons(input.contract));
  for (const lure of input.spamReasons) reasons.push({ code: 'spam-lure', impact: w.spamLure, detail: `${lure.code}: ${lure.detail}` });
  // Largest impact first; equal impacts keep the order above, so the list is deterministic.
  reasons.sort((a, b) => b.impact - a.impact);
  const sum = reasons.reduce((n, r) => n + r.impact, 0);
  return { score: Math.max(0, Math.min(100, sum)), reasons };
}

/** The reference rule: score > secureScoreMin AND market cap > the minimum; no market cap, never secure. */
export function isSecure(score: number, marketCap: bigint | null, rule: { secureScoreMin: number; secureMarketCapMinUsd: bigint }): boolean {
  return score > rule.secureScoreMin && marketCap !== null && marketCap > rule.secureMarketCapMinUsd;
}
