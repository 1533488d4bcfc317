// Uniswap Token Lists (https://tokenlists.org) from a file path or URL, entries of one chain only.
import { readFile } from 'node:fs/promises';
import { BaseError } from '../errors/index.ts';

export type TokenListEntry = { address: string; name: string; symbol: string; decimals: number; logoURI: string | null };

export class TokenListError extends BaseError {
  override name = 'TokenListError';
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export async function loadTokenList(source: string, chainId: number | undefined): Promise<TokenListEntry[]> {
  let text: string;
  try {
    text = /^https?:\/\//.test(source) ? await (await fetch(source)).text() : await readFile(source, 'utf8');
  } catch (error) {
    throw new TokenListError(`cannot read token list ${source}`, { cause: error });
  }
  let doc: { tokens?: unknown };
  try {
    doc = JSON.parse(text) as { tokens?: unknown };
  } catch (error) {
    throw new TokenListError(`token list ${source} is not JSON`, { cause: error });
  }
  if (!Array.isArray(doc.tokens)) throw new TokenListError(`token list ${source} has no tokens array`);
  const entries: TokenListEntry[] = [];
  for (const raw of doc.tokens as Record<string, unknown>[]) {
    if (chainId !== undefined && raw.chainId !== undefined && Number(raw.chainId) !== chainId) continue;
    if (typeof raw.address !== 'string' || !ADDRESS.test(raw.address)) continue;
    const decimals = Number(raw.decimals);
    entries.push({
      address: raw.address.toLowerCase(),
      name: typeof raw.name === 'string' ? raw.name : '',
      symbol: typeof raw.symbol === 'string' ? raw.symbol : '',
      decimals: Number.isInteger(decimals) && decimals >= 0 && decimals <= 255 ? decimals : 18,
      logoURI: typeof raw.logoURI === 'string' && /^https?:\/\//.test(raw.logoURI) ? raw.logoURI : null,
    });
  }
  return entries;
}
