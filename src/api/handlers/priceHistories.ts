import type { RequestHandler } from 'express';
import { getPriceHistories, type PricePointRow } from '../../db/index.ts';
import { NotFoundError } from '../../errors/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import type { ListPriceHistoriesQuery, PriceHistories, PriceHistory } from '../types.ts';

const HOUR_MS = 3_600_000;

/** The starts of the oldest and the newest (current) of the 24 hourly buckets. */
export function historyRange(now: Date): { from: Date; to: Date } {
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { from: new Date(current - 23 * HOUR_MS), to: new Date(current) };
}

const toHistory = (points: PricePointRow[]): PriceHistory =>
  points.map((p) => ({ price: Number(p.price), timestamp: p.hour.toISOString() }));

/** GET /prices/{contractAddress} */
export function getTokenPriceHistory({ db, now = () => new Date() }: ApiDeps): RequestHandler<{ contractAddress: string }> {
  return async (req, res) => {
    const address = req.params.contractAddress.toLowerCase();
    const histories = await getPriceHistories(db, [address], historyRange(now()));
    const [points] = [...histories.values()];
    if (!points) throw new NotFoundError(`No token ${req.params.contractAddress} is indexed.`);
    res.json(toHistory(points));
  };
}

/** GET /prices?addresses=…: one query for up to 100 tokens; unknown addresses are left out. */
export function listPriceHistories({ db, now = () => new Date() }: ApiDeps): RequestHandler {
  return async (req, res) => {
    const query = req.query as unknown as ListPriceHistoriesQuery;
    const addresses = [...new Set(query.addresses.map((a) => a.toLowerCase()))];
    const histories = await getPriceHistories(db, addresses, historyRange(now()));
    const body: PriceHistories = {};
    for (const [address, points] of histories) body[address] = toHistory(points);
    res.json(body);
  };
}
