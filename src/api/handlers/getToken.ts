import type { RequestHandler } from 'express';
import { NotFoundError } from '../../errors/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';

/** The serialised token; NotFoundError when it is not indexed. */
export function getTokenAnswer({ catalog }: Pick<ApiDeps, 'catalog'>): (params: { contractAddress: string }) => Promise<Buffer> {
  return async ({ contractAddress }) => {
    const body = await catalog.token(contractAddress);
    if (body === undefined) throw new NotFoundError(`No token ${contractAddress} is indexed.`);
    return body;
  };
}

/** GET /tokens/{contractAddress}: any case in, checksummed out; 404 when not indexed. */
export function getToken(deps: ApiDeps): RequestHandler<{ contractAddress: string }> {
  const answer = getTokenAnswer(deps);
  return async (req, res) => sendJsonBody(res, await answer(req.params));
}
