import type { RequestHandler } from 'express';
import { NotFoundError } from '../../errors/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';

/** GET /tokens/{contractAddress}: any case in, checksummed out; 404 when not indexed. */
export function getToken({ catalog, validateResponses }: ApiDeps): RequestHandler<{ contractAddress: string }> {
  return async (req, res) => {
    const body = await catalog.token(req.params.contractAddress);
    if (body === undefined) throw new NotFoundError(`No token ${req.params.contractAddress} is indexed.`);
    sendJsonBody(res, body, validateResponses);
  };
}
