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

type Template = { id: OperationId; operation: Operation; segments: { literal?: string; param?: string }[] };

const exact = new Map<string, Template>();
const templated: Template[] = [];
for (const id of operationIds) {
  const operation: Operation = operations[id];
  const segments = operation.path.split('/').map((s) => (/^\{[^}]+\}$/.test(s) ? { param: s.slice(1, -1) } : { literal: s }));
  const template = { id, operation, segments };
  if (segments.some((s) => s.param)) templated.push(template);
  else exact.set(operation.path, template);
}
// More literal segments first: /tokens/{a}/pools before a /tokens/{a}/{b} the spec might add.
templated.sort((a, b) => b.segments.filter((s) => s.literal !== undefined).length - a.segments.filter((s) => s.literal !== undefined).length);

/**
 * The operation a request target names, read strictly: the path exactly as the spec writes it
 * (case and slashes included), each templated segment not empty. Undefined otherwise: Express
 * then decides, and answers the odd forms its routing accepts (a trailing slash, another case)
 * itself. Matches the path only, not the method.
 */
export function matchOperation(url: string): OperationMatch | undefined {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  const found = exact.get(path);
  if (found) return { id: found.id, operation: found.operation, pathParams: {}, query };
  const parts = path.split('/');
  for (const { id, operation, segments } of templated) {
    if (segments.length !== parts.length) continue;
    const pathParams: Record<string, string> = {};
    const fits = segments.every((s, i) => {
      const part = parts[i]!;
      if (s.param === undefined) return s.literal === part;
      pathParams[s.param] = part;
      return part !== '';
    });
    if (fits) return { id, operation, pathParams, query };
  }
  return undefined;
}
