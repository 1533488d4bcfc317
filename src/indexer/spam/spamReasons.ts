// Why a token may be spam, as reasons a reader can check. A token is possible spam exactly when it
// has at least one reason; being illiquid, unpriced or unlisted is never a reason. The rules:
// - url: the name or symbol carries a URL: a scheme ("https://", "ipfs://"), "www.", or a domain
//   followed by a path ("t.me/claimbot", "foo.com/claim").
// - domain-call-to-action: a domain together with a call to action anywhere in the name or symbol
//   (claim, visit, reward(s), airdrop(s), redeem, gift(s), bonus, free, voucher, eligible, join,
//   "go to"), "at" right before the domain, or such a word as a part of the domain itself
//   ("claim-eth.xyz"). A bare dotted brand ("ether.fi governance token", "Stargate.Finance",
//   "USD.ai") is a name; a call-to-action word without a domain ("ClaimSwap") is a name too.
// - invisible-characters: characters that draw nothing (zero-width space, bidi controls, word
//   joiner, BOM, Hangul fillers …), except joiners and variation selectors inside emoji and
//   joining scripts.
// - homoglyphs: a Latin word with a letter of another script (or a styled form) that passes for a
//   Latin letter, as Cyrillic "\u0421" in "USD\u0421".
// - impersonates-listed-token: an unlisted token whose symbol reads as the symbol of a listed
//   token at another address (same after removing invisible characters and white space, folding
//   compatibility forms and look-alike letters, and case). A listed token never impersonates.
// Listing excuses no other rule. Reasons come in the order of SPAM_REASON_CODES, name before symbol.
import { findHomoglyph } from './homoglyphs.ts';
import { invisibleCharacters, withoutInvisible } from './invisibleCharacters.ts';
import { normaliseSymbol } from './normaliseSymbol.ts';
import { callsToAction, domainCallToAction, domainParts, findDomains, findUrl } from './webLures.ts';

export const SPAM_REASON_CODES = ['url', 'domain-call-to-action', 'invisible-characters', 'homoglyphs', 'impersonates-listed-token'] as const;
export type SpamReasonCode = (typeof SPAM_REASON_CODES)[number];
export type SpamReason = { code: SpamReasonCode; detail: string };
/** Normalised symbol (normaliseSymbol) → lower-case address of the listed token that has it. */
export type ListedSymbols = ReadonlyMap<string, string>;
export type SpamCandidate = { address: string; name: string; symbol: string; listed: boolean };

export { normaliseSymbol };

/** The listed symbols of token-list entries; of two entries with the same symbol the first counts. */
export function listedSymbolsOf(entries: Iterable<{ address: string; symbol: string }>): ListedSymbols {
  const symbols = new Map<string, string>();
  for (const entry of entries) {
    const key = normaliseSymbol(entry.symbol);
    if (key !== '' && !symbols.has(key)) symbols.set(key, entry.address.toLowerCase());
  }
  return symbols;
}

const MAX_QUOTED = 64;
const quote = (text: string): string => {
  const chars = Array.from(text);
  return JSON.stringify(chars.length > MAX_QUOTED ? `${chars.slice(0, MAX_QUOTED - 1).join('')}…` : text);
};
const codePoint = (char: string): string => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

type Field = { field: 'name' | 'symbol'; raw: string; visible: string; normalised: string };

export function spamReasons(token: SpamCandidate, listed: ListedSymbols): SpamReason[] {
  const fields: Field[] = (['name', 'symbol'] as const).map((field) => {
    const raw = token[field];
    const visible = withoutInvisible(raw);
    return { field, raw, visible, normalised: visible.normalize('NFKC') };
  });
  const reasons: SpamReason[] = [];

  const withUrl = new Set<Field>();
  for (const f of fields) {
    const url = findUrl(f.normalised);
    if (url === null) continue;
    withUrl.add(f);
    reasons.push({ code: 'url', detail: `${f.field} contains the URL ${quote(url)}` });
  }

  // A field already reported for a URL is not reported again for its domain.
  const actions = fields.map((f) => callsToAction(f.normalised));
  fields.forEach((f, i) => {
    if (withUrl.has(f)) return;
    for (const match of findDomains(f.normalised)) {
      // A word that names the domain itself ("Gift.fi" with the symbol GIFT) is its brand.
      const brand = new Set(domainParts(match.domain));
      const outside = (list: string[]) => list.find((action) => !brand.has(action));
      const own = domainCallToAction(f.normalised, match) ?? outside(actions[i]!);
      const other = own === undefined ? outside(actions[1 - i]!) : undefined;
      const action = own ?? other;
      if (action === undefined) continue;
      const where = other !== undefined ? ` in the ${fields[1 - i]!.field}` : '';
      reasons.push({ code: 'domain-call-to-action', detail: `${f.field} contains the domain ${quote(match.domain)} with the call to action ${quote(action)}${where}` });
      return;
    }
  });

  for (const f of fields) {
    const invisible = invisibleCharacters(f.raw);
    if (invisible.length === 0) continue;
    const kinds = [...new Set(invisible.map(codePoint))];
    const count = invisible.length === 1 ? 'an invisible character' : `${invisible.length} invisible characters`;
    reasons.push({ code: 'invisible-characters', detail: `${f.field} contains ${count} (${kinds.join(', ')})` });
  }

  for (const f of fields) {
    const found = findHomoglyph(f.visible);
    if (found === null) continue;
    const what = found.script === null ? 'styled' : found.script;
    reasons.push({
      code: 'homoglyphs',
      detail: `${f.field} mixes ${what} and Latin letters in ${quote(found.word)}: ${quote(found.char)} (${codePoint(found.char)}) looks like ${quote(found.looksLike)}`,
    });
  }

  if (!token.listed) {
    const key = normaliseSymbol(token.symbol);
    const owner = key === '' ? undefined : listed.get(key);
    if (owner !== undefined && owner !== token.address.toLowerCase()) {
      reasons.push({ code: 'impersonates-listed-token', detail: `symbol reads as ${quote(key)}, the symbol of the listed token ${owner}` });
    }
  }
  return reasons;
}
