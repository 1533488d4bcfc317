import type { RequestHandler } from 'express';
import { NotFoundError } from '../../errors/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';
import type { ListPriceHistoriesQuery } from '../../readModel/types.ts';

const HOUR_MS = 3_600_000;

/** The starts of the oldest and the newest (current) of the 24 hourly buckets. */
export function historyRange(now: Date): { from: Date; to: Date } {
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { from: new Date(current - 23 * HOUR_MS), to: new Date(current) };
}

type PriceDeps = Pick<ApiDeps, 'prices' | 'now'>;

/** One token's serialised history from the in-memory store; NotFoundError when it is not indexed. */
export function tokenPriceHistoryAnswer({ prices, now = () => new Date() }: PriceDeps): (params: { contractAddress: string }) => Promise<string> {
  return async ({ contractAddress }) => {
    const body = await prices.history(contractAddress, now());
    if (body === undefined) throw new NotFoundError(`No token ${contractAddress} is indexed.`);
    return body;
  };
}

/** Up to 100 tokens' serialised histories; unknown addresses are left out. */
export function priceHistoriesAnswer({ prices, now = () => new Date() }: PriceDeps): (query: ListPriceHistoriesQuery) => Promise<string> {
  return (query) => prices.histories(query.addresses, now());
}

/** GET /prices/{contractAddress}: from the in-memory store; 404 when the token is not indexed. */
export function getTokenPriceHistory(deps: ApiDeps): RequestHandler<{ contractAddress: string }> {
  const answer = tokenPriceHistoryAnswer(deps);
  return async (req, res) => sendJsonBody(res, await answer(req.params));
}

/** GET /prices?addresses=…: up to 100 tokens from the in-memory store; unknown addresses are left out. */
export function listPriceHistories(deps: ApiDeps): RequestHandler {
  const answer = priceHistoriesAnswer(deps);
  return async (req, res) => sendJsonBody(res, await answer(req.query as unknown as ListPriceHistoriesQuery));
}
