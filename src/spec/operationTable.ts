// The operation table the server routes from: generated/openapi/operations.json, read once per
// process (a JSON file, so plain node runs it from dist/ as tsx runs it from src/), typed by
// generated/openapi/operations.ts. Both are written by one run of `npm run generate`
// (scripts/generate/15-openapi-operations.ts); CI fails when either drifts from the spec.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OperationId, Operations } from '../../generated/openapi/operations.ts';

const path = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'generated', 'openapi', 'operations.json');

/** Every operation of the spec, by operationId. */
export const operations: Operations = JSON.parse(readFileSync(path, 'utf8'));

const isOperationId = (id: string): id is OperationId => Object.hasOwn(operations, id);

/** The operationIds, in the spec's order. */
export const operationIds: readonly OperationId[] = Object.keys(operations).filter(isOperationId);

for (const id of operationIds) {
  if (operations[id].operationId !== id) throw new Error(`${path}: entry ${id} names ${operations[id].operationId}; run npm run generate`);
}
