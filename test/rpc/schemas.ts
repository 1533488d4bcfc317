// Ajv validators used by the tests: a method's result schema from spec/openrpc.json, and the
// upstream execution-apis TransactionInfo schema from test/fixtures/execution-apis.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { openRpcDocument } from '../../src/rpc/index.ts';

export const fixturesDir = join(import.meta.dirname, '..', 'fixtures', 'execution-apis');

export function openRpcResultValidator(method: string): ValidateFunction {
  const doc = openRpcDocument();
  const m = doc.methods.find((x) => x.name === method);
  if (!m) throw new Error(`no method ${method} in spec/openrpc.json`);
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.compile({ ...m.result.schema, components: doc.components });
}

export function executionApisTransactionValidator(): ValidateFunction {
  const schemas: Record<string, unknown> = {};
  for (const file of ['base-types.schema.yaml', 'block.schema.yaml', 'transaction.schema.yaml']) {
    Object.assign(schemas, parse(readFileSync(join(fixturesDir, file), 'utf8')) as Record<string, unknown>);
  }
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.compile({ $ref: '#/components/schemas/TransactionInfo', components: { schemas } });
}

export interface Exchange {
  file: string;
  comment: string;
  request: { jsonrpc: string; id: number; method: string; params: unknown[] };
  response: { jsonrpc: string; id: number; result?: unknown; error?: unknown };
}

/** Parses an execution-apis .io file: `>>` request, `<<` response, `//` comment. */
export function parseIoFile(file: string): Exchange[] {
  const out: Exchange[] = [];
  let comment = '';
  let request: Exchange['request'] | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('//')) comment = line.slice(2).trim();
    else if (line.startsWith('>>')) request = JSON.parse(line.slice(2)) as Exchange['request'];
    else if (line.startsWith('<<')) {
      if (!request) throw new Error(`${file}: response without request`);
      out.push({ file, comment, request, response: JSON.parse(line.slice(2)) as Exchange['response'] });
      request = undefined;
    } else if (line.trim() !== '') throw new Error(`${file}: unexpected line ${line}`);
  }
  return out;
}
