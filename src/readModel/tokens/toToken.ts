import { getAddress } from 'ethers';
import type { PoolRow, TokenRow } from '../../db/index.ts';
import { COMPLETE_HISTORY, type HistoryView } from '../historyView.ts';
import type { Token } from '../types.ts';
import { toPool } from './toPool.ts';

const toNumber = (value: string | null): number | null => (value === null ? null : Number(value));

/**
 * Stored row → API token, with its price source's pool row (looked up by the caller). Exact
 * decimals become JSON numbers only here, at the edge. A figure whose window the stored history
 * does not cover (`view`) is null.
 */
export function toToken(row: TokenRow, priceSource?: PoolRow, view: HistoryView = COMPLETE_HISTORY): Token {
  const { h1, h6, h24, d7 } = view.windows;
  const within = <T>(covered: boolean, value: T): T | null => (covered ? value : null);
  return {
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
    logo: row.logo,
    contractAddress: row.checksumAddress,
    currentPrice: toNumber(row.currentPrice),
    priceUpdatedAt: row.priceUpdatedAt ? row.priceUpdatedAt.toISOString() : null,
    marketUpdatedAt: row.marketUpdatedAt ? row.marketUpdatedAt.toISOString() : null,
    last24hVariation: within(h24, toNumber(row.last24hVariation)),
    isPossibleSpam: row.isPossibleSpam,
    spamReasons: readList(row.spamReasons, { code: 'string', detail: 'string' }, 'spam reasons', row),
    isSecure: row.isSecure,
    security: { score: row.securityScore, reasons: readList(row.securityReasons, { code: 'string', impact: 'number', detail: 'string' }, 'security reasons', row) },
    info: {
      sells: within(h24, row.sells),
      buys: within(h24, row.buys),
      swaps: within(h24, row.swaps),
      fdv: toNumber(row.fdv),
      totalSupply: row.totalSupply,
      liquidity: toNumber(row.liquidity),
      volume24h: within(h24, Number(row.volume24h)),
      // h24 is last24hVariation: the one stored figure of that window
      priceChange: {
        h1: within(h1, toNumber(row.priceChange1h)), h6: within(h6, toNumber(row.priceChange6h)),
        h24: within(h24, toNumber(row.last24hVariation)), d7: within(d7, toNumber(row.priceChange7d)),
      },
      priceSource: priceSource ? toPool(priceSource, view) : anchorOf(row),
      circulatingSupply: row.circulatingSupply,
      marketCap: toNumber(row.marketCap),
    },
    completeness: { ...view, contractChecks: row.contractChecked ?? false },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type FieldTypes = { string: string; number: number };
type Shape = Record<string, keyof FieldTypes>;
type Shaped<S extends Shape> = { [F in keyof S]: FieldTypes[S[F]] };

const isShaped = <S extends Shape>(item: unknown, shape: S): item is Shaped<S> =>
  typeof item === 'object' && item !== null && Object.entries(shape).every(([field, type]) => typeof Reflect.get(item, field) === type);

/** A stored JSON list (the indexer writes reasons as JSON), each item checked to have the fields of `shape`. */
function readList<S extends Shape>(text: string, shape: S, what: string, row: TokenRow): Shaped<S>[] {
  const list: unknown = JSON.parse(text);
  if (!Array.isArray(list) || !list.every((item) => isShaped(item, shape))) throw new Error(`token ${row.checksumAddress}: stored ${what} are not a list of ${JSON.stringify(shape)}`);
  return list;
}

const ANCHOR_DESCRIPTION = {
  'usd-basket': 'Median of the stablecoin basket',
  'usd-feed': 'Chainlink-style USD price feed',
} as const;

function anchorOf(row: TokenRow): Token['info']['priceSource'] {
  if (row.priceSource === null || (row.priceSourceKind !== 'usd-feed' && row.priceSourceKind !== 'usd-basket')) return null;
  return { family: 'anchor', kind: row.priceSourceKind, address: getAddress(row.priceSource), description: ANCHOR_DESCRIPTION[row.priceSourceKind] };
}
