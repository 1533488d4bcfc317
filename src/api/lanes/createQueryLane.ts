import type { ApiDeps } from '../ApiDeps.ts';
import { candlesAnswer } from '../handlers/candles.ts';
import { getTokenAnswer } from '../handlers/getToken.ts';
import { listTokensAnswer } from '../handlers/listTokens.ts';
import { listTokenPoolsAnswer, type TokenPoolsParams } from '../handlers/listTokenPools.ts';
import { priceAtAnswer } from '../handlers/priceAt.ts';
import { priceHistoriesAnswer, tokenPriceHistoryAnswer } from '../handlers/priceHistories.ts';
import { supplyReply, type SupplyReply } from '../handlers/supply.ts';
import type { CandlesParams } from '../../readModel/candles/readCandles.ts';
import type { PriceAtParams } from '../../readModel/prices/readPriceAt.ts';
import type { SupplyQuery } from '../../readModel/supply/types.ts';
import type { ListPriceHistoriesQuery, ListTokensQuery } from '../../readModel/types.ts';
import type { TaggedBody } from '../../readModel/TaggedBody.ts';
import { readOpenApiDocument } from '../../spec/readOpenApiDocument.ts';
import { compileOperationParams, type ParamsReader } from './compileOperationParams.ts';

/**
 * A request the lane will answer: its route template and the work that builds the answer, a
 * JSON body (string, UTF-8 bytes, or bytes with their ETag) the response cache may store, or a
 * reply sent as it is (supply: its Age moves).
 */
export type LanePlan = { route: string; run: () => Promise<string | Buffer | TaggedBody | SupplyReply> };

export type QueryLane = {
  /** A plan for a GET the lane can answer exactly like the full pipeline; undefined otherwise. */
  plan(url: string): LanePlan | undefined;
};

type LaneRoute = {
  /** Express route template, the metrics label. */
  route: string;
  /** The path parameter (`contractAddress`) when the route has one. */
  param?: string;
  /** What follows the parameter in the path (`/pools`), when anything does. */
  suffix?: string;
  read: ParamsReader;
  answer: (params: Record<string, unknown>) => Promise<string | Buffer | TaggedBody | SupplyReply>;
};

/**
 * The read endpoints of the token API without Express: parameters read with the spec's own
 * schemas (compileOperationParams), bodies built by the same functions the Express handlers
 * call. Anything the lane is not certain about goes to Express. It exists because Express and
 * express-openapi-validator cost most of an uncached answer: it serves uncached reads 2–6 times
 * faster (docs/performance.md, sixth round).
 */
export function createQueryLane(deps: ApiDeps, specPath: string): QueryLane {
  const spec = readOpenApiDocument(specPath);
  const read = (path: string) => compileOperationParams(spec, path, 'get');
  const listTokens = listTokensAnswer(deps);
  const priceHistories = priceHistoriesAnswer(deps);
  const exact = new Map<string, LaneRoute>([
    ['/tokens', { route: '/tokens', read: read('/tokens'), answer: (p) => listTokens(p as ListTokensQuery) }],
    ['/prices', { route: '/prices', read: read('/prices'), answer: (p) => priceHistories(p as unknown as ListPriceHistoriesQuery) }],
  ]);
  if (deps.supply) {
    for (const kind of ['total', 'circulating'] as const) {
      const reply = supplyReply(deps, kind);
      const path = `/supply/${kind}`;
      exact.set(path, { route: path, read: read(path), answer: (p) => reply(p as unknown as SupplyQuery) });
    }
  }
  const token = getTokenAnswer(deps);
  const tokenPrices = tokenPriceHistoryAnswer(deps);
  const tokenPools = listTokenPoolsAnswer(deps);
  const candles = candlesAnswer(deps);
  const priceAt = priceAtAnswer(deps);
  const suffixed: LaneRoute[] = [
    { route: '/tokens/:contractAddress/pools', param: 'contractAddress', suffix: '/pools', read: read('/tokens/{contractAddress}/pools'), answer: (p) => tokenPools(p as TokenPoolsParams) },
    { route: '/prices/:contractAddress/candles', param: 'contractAddress', suffix: '/candles', read: read('/prices/{contractAddress}/candles'), answer: (p) => candles(p as CandlesParams) },
    { route: '/prices/:contractAddress/at', param: 'contractAddress', suffix: '/at', read: read('/prices/{contractAddress}/at'), answer: (p) => priceAt(p as PriceAtParams) },
  ];
  const byPrefix = new Map<string, LaneRoute>([
    ['/tokens/', { route: '/tokens/:contractAddress', param: 'contractAddress', read: read('/tokens/{contractAddress}'), answer: (p) => token(p as { contractAddress: string }) }],
    ['/prices/', { route: '/prices/:contractAddress', param: 'contractAddress', read: read('/prices/{contractAddress}'), answer: (p) => tokenPrices(p as { contractAddress: string }) }],
  ]);

  return {
    plan(url) {
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      const query = q < 0 ? '' : url.slice(q + 1);
      let route = exact.get(path);
      let pathParams: Record<string, string> = {};
      if (!route) {
        const slash = path.indexOf('/', 1);
        route = slash > 0 ? byPrefix.get(path.slice(0, slash + 1)) : undefined;
        let segment = slash > 0 ? path.slice(slash + 1) : '';
        const withSuffix = route && suffixed.find((r) => r.route.startsWith(route!.route) && segment.endsWith(r.suffix!));
        if (withSuffix) {
          route = withSuffix;
          segment = segment.slice(0, -withSuffix.suffix!.length);
        }
        if (!route?.param || segment === '' || segment.includes('/')) return undefined;
        pathParams = { [route.param]: segment };
      }
      const params = route.read(query, pathParams);
      if (!params) return undefined;
      const { answer } = route;
      return { route: route.route, run: () => answer(params) };
    },
  };
}
