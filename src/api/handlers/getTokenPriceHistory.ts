import type { AnswerFactory } from '../operations/Reply.ts';
import { knownToken } from './knownToken.ts';

/** GET /prices/{contractAddress}: the token's 24 hourly prices from the in-memory store; 404 when not indexed. */
export const getTokenPriceHistory: AnswerFactory<'getTokenPriceHistory'> = ({ prices, now = () => new Date() }) => async ({ contractAddress }) => ({
  type: 'application/json',
  body: knownToken(await prices.history(contractAddress, now()), contractAddress),
});
