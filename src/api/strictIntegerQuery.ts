import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';
import { parse } from 'yaml';
import { ValidationError, type FieldIssue } from '../errors/index.ts';

type Parameter = { name?: string; in?: string; schema?: { type?: string }; $ref?: string };
type Spec = {
  paths?: Record<string, Record<string, { parameters?: Parameter[] }>>;
  components?: { parameters?: Record<string, Parameter> };
};

/** Names of the integer query parameters declared anywhere in the spec. */
function integerQueryParameters(specPath: string): Set<string> {
  const spec = parse(readFileSync(specPath, 'utf8')) as Spec;
  const resolve = (p: Parameter) => (p.$ref ? spec.components?.parameters?.[p.$ref.split('/').at(-1)!] ?? p : p);
  const names = new Set<string>();
  for (const operations of Object.values(spec.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const parameter of (operation.parameters ?? []).map(resolve)) {
        if (parameter.in === 'query' && parameter.schema?.type === 'integer' && parameter.name) names.add(parameter.name);
      }
    }
  }
  return names;
}

/**
 * The validator coerces query strings with Number(), which takes "0x10", "1e1" and " 5".
 * Integers here must be plain decimal digits (an optional minus, so "-1" reads as out of range).
 */
export function strictIntegerQuery(specPath: string): RequestHandler {
  const names = integerQueryParameters(specPath);
  return (req, _res, next) => {
    const issues: FieldIssue[] = [];
    for (const name of names) {
      const value = req.query[name];
      if (typeof value === 'string' && !/^-?\d{1,15}$/.test(value)) {
        issues.push({ field: name, in: 'query', message: 'must be an integer in decimal digits' });
      }
    }
    next(issues.length ? new ValidationError(issues) : undefined);
  };
}
