import { createPriceAtReader } from '../../readModel/prices/readPriceAt.ts';
import type { AnswerFactory } from '../operations/Reply.ts';

/** GET /prices/{contractAddress}/at: the price in force at a time or block, read from the database per answer. */
export const getTokenPriceAt: AnswerFactory<'getTokenPriceAt'> = ({ db }) => {
  const read = createPriceAtReader(db);
  return async (params) => ({ type: 'application/json', body: await read(params) });
};
