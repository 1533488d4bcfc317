import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { isDecimalInteger } from '../../spec/integerQuery.ts';
import { operationParameters, type OpenApiDocument, type OpenApiParameter, type Schema } from '../../spec/readOpenApiDocument.ts';

/** Typed, defaulted parameters of one request, or undefined when the lane must not decide. */
export type ParamsReader = (query: string, pathParams: Readonly<Record<string, string>>) => Record<string, unknown> | undefined;

type Kind = 'integer' | 'boolean' | 'csv' | 'string';

/**
 * Reads an operation's parameters with the spec's own schemas (page bounds, enums, address
 * patterns, list sizes) compiled once with Ajv. It only ever says "valid, and these are the
 * values": anything it is not sure to read exactly as the Express pipeline does (percent or
 * plus encoding, repeated or empty values, integers that are not plain digits, unknown names,
 * any schema violation) returns undefined, and the request goes to express-openapi-validator,
 * which gives the canonical problem+json. So no answer here can differ from the full pipeline's.
 */
export function compileOperationParams(spec: OpenApiDocument, path: string, method: string): ParamsReader {
  let readers = compiled.get(spec);
  if (!readers) compiled.set(spec, (readers = new Map()));
  const key = `${method} ${path}`;
  let reader = readers.get(key);
  if (!reader) readers.set(key, (reader = compile(spec, path, method)));
  return reader;
}

/** Readers are pure functions of the document (parsed once per process) and the operation: each is compiled once. */
const compiled = new WeakMap<OpenApiDocument, Map<string, ParamsReader>>();

function compile(spec: OpenApiDocument, path: string, method: string): ParamsReader {
  const params = operationParameters(spec, path, method);
  const kinds = new Map<string, Kind>();
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const p of params) {
    if (p.in !== 'query' && p.in !== 'path') throw new Error(`${path}: ${p.in} parameters are not supported by the lane`);
    properties[p.name] = p.schema;
    if (p.required) required.push(p.name);
    kinds.set(p.name, kindOf(p, p.schema, path));
  }
  const ajv = new Ajv({ strict: false, useDefaults: true, allErrors: false });
  // The formats as express-openapi-validator checks requests: ajv-formats in its "fast" mode.
  addFormats.default(ajv, { mode: 'fast' });
  const validate = ajv.compile({
    type: 'object',
    properties,
    required,
    additionalProperties: false,
  });
  const queryNames = new Set(params.filter((p) => p.in === 'query').map((p) => p.name));

  return (query, pathParams) => {
    const values: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(pathParams)) {
      const value = typed(kinds.get(name), raw);
      if (value === undefined) return undefined;
      values[name] = value;
    }
    if (query !== '') {
      for (const pair of query.split('&')) {
        const eq = pair.indexOf('=');
        const name = eq < 0 ? pair : pair.slice(0, eq);
        if (!queryNames.has(name) || Object.hasOwn(values, name) || eq < 0) return undefined;
        const value = typed(kinds.get(name), pair.slice(eq + 1));
        if (value === undefined) return undefined;
        values[name] = value;
      }
    }
    return validate(values) ? values : undefined;
  };
}

function typed(kind: Kind | undefined, raw: string): unknown {
  if (kind === undefined || raw === '' || raw.includes('%') || raw.includes('+')) return undefined;
  switch (kind) {
    case 'integer':
      return isDecimalInteger(raw) ? Number(raw) : undefined;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
    case 'csv': {
      const items = raw.split(',');
      return items.includes('') ? undefined : items;
    }
    default:
      return raw;
  }
}

function kindOf(p: OpenApiParameter, schema: Schema, path: string): Kind {
  if (schema.type === 'integer' || schema.type === 'boolean' || schema.type === 'string') return schema.type;
  if (schema.type === 'array' && p.style === 'form' && p.explode === false) return 'csv';
  throw new Error(`${path}: parameter ${p.name} has a shape the lane does not read (${JSON.stringify(schema.type)})`);
}
