import type { AnswerFactory } from '../operations/Reply.ts';

/** GET /prices?addresses=…: up to 100 tokens' histories from the in-memory store; unknown addresses are left out. */
export const listPriceHistories: AnswerFactory<'listPriceHistories'> = ({ prices, now = () => new Date() }) => async ({ addresses }) => ({
  type: 'application/json',
  body: await prices.histories(addresses, now()),
});
