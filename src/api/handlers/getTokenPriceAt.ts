import { createPriceAtReader } from '../../readModel/prices/readPriceAt.ts';
import type { AnswerFactory } from '../operations/Reply.ts';

/**
 * GET /prices/{contractAddress}/at: the price in force at a time or block, read from the database
 * per answer. One after the chain's head moves with the head, which the data version does not
 * follow (blocks without data advance it): the response cache does not keep it.
 */
export const getTokenPriceAt: AnswerFactory<'getTokenPriceAt'> = ({ db }) => {
  const read = createPriceAtReader(db);
  return async (params) => {
    const { body, afterHead } = await read(params);
    return afterHead ? { type: 'application/json', body, notCached: true } : { type: 'application/json', body };
  };
};
