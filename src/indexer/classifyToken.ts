// isPossibleSpam and isSecure exactly as spec/openapi.yaml words them.
import { SCALE, pow10 } from './fixed.ts';

// A URL, a domain (word.tld), or a claim/reward/airdrop lure in a name or symbol.
const URL_LIKE = /(https?:\/\/|www\.|t\.me\/)/i;
const DOMAIN_LIKE = /[a-z0-9-]\.(com|io|org|net|xyz|app|finance|fi|co|me|info|site|online|top|vip|club|gg|cc|to|ly|link|pro|live|network|one|ai|money|cash|tech|dev|lol|fun|biz|us|ru|cn|claim|gift|bet|win|exchange|trade|click|zone|world|space|store|shop|today|digital|io\.\w+)\b/i;
const LURE = /(claim|reward|airdrop)/i;

export function hasSpamLure(text: string): boolean {
  return URL_LIKE.test(text) || DOMAIN_LIKE.test(text) || LURE.test(text);
}

export function isPossibleSpam(t: { listed: boolean; name: string; symbol: string; priced: boolean }): boolean {
  if (t.listed) return false;
  return hasSpamLure(t.name) || hasSpamLure(t.symbol) || !t.priced;
}

/** `fdv` and `secureFdvMinUsd` scaled by 10^36. */
export function isSecure(t: { listed: boolean; priced: boolean; fdv: bigint | null; spam: boolean }, secureFdvMinUsd: bigint): boolean {
  if (t.listed) return true;
  return t.priced && t.fdv !== null && t.fdv > secureFdvMinUsd && !t.spam;
}

/** Fully diluted valuation, scaled by 10^36. */
export function fdvOf(price: bigint, totalSupply: bigint, decimals: number): bigint {
  return (price * totalSupply) / pow10(decimals);
}

/** Percent change from `past` to `current` (both scaled), scaled; null when `past` is zero. */
export function variationOf(current: bigint, past: bigint): bigint | null {
  if (past === 0n) return null;
  return ((current - past) * 100n * SCALE) / past;
}
