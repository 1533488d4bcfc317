import type { RequestHandler } from 'express';
import { listTokens as queryTokens } from '../../db/index.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { toToken } from '../toToken.ts';
import type { ListTokensQuery, TokenPage } from '../types.ts';

/** GET /tokens. The validator has already applied defaults and bounds to the query. */
export function listTokens({ db }: ApiDeps): RequestHandler {
  return async (req, res) => {
    const query = req.query as unknown as ListTokensQuery;
    const page = query.page ?? 1;
    const limit = query.limit ?? 50;
    const { rows, total } = await queryTokens(db, {
      page,
      limit,
      order: query.order ?? 'fdv',
      sort: query.sort ?? 'desc',
      isSecure: query.isSecure,
      addresses: query.addresses ? [...new Set(query.addresses.map((a) => a.toLowerCase()))] : undefined,
    });
    const body: TokenPage = {
      data: rows.map(toToken),
      meta: { page, limit, totalItemsCount: total, pagesCount: Math.ceil(total / limit) },
    };
    res.json(body);
  };
}
