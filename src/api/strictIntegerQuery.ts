import type { RequestHandler } from 'express';
import { ValidationError, type FieldIssue } from '../errors/index.ts';
import { isDecimalInteger } from '../spec/integerQuery.ts';
import { operationParameters, readOpenApiDocument } from '../spec/readOpenApiDocument.ts';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Names of the integer query parameters declared anywhere in the spec. */
function integerQueryParameters(specPath: string): Set<string> {
  const doc = readOpenApiDocument(specPath);
  const names = new Set<string>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const method of Object.keys(operations).filter((key) => HTTP_METHODS.has(key))) {
      for (const p of operationParameters(doc, path, method)) if (p.in === 'query' && p.schema.type === 'integer') names.add(p.name);
    }
  }
  return names;
}

/**
 * The validator coerces query strings with Number(), which takes "0x10", "1e1" and " 5": an
 * integer parameter must pass the spec's integer rule (isDecimalInteger) first.
 */
export function strictIntegerQuery(specPath: string): RequestHandler {
  const names = integerQueryParameters(specPath);
  return (req, _res, next) => {
    const issues: FieldIssue[] = [];
    for (const name of names) {
      const value = req.query[name];
      if (typeof value === 'string' && !isDecimalInteger(value)) {
        issues.push({ field: name, in: 'query', message: 'must be an integer in decimal digits' });
      }
    }
    next(issues.length ? new ValidationError(issues) : undefined);
  };
}
