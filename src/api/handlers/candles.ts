import type { RequestHandler } from 'express';
import { createCandlesReader, type CandlesParams } from '../../readModel/candles/readCandles.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';

/** The serialised candles of one token (see createCandlesReader), at the deps' wall clock. */
export function candlesAnswer({ db, now = () => new Date() }: Pick<ApiDeps, 'db' | 'now'>): (params: CandlesParams) => Promise<string> {
  const read = createCandlesReader(db);
  return (params) => read(params, now());
}

/** GET /prices/{contractAddress}/candles. The validator has already checked the parameters' shapes. */
export function getTokenCandles(deps: ApiDeps): RequestHandler<{ contractAddress: string }> {
  const answer = candlesAnswer(deps);
  return async (req, res) => {
    const query = req.query as Omit<CandlesParams, 'contractAddress'>;
    sendJsonBody(res, await answer({ contractAddress: req.params.contractAddress, interval: query.interval, from: query.from, to: query.to }));
  };
}
