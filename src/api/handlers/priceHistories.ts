import type { RequestHandler } from 'express';
import { NotFoundError } from '../../errors/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';
import type { ListPriceHistoriesQuery } from '../types.ts';

const HOUR_MS = 3_600_000;

/** The starts of the oldest and the newest (current) of the 24 hourly buckets. */
export function historyRange(now: Date): { from: Date; to: Date } {
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { from: new Date(current - 23 * HOUR_MS), to: new Date(current) };
}

/** GET /prices/{contractAddress}: from the in-memory store; 404 when the token is not indexed. */
export function getTokenPriceHistory({ prices, now = () => new Date(), validateResponses }: ApiDeps): RequestHandler<{ contractAddress: string }> {
  return async (req, res) => {
    const body = await prices.history(req.params.contractAddress, now());
    if (body === undefined) throw new NotFoundError(`No token ${req.params.contractAddress} is indexed.`);
    sendJsonBody(res, body, validateResponses);
  };
}

/** GET /prices?addresses=…: up to 100 tokens from the in-memory store; unknown addresses are left out. */
export function listPriceHistories({ prices, now = () => new Date(), validateResponses }: ApiDeps): RequestHandler {
  return async (req, res) => {
    const query = req.query as unknown as ListPriceHistoriesQuery;
    sendJsonBody(res, await prices.histories(query.addresses, now()), validateResponses);
  };
}
