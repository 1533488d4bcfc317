import type { RequestHandler } from 'express';
import type { ApiDeps } from '../ApiDeps.ts';
import { sendJsonBody } from '../sendJsonBody.ts';
import type { TaggedBody } from '../../readModel/TaggedBody.ts';
import type { ListTokensQuery } from '../../readModel/types.ts';

/** The serialised page for a validated query (bounds already checked; the catalogue orders). */
export function listTokensAnswer({ catalog }: Pick<ApiDeps, 'catalog'>): (query: ListTokensQuery) => Promise<TaggedBody> {
  return (query) =>
    catalog.page({
      page: query.page ?? 1,
      limit: query.limit ?? 50,
      order: query.order,
      sort: query.sort,
      isSecure: query.isSecure,
      addresses: query.addresses ? [...new Set(query.addresses.map((a) => a.toLowerCase()))] : undefined,
      search: query.search?.trim(),
    });
}

/** GET /tokens. The validator has already applied defaults and bounds to the query. */
export function listTokens(deps: ApiDeps): RequestHandler {
  const answer = listTokensAnswer(deps);
  return async (req, res) => {
    const { bytes, etag } = await answer(req.query as unknown as ListTokensQuery);
    res.locals.etag = etag; // stored with the page by the response cache, as the lane stores it
    sendJsonBody(res, bytes);
  };
}
