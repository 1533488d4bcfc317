// Uniswap Token Lists (https://tokenlists.org) from a file path or URL, entries of one chain only.
import { readFile } from 'node:fs/promises';
import { redactUrl } from '../config/redactUrl.ts';
import { BaseError } from '../errors/index.ts';

export type TokenListEntry = { address: string; name: string; symbol: string; decimals: number; logoURI: string | null };

export class TokenListError extends BaseError {
  override name = 'TokenListError';
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export async function loadTokenList(source: string, chainId: number | undefined): Promise<TokenListEntry[]> {
  let text: string;
  const remote = /^https?:\/\//.test(source);
  // A URL is named by scheme, host and port only: its path or query may hold a key.
  const name = remote ? redactUrl(source) : source;
  try {
    if (remote) {
      const { url, headers } = withoutUserinfo(source);
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      text = await response.text();
    } else {
      text = await readFile(source, 'utf8');
    }
  } catch (error) {
    throw new TokenListError(`cannot read token list ${name}`, { cause: remote ? undefined : error, details: remote ? codeOf(error) : undefined });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new TokenListError(`token list ${name} is not JSON`, { cause: error });
  }
  return parseTokenList(doc, chainId, name);
}

/**
 * fetch refuses a URL with credentials (`Request cannot be constructed from a URL that includes
 * credentials`): they go as the Basic Authorization header the URL implies.
 */
function withoutUserinfo(source: string): { url: string; headers: Record<string, string> } {
  const url = new URL(source);
  if (!url.username && !url.password) return { url: source, headers: {} };
  const basic = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  url.username = '';
  url.password = '';
  return { url: url.href, headers: { authorization: `Basic ${basic}` } };
}

/** What a failed fetch says without the URL it quotes: its HTTP status or its socket error code. */
function codeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error && /^HTTP \d+$/.test(error.message) ? error.message : 'the request failed';
}

/**
 * The entries of a parsed token list document for one chain (all when `chainId` is undefined).
 * A document without a `tokens` array is an error; single malformed entries (not an object, bad
 * address, decimals outside 0–255) are skipped. Addresses come out lower-case; a logoURI that is
 * not an http(s) URL becomes null.
 */
export function parseTokenList(doc: unknown, chainId: number | undefined, source = 'document'): TokenListEntry[] {
  const tokens = typeof doc === 'object' && doc !== null ? (doc as { tokens?: unknown }).tokens : undefined;
  if (!Array.isArray(tokens)) throw new TokenListError(`token list ${source} has no tokens array`);
  const entries: TokenListEntry[] = [];
  for (const raw of tokens as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const t = raw as Record<string, unknown>;
    if (chainId !== undefined && t.chainId !== undefined && Number(t.chainId) !== chainId) continue;
    if (typeof t.address !== 'string' || !ADDRESS.test(t.address)) continue;
    const decimals = t.decimals;
    if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) continue;
    entries.push({
      address: t.address.toLowerCase(),
      name: typeof t.name === 'string' ? t.name : '',
      symbol: typeof t.symbol === 'string' ? t.symbol : '',
      decimals,
      logoURI: typeof t.logoURI === 'string' && /^https?:\/\/\S+$/.test(t.logoURI) && URL.canParse(t.logoURI) ? t.logoURI : null,
    });
  }
  return entries;
}
