import type { AnswerFactory } from '../operations/Reply.ts';

/** GET /tokens: a page of the catalogue (addresses in lower case without repeats, `search` trimmed), with its ETag. */
export const listTokens: AnswerFactory<'listTokens'> = ({ catalog }) => async (query) => {
  const { bytes, etag } = await catalog.page({
    page: query.page,
    limit: query.limit,
    order: query.order,
    sort: query.sort,
    isSecure: query.isSecure,
    addresses: query.addresses ? [...new Set(query.addresses.map((a) => a.toLowerCase()))] : undefined,
    search: query.search?.trim(),
  });
  return { type: 'application/json', body: bytes, etag };
};
