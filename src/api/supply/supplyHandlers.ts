import type { RequestHandler, Response } from 'express';
import { NotFoundError } from '../../errors/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { formatTokenUnits } from './formatTokenUnits.ts';
import type { SupplyAnswer } from './SupplySnapshot.ts';
import { toCirculatingSupplyBody, toTotalSupplyBody } from './toSupplyBody.ts';
import type { SupplyQuery } from './types.ts';

type Kind = 'total' | 'circulating';

/** GET /supply/total: total supply after burn. */
export const getTotalSupply = (deps: ApiDeps): RequestHandler => supplyHandler(deps, 'total');

/** GET /supply/circulating: total supply after burn minus the excluded wallets. */
export const getCirculatingSupply = (deps: ApiDeps): RequestHandler => supplyHandler(deps, 'circulating');

// The validator has already checked contractAddress (pattern) and format (enum).
function supplyHandler({ supply }: ApiDeps, kind: Kind): RequestHandler {
  return async (req, res) => {
    const query = req.query as unknown as SupplyQuery;
    if (!supply) throw new NotFoundError('No network token is configured on this server, so no supply is served.');
    if (query.contractAddress.toLowerCase() !== supply.tokenAddress.toLowerCase())
      throw new NotFoundError(`Supply is served only for the network token ${supply.tokenAddress}, not ${query.contractAddress}.`);
    const answer = await supply.get();
    setHeaders(res, answer, supply.cacheSeconds);
    if (query.format === 'json') {
      res.json(kind === 'total' ? toTotalSupplyBody(answer) : toCirculatingSupplyBody(answer));
      return;
    }
    const { snapshot: s } = answer;
    res.type('text/plain; charset=utf-8').send(formatTokenUnits(kind === 'total' ? s.totalSupply : s.circulatingSupply, s.decimals));
  };
}

// Age lets shared caches count the seconds already spent in ours against max-age; stale
// figures must not be kept downstream once the node is back.
function setHeaders(res: Response, answer: SupplyAnswer, cacheSeconds: number): void {
  res.setHeader('Cache-Control', answer.stale ? 'no-store' : `public, max-age=${cacheSeconds}`);
  res.setHeader('Age', String(answer.ageSeconds));
  res.setHeader('X-Supply-Block-Number', String(answer.snapshot.blockNumber));
  if (answer.stale) res.setHeader('X-Supply-Stale', 'true');
}
