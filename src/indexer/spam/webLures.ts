// Web lures in a token name or symbol. Every function takes text already stripped of invisible
// characters and NFKC-normalised (so fullwidth "ｈｔｔｐｓ" and a "．" read as what they show).
//
// A lure sends the reader somewhere: a URL scheme ("https://", "ipfs://"), "www.", a domain with a
// path ("t.me/claimbot", "foo.com/claim"), or a domain with a call to action ("Visit x.xyz",
// "Airdrop at usdc-gift.com", "claim-eth.xyz"). A bare dotted brand ("ether.fi governance token",
// "Stargate.Finance", "USD.ai", "o1.exchange") is a name, not a lure.

// One domain label: letters and digits, inner hyphens ("claim-rewards").
const LABEL = String.raw`[\p{L}\p{N}]+(?:-+[\p{L}\p{N}]+)*`;
// Labels joined by dots, ending in a top-level label of at least two letters ("USDC.e" is not one).
const DOMAIN = String.raw`(?<![\p{L}\p{N}._-])${LABEL}(?:\.${LABEL})*\.\p{L}{2,63}(?![\p{L}\p{N}_-])`;

const SCHEME_URL = /(?<![\p{L}\p{N}+.-])[a-z][a-z0-9+.-]*:\/\/\S*/iu;
const WWW = /(?<![\p{L}\p{N}])www\.[\p{L}\p{N}]\S*/iu;
const DOMAIN_WITH_PATH = new RegExp(`${DOMAIN}\\/\\S*`, 'u');
const DOMAINS = new RegExp(DOMAIN, 'gu');

/** Words (and one phrase) that tell the reader to act: visit, claim, collect. */
const CALL_TO_ACTION_WORDS = ['claim', 'claims', 'visit', 'reward', 'rewards', 'airdrop', 'airdrops', 'redeem', 'gift', 'gifts', 'bonus', 'free', 'voucher', 'eligible', 'join'];
const CALL_TO_ACTION = new RegExp(`(?<![\\p{L}\\p{N}])(?:${CALL_TO_ACTION_WORDS.join('|')}|go\\s+to)(?![\\p{L}\\p{N}])`, 'giu');
const CALL_TO_ACTION_PART = new Set(CALL_TO_ACTION_WORDS);
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const SPACE_OR_COLON = /[\s:]/u;

/** The first URL of `text`: a scheme, "www." or a domain followed by a path; null when none. */
export function findUrl(text: string): string | null {
  const found = [SCHEME_URL.exec(text), WWW.exec(text), DOMAIN_WITH_PATH.exec(text)]
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => a.index - b.index)[0];
  return found ? found[0] : null;
}

export type DomainMatch = { domain: string; index: number };

/** Every domain-shaped run of `text` ("ether.fi", "claim-rewards.xyz"). */
export function findDomains(text: string): DomainMatch[] {
  return Array.from(text.matchAll(DOMAINS), (m) => ({ domain: m[0], index: m.index }));
}

/** The distinct calls to action of `text` outside its domains, lower-case, in order of appearance. */
export function callsToAction(text: string): string[] {
  const outside = text.replace(DOMAINS, (domain) => ' '.repeat(domain.length));
  return [...new Set(Array.from(outside.matchAll(CALL_TO_ACTION), (m) => m[0].toLowerCase().replace(/\s+/g, ' ')))];
}

/** Whether the word "at" (then spaces or a colon) stands right before `index`: "... at usdc-gift.com".
 *  Alone "at" is too common a word to count. */
function atBefore(text: string, index: number): boolean {
  let i = index;
  while (i > 0 && SPACE_OR_COLON.test(text[i - 1]!)) i--;
  if (i === index || i < 2 || text.slice(i - 2, i).toLowerCase() !== 'at') return false;
  const previous = Array.from(text.slice(Math.max(0, i - 4), i - 2)).pop();
  return previous === undefined || !LETTER_OR_DIGIT.test(previous);
}

/** The parts of a domain's name below its top level, lower-case ("claim-eth.xyz" → claim, eth). */
export function domainParts(domain: string): string[] {
  return domain.toLowerCase().split('.').slice(0, -1).flatMap((label) => label.split(/-+/));
}

/**
 * The call to action that comes with the domain itself: "at" right before it, or a call-to-action
 * word as one part of a domain with several ("claim-eth.xyz", "airdrop.linea.xyz"). A domain that
 * is only such a word and its top level ("gift.fi") is a brand.
 */
export function domainCallToAction(text: string, match: DomainMatch): string | null {
  if (atBefore(text, match.index)) return 'at';
  const parts = domainParts(match.domain);
  if (parts.length < 2) return null;
  return parts.find((part) => CALL_TO_ACTION_PART.has(part)) ?? null;
}
