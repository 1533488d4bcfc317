import type { Operation } from '../../../generated/openapi/operations.ts';
import { matchOperation, type OperationMatch } from './matchOperation.ts';

/** The response header that names the query parameters an answer ignored (spec: components/headers/IgnoredParameters). */
export const IGNORED_PARAMETERS_HEADER = 'X-Ignored-Parameters';
/** The most names the header lists; a last item `+N` counts the rest. */
export const MAX_LISTED_NAMES = 10;
/** The longest item of the header, in characters of its encoded form. */
export const MAX_LISTED_NAME_CHARS = 64;

/** A query string split by the names its operation declares. */
export type QuerySplit = {
  /** The query without the undeclared parameters, raw ('' when nothing is left). */
  query: string;
  /** The X-Ignored-Parameters value; undefined when nothing was ignored (then `query` is the query as sent). */
  ignored: string | undefined;
};

const declaredByOperation = new Map<string, Set<string>>();

/** The query parameter names an operation declares (exact, case-sensitive). */
function declaredNames(operation: Operation): Set<string> {
  let names = declaredByOperation.get(operation.operationId);
  if (!names) {
    names = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    declaredByOperation.set(operation.operationId, names);
  }
  return names;
}

function decodeName(raw: string): string {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw; // as the query parser leaves it
  }
}

/**
 * The name of a `name=value` pair (or a bare `name`) when the operation does not declare it, as
 * the query parser decodes it; undefined when the pair is kept: a declared name, a declared name
 * with brackets or without `=` (malformed, refused with a 400 naming it), a pair without a name
 * (`=1`, refused), or an empty pair (`&&`, nothing).
 */
function undeclaredName(pair: string, declared: Set<string>): string | undefined {
  if (pair === '') return undefined;
  const eq = pair.indexOf('=');
  const raw = eq < 0 ? pair : pair.slice(0, eq);
  if (declared.has(raw)) return undefined;
  const name = decodeName(raw);
  if (name === '') return undefined;
  const bracket = name.search(/[[\]]/);
  return declared.has(bracket < 0 ? name : name.slice(0, bracket)) ? undefined : name;
}

/** Characters a listed name keeps as they are; every other one is percent-encoded (UTF-8), so no item holds `,`, a space or `+`. */
const KEPT = /[A-Za-z0-9\-._~!$'()*:;@/?[\]]/;

/** One item of the header: the decoded name encoded again, cut to MAX_LISTED_NAME_CHARS without splitting an escape. */
function listedName(name: string): string {
  let out = '';
  for (const ch of name) {
    const piece = KEPT.test(ch) ? ch : encodeURIComponent(ch);
    if (out.length + piece.length > MAX_LISTED_NAME_CHARS) break;
    out += piece;
  }
  return out;
}

/** The header's value: each name once, in the order first sent, at most MAX_LISTED_NAMES, then `+N` for the rest. */
function headerValue(names: readonly string[]): string {
  const listed = names.slice(0, MAX_LISTED_NAMES).map(listedName);
  if (names.length > MAX_LISTED_NAMES) listed.push(`+${names.length - MAX_LISTED_NAMES}`);
  return listed.join(', ');
}

const NOTHING_IGNORED: QuerySplit = { query: '', ignored: undefined };

/**
 * Splits a raw query string by the operation's declared parameters: the query without the
 * parameters it does not declare, and the X-Ignored-Parameters value naming them. The answer to
 * a request is the answer to its declared query (spec: the conventions of info.description);
 * the fast lane, Express and the response cache's key all read the request through this.
 */
export function splitQuery(operation: Operation, query: string): QuerySplit {
  if (query === '') return NOTHING_IGNORED;
  const declared = declaredNames(operation);
  const pairs = query.split('&');
  let kept: string[] | undefined;
  let ignored: string[] | undefined;
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i]!;
    const name = undeclaredName(pair, declared);
    if (name === undefined) {
      kept?.push(pair);
      continue;
    }
    kept ??= pairs.slice(0, i);
    ignored ??= [];
    if (!ignored.includes(name)) ignored.push(name);
  }
  return ignored ? { query: kept!.join('&'), ignored: headerValue(ignored) } : { query, ignored: undefined };
}

// The fast lane and the response cache's key read the same match: one split serves both.
let lastMatch: OperationMatch | undefined;
let lastSplit: QuerySplit = NOTHING_IGNORED;

/** splitQuery of a matched request target, kept for the last match. */
export function splitMatchedQuery(match: OperationMatch): QuerySplit {
  if (match.query === '') return NOTHING_IGNORED;
  if (match !== lastMatch) {
    lastSplit = splitQuery(match.operation, match.query);
    lastMatch = match;
  }
  return lastSplit;
}

/** A request target with the query replaced (none when empty). */
export const withQuery = (url: string, query: string): string => {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return query === '' ? path : `${path}?${query}`;
};

/**
 * The request target an answer is keyed by: the target without the parameters its operation
 * does not declare (the same string when it declares them all, or names no operation).
 */
export function declaredTarget(url: string): string {
  const match = matchOperation(url);
  if (!match || match.query === '') return url;
  const split = splitMatchedQuery(match);
  return split.ignored === undefined ? url : withQuery(url, split.query);
}

/**
 * The operation of a request target as Express routes it (case-insensitive, a trailing slash
 * allowed), for the Express side, which sees the forms the fast lane leaves to it.
 */
export function matchOperationAsRouted(url: string): OperationMatch | undefined {
  const exact = matchOperation(url);
  if (exact) return exact;
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  // The spec's literal segments are lower case; the templated ones match any text.
  return matchOperation(`${path.toLowerCase()}${q < 0 ? '' : url.slice(q)}`);
}
