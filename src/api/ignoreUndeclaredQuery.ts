import type { RequestHandler } from 'express';
import { IGNORED_PARAMETERS_HEADER, matchOperationAsRouted, splitQuery, withQuery } from './operations/undeclaredQuery.ts';

/**
 * Drops the query parameters the request's operation does not declare before
 * express-openapi-validator sees the request, and names them in X-Ignored-Parameters: the
 * answer is the answer to the declared query, validated with every bound (the validator still
 * refuses unknown names, and none is left but malformed ones, see splitQuery). The request
 * target is rewritten (url and originalUrl, which the validator and the response cache read);
 * the access log keeps the target as received. Requests outside the spec's operations pass.
 */
export function ignoreUndeclaredQuery(): RequestHandler {
  return (req, res, next) => {
    const match = matchOperationAsRouted(req.url);
    if (!match || match.query === '') return next();
    const split = splitQuery(match.operation, match.query);
    if (split.ignored === undefined) return next();
    res.setHeader(IGNORED_PARAMETERS_HEADER, split.ignored);
    const target = withQuery(req.url, split.query);
    req.url = target;
    req.originalUrl = target;
    next();
  };
}
