// Security score and isSecure of every token, from the indexer's state at the end of a batch (or a
// rollback), after the 24 h swap counts are refreshed. Scores move with time as well as with
// events (ages grow, the 24 h window slides), so every token is scored and only changes are written.
import { trustKey, updateTokenTrust, type Queryable, type TokenTrustWrite } from '../../db/index.ts';
import type { ListedSymbols } from '../spam/spamReasons.ts';
import type { IndexerState } from '../state/IndexerState.ts';
import type { PoolFigures } from '../pricing/poolFigures.ts';
import { marketCapOf } from '../circulating/marketCapOf.ts';
import { sourceKindOf, type PricingConfig } from '../pricing/priceToken.ts';
import { isSecure, scoreAgeUnit, securityScore } from './securityScore.ts';
import { luresOf } from './luresOf.ts';

/** What scoring needs of the indexer's context: the anchors, the listed symbols, the isSecure thresholds. */
export type TrustContext = {
  pricing: PricingConfig;
  listedSymbols: ListedSymbols;
  /** isSecure = score > secureScoreMin AND market cap > secureMarketCapMinUsd (scaled by 10^36). */
  trust: { secureScoreMin: number; secureMarketCapMinUsd: bigint };
};

/**
 * Since the scores written at `since`, only these tokens' inputs changed (price, liquidity, supply,
 * 24 h swaps, contract findings): the others are scored again only when time moved one of their ages
 * to another hour (under a day) or day, the only unit a score or its reasons see of time.
 */
export type TrustScope = { since: Date; changed: ReadonlySet<string> };

const ageMoved = (from: Date | null | undefined, since: number, now: number) =>
  from != null && scoreAgeUnit(since - from.getTime()) !== scoreAgeUnit(now - from.getTime());

/** Scores the tokens (all, or those `scope` names and those whose age unit moved); writes the changed ones. Returns how many of each. */
export async function writeTokenTrust(
  tx: Queryable, ctx: TrustContext, state: IndexerState, figures: PoolFigures, now: Date, scope?: TrustScope,
): Promise<{ scored: number; written: number }> {
  const writes: TokenTrustWrite[] = [];
  let scored = 0;
  for (const [address, token] of state.tokens) {
    const current = state.prices.get(address);
    const price = current?.price ?? null;
    const source = price === null ? null : (current?.source ?? null);
    const sourcePool = sourceKindOf(ctx.pricing, address, source) === 'pool' && source ? state.pools.get(source) : undefined;
    if (scope && !scope.changed.has(address) && !ageMoved(token.firstSeenAt, scope.since.getTime(), now.getTime())
      && !ageMoved(sourcePool?.createdAt, scope.since.getTime(), now.getTime())) continue;
    scored++;
    const liquidity = figures.tokenLiquidity(address);
    const { score, reasons } = securityScore({
      now, listed: token.listed, priced: price !== null, liquidity, swaps24h: state.swaps24h.get(address) ?? 0,
      firstSeenAt: token.firstSeenAt, sourcePoolCreatedAt: sourcePool?.createdAt ?? null,
      spamReasons: luresOf(state, token, ctx.listedSymbols),
      contract: state.contractChecks.get(address)?.findings ?? null,
    });
    const marketCap = marketCapOf(price, token.circulatingSupply, token.decimals);
    const write = { address, score, reasons: JSON.stringify(reasons), isSecure: isSecure(score, marketCap, ctx.trust) };
    const key = trustKey(write);
    if (state.trustWritten.get(address) === key) continue;
    // A failed batch reloads the whole state from the database, this map included.
    state.trustWritten.set(address, key);
    writes.push(write);
  }
  await updateTokenTrust(tx, writes, now);
  return { scored, written: writes.length };
}

