import type { RequestHandler } from 'express';
import { getToken as findToken } from '../../db/index.ts';
import { NotFoundError } from '../../errors/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { toToken } from '../toToken.ts';
import type { Token } from '../types.ts';

/** GET /tokens/{contractAddress}: any case in, checksummed out; 404 when not indexed. */
export function getToken({ db }: ApiDeps): RequestHandler<{ contractAddress: string }> {
  return async (req, res) => {
    const row = await findToken(db, req.params.contractAddress);
    if (!row) throw new NotFoundError(`No token ${req.params.contractAddress} is indexed.`);
    const body: Token = toToken(row);
    res.json(body);
  };
}
