// A valid request URL for each operation of the generated table, built from its parameter
// schemas: so that tests covering "every operation" follow the spec as it gains some.
import type { Operation, OperationId, OperationParameter } from '../../generated/openapi/operations.ts';
import { operationIds, operations } from '../../src/spec/operationTable.ts';

/** A value inside a parameter's schema: `address` for address patterns (and lists of them). */
function sampleValue(parameter: OperationParameter, address: string): string {
  const schema = parameter.schema;
  const items = schema.items as { pattern?: string } | undefined;
  if (typeof schema.pattern === 'string' && schema.pattern.includes('0-9a-fA-F')) return address;
  if (schema.type === 'array' && items?.pattern?.includes('0-9a-fA-F')) return address;
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.type === 'integer') return String(typeof schema.minimum === 'number' ? schema.minimum : 0);
  if (schema.type === 'boolean') return 'true';
  if (schema.format === 'date-time') return '2026-11-21T00:00:00Z';
  return 'x';
}

/** The operation's path with `address` for its path parameters, its required query parameters, and `extra` query text. */
export function sampleUrl(operation: Operation, address: string, extra = ''): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, () => address);
  const query = operation.parameters.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${sampleValue(p, address)}`);
  if (extra) query.push(extra);
  return query.length ? `${path}?${query.join('&')}` : path;
}

/** Every operation with a sample URL; `extra` adds query text per operation (e.g. `/at`'s `block=1`). */
export function everyOperation(address: string, extra: Partial<Record<OperationId, string>> = {}): { id: OperationId; operation: Operation; url: string }[] {
  return operationIds.map((id) => ({ id, operation: operations[id], url: sampleUrl(operations[id], address, extra[id]) }));
}

/**
 * The same request with one character of a parameter's value percent-encoded (the first query
 * value's first, or the first hex digit of the last path address): Express decodes it to the same
 * request, the lane leaves it to Express. Undefined when the URL has no parameter value.
 */
export function expressForm(url: string): string | undefined {
  const eq = url.indexOf('=');
  const address = url.lastIndexOf('/0x');
  const at = eq >= 0 ? eq + 1 : address >= 0 ? address + 3 : -1;
  if (at < 0 || at >= url.length || url[at] === '&') return undefined;
  return `${url.slice(0, at)}%${url.charCodeAt(at).toString(16).toUpperCase()}${url.slice(at + 1)}`;
}
