import type { RequestHandler } from 'express';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';
import type { ListTokensQuery } from '../types.ts';

/** GET /tokens. The validator has already applied defaults and bounds to the query. */
export function listTokens({ catalog, validateResponses }: ApiDeps): RequestHandler {
  return async (req, res) => {
    const query = req.query as unknown as ListTokensQuery;
    const body = await catalog.page({
      page: query.page ?? 1,
      limit: query.limit ?? 50,
      order: query.order ?? 'fdv',
      sort: query.sort ?? 'desc',
      isSecure: query.isSecure,
      addresses: query.addresses ? [...new Set(query.addresses.map((a) => a.toLowerCase()))] : undefined,
    });
    sendJsonBody(res, body, validateResponses);
  };
}
