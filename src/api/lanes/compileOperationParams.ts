import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parse } from 'yaml';

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string; required?: boolean; style?: string; explode?: boolean; schema: Schema };
export type OpenApiSpec = {
  paths: Record<string, Record<string, { parameters?: (Parameter | { $ref: string })[] }>>;
  components?: Record<string, Record<string, unknown>>;
};

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
export function compileOperationParams(spec: OpenApiSpec, path: string, method: string): ParamsReader {
  const operation = spec.paths[path]?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the OpenAPI document`);
  const params = (operation.parameters ?? []).map((p) => resolve(spec, p) as Parameter);
  const kinds = new Map<string, Kind>();
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const p of params) {
    if (p.in !== 'query' && p.in !== 'path') throw new Error(`${path}: ${p.in} parameters are not supported by the lane`);
    const schema = resolve(spec, p.schema) as Schema;
    properties[p.name] = schema;
    if (p.required) required.push(p.name);
    kinds.set(p.name, kindOf(p, schema, path));
  }
  const validate = new Ajv({ strict: false, useDefaults: true, allErrors: false }).compile({
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
      return /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
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

function kindOf(p: Parameter, schema: Schema, path: string): Kind {
  if (schema.type === 'integer' || schema.type === 'boolean' || schema.type === 'string') return schema.type;
  if (schema.type === 'array' && p.style === 'form' && p.explode === false) return 'csv';
  throw new Error(`${path}: parameter ${p.name} has a shape the lane does not read (${JSON.stringify(schema.type)})`);
}

/** The OpenAPI document, parsed once for all the operations compiled from it. */
export function readOpenApiSpec(specPath: string): OpenApiSpec {
  return parse(readFileSync(specPath, 'utf8')) as OpenApiSpec;
}

/** Inlines local $refs (#/components/...); the parameter schemas are not recursive. */
function resolve(spec: OpenApiSpec, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => resolve(spec, n));
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const target = ref.replace(/^#\//, '').split('/').reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], spec);
    if (target === undefined) throw new Error(`unresolved ${ref}`);
    return resolve(spec, target);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(spec, v)]));
}
