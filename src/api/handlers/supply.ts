import type { RequestHandler } from 'express';
import { NotFoundError } from '../../errors/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';
import { formatTokenUnits } from '../../readModel/supply/formatTokenUnits.ts';
import type { SupplyAnswer } from '../../readModel/supply/SupplySnapshot.ts';
import { toCirculatingSupplyBody, toTotalSupplyBody } from '../../readModel/supply/toSupplyBody.ts';
import type { SupplyQuery } from '../../readModel/supply/types.ts';

type Kind = 'total' | 'circulating';

/** A supply answer ready to send: never stored by the response cache (its Age moves). */
export type SupplyReply = { contentType: string; body: string; headers: [string, string][] };

/** GET /supply/total: total supply after burn. */
export const getTotalSupply = (deps: ApiDeps): RequestHandler => supplyHandler(deps, 'total');

/** GET /supply/circulating: total supply after burn minus the excluded wallets. */
export const getCirculatingSupply = (deps: ApiDeps): RequestHandler => supplyHandler(deps, 'circulating');

/** The reply for a validated query; NotFoundError for any token but the network token. */
export function supplyReply({ supply }: Pick<ApiDeps, 'supply'>, kind: Kind): (query: SupplyQuery) => Promise<SupplyReply> {
  return async (query) => {
    if (!supply) throw new NotFoundError('No network token is configured on this server, so no supply is served.');
    if (query.contractAddress.toLowerCase() !== supply.tokenAddress.toLowerCase())
      throw new NotFoundError(`Supply is served only for the network token ${supply.tokenAddress}, not ${query.contractAddress}.`);
    const answer = await supply.get();
    const headers = supplyHeaders(answer, supply.cacheSeconds);
    if (query.format === 'json') {
      const body = JSON.stringify(kind === 'total' ? toTotalSupplyBody(answer) : toCirculatingSupplyBody(answer));
      return { contentType: 'application/json; charset=utf-8', body, headers };
    }
    const { snapshot: s } = answer;
    const body = formatTokenUnits(kind === 'total' ? s.totalSupply : s.circulatingSupply, s.decimals);
    return { contentType: 'text/plain; charset=utf-8', body, headers };
  };
}

// The validator has already checked contractAddress (pattern) and format (enum).
function supplyHandler(deps: ApiDeps, kind: Kind): RequestHandler {
  const reply = supplyReply(deps, kind);
  return async (req, res) => {
    const { contentType, body, headers } = await reply(req.query as unknown as SupplyQuery);
    for (const [name, value] of headers) res.setHeader(name, value);
    if (contentType.startsWith('application/json')) return sendJsonBody(res, body);
    res.type(contentType).send(body);
  };
}

// Age lets shared caches count the seconds already spent in ours against max-age; stale
// figures must not be kept downstream once the node is back.
function supplyHeaders(answer: SupplyAnswer, cacheSeconds: number): [string, string][] {
  return [
    ['Cache-Control', answer.stale ? 'no-store' : `public, max-age=${cacheSeconds}`],
    ['Age', String(answer.ageSeconds)],
    ['X-Supply-Block-Number', String(answer.snapshot.blockNumber)],
    ...(answer.stale ? [['X-Supply-Stale', 'true'] as [string, string]] : []),
  ];
}
