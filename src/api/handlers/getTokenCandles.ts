import { createCandlesReader } from '../../readModel/candles/readCandles.ts';
import type { AnswerFactory } from '../operations/Reply.ts';

/** GET /prices/{contractAddress}/candles: read from the database per answer, at the deps' wall clock. */
export const getTokenCandles: AnswerFactory<'getTokenCandles'> = ({ db, now = () => new Date() }) => {
  const read = createCandlesReader(db);
  return async (params) => ({ type: 'application/json', body: await read(params, now()) });
};
