// Compiles, with Ajv, one params validator per method of the OpenRPC document. Validation is
// by position (the document declares paramStructure by-position): wrong count, params given by
// name, or a value not matching its schema yields -32602 with a message naming the parameter.
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { OpenRpcDocument } from './openRpcDocument.ts';
import { RpcError, RpcErrorCode } from './rpcError.ts';

export type ParamsValidator = (params: unknown) => unknown[];

export function paramValidators(doc: OpenRpcDocument): Map<string, ParamsValidator> {
  // strict:false because OpenRPC schemas carry non-validation keywords (title, examples).
  const ajv = new Ajv({ strict: false, allErrors: false });
  // Every schema is compiled as a $ref into this root so #/components/schemas/... resolve.
  ajv.addSchema({ $id: 'openrpc.json', components: doc.components }, 'openrpc.json');
  const out = new Map<string, ParamsValidator>();
  for (const method of doc.methods) {
    const checks = method.params.map((p) => ({ param: p, validate: compile(ajv, p.schema) }));
    const required = method.params.filter((p) => p.required === true).length;
    out.set(method.name, (params) => {
      if (params === undefined) params = [];
      if (!Array.isArray(params)) {
        throw new RpcError(RpcErrorCode.InvalidParams, 'Invalid params: params must be an array (by-position)');
      }
      if (params.length > checks.length || params.length < required) {
        const names = method.params.map((p) => p.name).join(', ');
        throw new RpcError(
          RpcErrorCode.InvalidParams,
          `Invalid params: ${method.name} expects ${describeCount(required, checks.length)} (${names || 'none'}), got ${params.length}`,
        );
      }
      params.forEach((value, i) => {
        const check = checks[i];
        if (check && !check.validate(value)) {
          const what = check.param.description ?? `a value matching ${String(check.param.schema.title ?? 'its schema')}`;
          throw new RpcError(RpcErrorCode.InvalidParams, `Invalid params: ${check.param.name} is invalid; expected ${what}`, {
            data: { param: check.param.name, position: i },
          });
        }
      });
      return params;
    });
  }
  return out;
}

function compile(ajv: Ajv, schema: Record<string, unknown>): ValidateFunction {
  // Rewrite local refs to point into the registered document.
  const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openrpc.json#/')) as object;
  return ajv.compile(rewritten);
}

function describeCount(min: number, max: number): string {
  const n = (k: number): string => `${k} param${k === 1 ? '' : 's'}`;
  return min === max ? n(max) : `${min} to ${max} params`;
}
