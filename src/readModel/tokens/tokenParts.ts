import type { Json } from '../json.ts';
import type { Token } from '../types.ts';
import type { TextParts } from './createTextSlab.ts';

/** Stands for a shared piece while the token's own text is written; JSON.stringify writes it as `"\u0000\u0001"`. */
const PLACEHOLDER = '\u0000\u0001';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/**
 * A token's JSON as pieces for the slab (TextParts: own, shared, own, …): each spam and security
 * reason, the price source and the completeness are shared pieces, since many tokens carry the
 * same ones (at 24,000 seeded tokens the reasons' 14.5 MB are 5.3 MB distinct). Joined, the pieces
 * are JSON.stringify(token) byte for byte: a nested value's text is JSON.stringify of the value.
 */
export function tokenParts(token: Token): TextParts<Token> {
  const shared: unknown[] = [];
  const stand = <V>(value: V): V => {
    shared.push(value);
    return PLACEHOLDER as V;
  };
  // in the order JSON.stringify writes them: the keys' order in toToken
  const spamReasons = token.spamReasons.map(stand);
  const reasons = token.security.reasons.map(stand);
  const priceSource = token.info.priceSource === null ? null : stand(token.info.priceSource);
  const completeness = stand(token.completeness);
  const own = JSON.stringify({ ...token, spamReasons, security: { ...token.security, reasons }, info: { ...token.info, priceSource }, completeness }).split(PLACEHOLDER_JSON);
  // a text of the token's own that reads like the placeholder: the whole token as one own piece
  if (own.length !== shared.length + 1) return [JSON.stringify(token)] as unknown as TextParts<Token>;
  const parts: string[] = [own[0]!];
  for (let i = 0; i < shared.length; i++) parts.push(JSON.stringify(shared[i]), own[i + 1]!);
  return parts as unknown as TextParts<Token>;
}

/** The pieces' joined text (what the slab's copies give back). */
export const joinedText = (parts: TextParts<Token>) => parts.join('') as Json<Token>;
