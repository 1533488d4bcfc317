import type { RequestHandler } from 'express';
import { NotFoundError } from '../../errors/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';

export type TokenPoolsParams = { contractAddress: string; page?: number; limit?: number };

/** A serialised page of the token's pools; NotFoundError when the token is not indexed. */
export function listTokenPoolsAnswer({ catalog }: Pick<ApiDeps, 'catalog'>): (params: TokenPoolsParams) => Promise<string> {
  return async ({ contractAddress, page = 1, limit = 50 }) => {
    const body = await catalog.pools(contractAddress, page, limit);
    if (body === undefined) throw new NotFoundError(`No token ${contractAddress} is indexed.`);
    return body;
  };
}

/** GET /tokens/{contractAddress}/pools. The validator has already applied defaults and bounds. */
export function listTokenPools(deps: ApiDeps): RequestHandler<{ contractAddress: string }> {
  const answer = listTokenPoolsAnswer(deps);
  return async (req, res) => {
    const query = req.query as { page?: number; limit?: number };
    sendJsonBody(res, await answer({ contractAddress: req.params.contractAddress, page: query.page, limit: query.limit }));
  };
}
