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
 * The query rules express-openapi-validator does not enforce, or fails on with a TypeError
 * (a 500): every parameter is `name=value` (`?addresses` alone is refused), names carry no
 * brackets (`addresses[a]=…`), and integers pass the spec's integer rule (isDecimalInteger:
 * the validator's Number() takes "0x10", "1e1" and " 5"). Each broken rule is a 400 naming the
 * parameter.
 */
export function strictQuery(specPath: string): RequestHandler {
  const integers = integerQueryParameters(specPath);
  return (req, _res, next) => {
    const issues: FieldIssue[] = [];
    const q = req.url.indexOf('?');
    for (const pair of q < 0 ? [] : req.url.slice(q + 1).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
      if (/[[\]]/.test(name)) issues.push({ field: name, in: 'query', message: 'is not a parameter: names carry no brackets' });
      else if (eq < 0) issues.push({ field: name, in: 'query', message: 'must be given as name=value' });
    }
    for (const name of integers) {
      const value = req.query[name];
      if (typeof value === 'string' && !isDecimalInteger(value)) {
        issues.push({ field: name, in: 'query', message: 'must be an integer in decimal digits' });
      }
    }
    next(issues.length ? new ValidationError(issues) : undefined);
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}
