import type { Operation, OperationId } from '../../../generated/openapi/operations.ts';
import { operationIds, operations } from '../../spec/operationTable.ts';

/** A request target read as one of the spec's operations. */
export type OperationMatch = {
  id: OperationId;
  operation: Operation;
  /** The templated segments' raw text (still percent-encoded), by parameter name. */
  pathParams: Record<string, string>;
  /** What follows `?`, raw ('' when nothing does). */
  query: string;
};

/** A templated path: its segments, each a literal or (undefined) a parameter, and the parameters' names by position. */
type Template = { id: OperationId; operation: Operation; literals: (string | undefined)[]; params: [number, string][] };

const exact = new Map<string, { id: OperationId; operation: Operation }>();
/** Templated paths by segment count and first segment (`*` when that is a parameter). */
const templated = new Map<string, Template[]>();
for (const id of operationIds) {
  const operation: Operation = operations[id];
  const segments = operation.path.split('/');
  const params = segments.flatMap((s, i): [number, string][] => (/^\{[^}]+\}$/.test(s) ? [[i, s.slice(1, -1)]] : []));
  if (params.length === 0) {
    exact.set(operation.path, { id, operation });
    continue;
  }
  const literals = segments.map((s, i) => (params.some(([at]) => at === i) ? undefined : s));
  const key = `${segments.length}/${literals[1] ?? '*'}`;
  templated.set(key, [...(templated.get(key) ?? []), { id, operation, literals, params }]);
}
// More literal segments first: /tokens/{a}/pools before a /tokens/{a}/{b} the spec might add.
const literalCount = (t: Template) => t.literals.filter((l) => l !== undefined).length;
for (const list of templated.values()) list.sort((a, b) => literalCount(b) - literalCount(a));

function matchTemplate(list: Template[] | undefined, parts: string[], query: string): OperationMatch | undefined {
  for (const t of list ?? []) {
    let fits = true;
    for (let i = 1; i < parts.length && fits; i++) fits = t.literals[i] === undefined ? parts[i] !== '' : t.literals[i] === parts[i];
    if (!fits) continue;
    const pathParams: Record<string, string> = {};
    for (const [at, name] of t.params) pathParams[name] = parts[at]!;
    return { id: t.id, operation: t.operation, pathParams, query };
  }
  return undefined;
}

// The fast lane and the response cache's key both read the request's URL: one match serves both.
let lastUrl: string | undefined;
let lastMatch: OperationMatch | undefined;

/**
 * The operation a request target names, read strictly: the path exactly as the spec writes it
 * (case and slashes included), each templated segment not empty. Undefined otherwise: Express
 * then decides, and answers the odd forms its routing accepts (a trailing slash, another case)
 * itself. Matches the path only, not the method.
 */
export function matchOperation(url: string): OperationMatch | undefined {
  if (url === lastUrl) return lastMatch;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  const found = exact.get(path);
  let match: OperationMatch | undefined;
  if (found) match = { id: found.id, operation: found.operation, pathParams: {}, query };
  else {
    const parts = path.split('/');
    match = matchTemplate(templated.get(`${parts.length}/${parts[1]}`), parts, query) ?? matchTemplate(templated.get(`${parts.length}/*`), parts, query);
  }
  lastUrl = url;
  lastMatch = match;
  return match;
}
