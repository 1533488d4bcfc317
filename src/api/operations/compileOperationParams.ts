import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Operation, OperationId, OperationParameter, OperationParams } from '../../../generated/openapi/operations.ts';
import { operations } from '../../spec/operationTable.ts';
import { isDecimalInteger } from '../../spec/integerQuery.ts';

/** An operation's parameters, read with the spec's own schemas. */
export type ParamsReader<P> = {
  /**
   * From the raw query string and path segments: the typed values with the spec's defaults, or
   * undefined when the lane must not decide (see compileOperationParams).
   */
  read(query: string, pathParams: Readonly<Record<string, string>>): P | undefined;
  /** From values express-openapi-validator has checked and coerced: the same values, or undefined if they do not match the schemas. */
  accept(values: Record<string, unknown>): P | undefined;
};

type Kind = 'integer' | 'boolean' | 'csv' | 'string';

/**
 * Reads an operation's parameters with the spec's own schemas (page bounds, enums, address
 * patterns, list sizes) compiled once with Ajv, typed as the spec's parameter types. `read` only
 * ever says "valid, and these are the values": anything it is not sure to read exactly as the
 * Express pipeline does (percent or plus encoding, repeated or empty values, integers that are
 * not plain digits, unknown names, any schema violation) returns undefined, and the request goes
 * to express-openapi-validator, which gives the canonical problem+json. So no answer of the lane
 * can differ from the full pipeline's.
 */
export function compileOperationParams<Id extends OperationId>(id: Id): ParamsReader<OperationParams[Id]> {
  const operation: Operation = operations[id];
  const check = schemaCheck(id, operation);
  // The operation's parameter types are its parameter schemas' (both generated from the spec).
  const validate = (values: Record<string, unknown>): values is OperationParams[Id] => check(values);
  const params = operation.parameters;
  const kinds = new Map(params.map((p) => [p.name, kindOf(p, operation.path)]));
  const queryNames = new Set(params.filter((p) => p.in === 'query').map((p) => p.name));
  const names = params.map((p) => p.name);

  return {
    read(query, pathParams) {
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
    },
    accept(given) {
      const values: Record<string, unknown> = {};
      for (const name of names) if (given[name] !== undefined) values[name] = given[name];
      return validate(values) ? values : undefined;
    },
  };
}

/** The Ajv checks of the operations' parameter schemas, compiled once per process. */
const checks = new Map<OperationId, ValidateFunction>();

/** Checks an operation's parameters against their schemas, filling in the spec's defaults. */
function schemaCheck(id: OperationId, operation: Operation): ValidateFunction {
  let check = checks.get(id);
  if (check) return check;
  const properties: Record<string, OperationParameter['schema']> = {};
  const required: string[] = [];
  for (const p of operation.parameters) {
    properties[p.name] = p.schema;
    if (p.required) required.push(p.name);
  }
  const ajv = new Ajv({ strict: false, useDefaults: true, allErrors: false });
  // The formats as express-openapi-validator checks requests: ajv-formats in its "fast" mode.
  addFormats.default(ajv, { mode: 'fast' });
  check = ajv.compile({ type: 'object', properties, required, additionalProperties: false });
  checks.set(id, check);
  return check;
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

function kindOf(p: OperationParameter, path: string): Kind {
  const type = p.schema.type;
  if (type === 'integer' || type === 'boolean' || type === 'string') return type;
  if (type === 'array' && p.style === 'form' && p.explode === false) return 'csv';
  throw new Error(`${path}: parameter ${p.name} has a shape the lane does not read (${JSON.stringify(type)})`);
}
