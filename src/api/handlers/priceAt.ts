import type { RequestHandler } from 'express';
import { createPriceAtReader, type PriceAtParams } from '../../readModel/prices/readPriceAt.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';

/** The serialised price of one token at a time or block (see createPriceAtReader). */
export function priceAtAnswer({ db }: Pick<ApiDeps, 'db'>): (params: PriceAtParams) => Promise<string> {
  return createPriceAtReader(db);
}

/** GET /prices/{contractAddress}/at. The validator has already checked the parameters' shapes. */
export function getTokenPriceAt(deps: ApiDeps): RequestHandler<{ contractAddress: string }> {
  const answer = priceAtAnswer(deps);
  return async (req, res) => {
    const query = req.query as Omit<PriceAtParams, 'contractAddress'>;
    sendJsonBody(res, await answer({ contractAddress: req.params.contractAddress, time: query.time, block: query.block }));
  };
}
